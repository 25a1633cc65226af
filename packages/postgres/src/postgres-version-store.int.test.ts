import { describeVersionStore } from '@treeagent/core/conformance';
import { PostgresVersionStore } from './postgres-version-store.js';
import { onSchema, TEST_DATABASE_URL } from './test-support/database.js';

describeVersionStore('PostgresVersionStore', async () => {
  const { open, dispose } = await onSchema(
    'versions',
    (schema) => new PostgresVersionStore({ connection: TEST_DATABASE_URL, schema }),
  );
  return { store: open(), reopen: async () => open(), dispose };
});
