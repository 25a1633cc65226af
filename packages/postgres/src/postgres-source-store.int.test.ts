import { describeSourceStore } from '@treeagent/core/conformance';
import { PostgresSourceStore } from './postgres-source-store.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';

describeSourceStore('PostgresSourceStore', async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('sources');
  const opened: PostgresSourceStore[] = [];
  const open = () => {
    const store = new PostgresSourceStore({ connection: TEST_DATABASE_URL, schema });
    opened.push(store);
    return store;
  };
  return {
    store: open(),
    reopen: async () => open(),
    dispose: async () => {
      for (const store of opened) await store.close();
      await drop();
    },
  };
});
