import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite, type SqliteStores } from '../open-sqlite.js';

/** The stores of a fresh data directory, and more instances on the same file (a restart, a second process). */
export function dataDirectory(label: string) {
  const directory = mkdtempSync(join(tmpdir(), `treeagent-${label}-`));
  const opened: SqliteStores[] = [];
  const open = () => {
    const stores = openSqlite(directory);
    opened.push(stores);
    return stores;
  };
  const dispose = async () => {
    for (const stores of opened) await stores.close();
    rmSync(directory, { recursive: true, force: true });
  };
  return { open, dispose };
}
