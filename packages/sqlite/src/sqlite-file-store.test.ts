import { join } from 'node:path';
import { describeFileStore } from '@treeagent/core/conformance';
import { SqliteFileStore } from './sqlite-file-store.js';
import { tempDir } from './test-support/temp-dir.js';

describeFileStore('SqliteFileStore', async () => {
  const { dir, remove } = tempDir();
  const file = join(dir, 'treeagent.db');
  const opened = [new SqliteFileStore(file)];
  return {
    store: opened[0]!,
    reopen: async () => {
      const again = new SqliteFileStore(file);
      opened.push(again);
      return again;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
      remove();
    },
  };
});
