import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeVersionStore } from '@treeagent/core/conformance';
import { openSqlite, type SqliteStores } from './open-sqlite.js';

describeVersionStore('SqliteVersionStore (openSqlite)', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-versions-'));
  const opened: SqliteStores[] = [];
  const open = () => {
    const stores = openSqlite(directory);
    opened.push(stores);
    return stores.versionStore;
  };
  return {
    store: open(),
    reopen: async () => open(),
    dispose: async () => {
      for (const stores of opened) await stores.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
