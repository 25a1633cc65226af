import { describeSourceStore } from '@treeagent/core/conformance';
import { PostgresSourceStore } from './postgres-source-store.js';
import { onSchema, TEST_DATABASE_URL } from './test-support/database.js';

describeSourceStore('PostgresSourceStore', async () => {
  const { open, dispose } = await onSchema(
    'sources',
    (schema) => new PostgresSourceStore({ connection: TEST_DATABASE_URL, schema }),
  );
  return { store: open(), reopen: async () => open(), dispose };
});
