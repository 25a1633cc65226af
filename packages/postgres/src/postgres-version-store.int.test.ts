import { describeVersionStore } from '@treeagent/core/conformance';
import { PostgresVersionStore } from './postgres-version-store.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';

describeVersionStore('PostgresVersionStore', async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('versions');
  const opened: PostgresVersionStore[] = [];
  const open = () => {
    const store = new PostgresVersionStore({ connection: TEST_DATABASE_URL, schema });
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
