import { describeFileStore } from '@treeagent/core/conformance';
import { PostgresFileStore } from './postgres-file-store.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';

describeFileStore('PostgresFileStore', async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('files');
  const opened = [new PostgresFileStore({ connection: TEST_DATABASE_URL, schema })];
  return {
    store: opened[0]!,
    reopen: async () => {
      const again = new PostgresFileStore({ connection: TEST_DATABASE_URL, schema });
      opened.push(again);
      return again;
    },
    dispose: async () => {
      for (const store of opened) await store.close();
      await drop();
    },
  };
});
