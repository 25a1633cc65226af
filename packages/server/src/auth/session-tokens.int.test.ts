import { describeSessionTokens } from '@treeagent/core/conformance';
import { PostgresSessionTokens } from '@treeagent/postgres';
import { requirePostgres, TEST_DATABASE_URL, testSchema } from '../test-support/server-process.js';

describeSessionTokens('PostgresSessionTokens', async () => {
  await requirePostgres();
  const { schema, drop } = testSchema('tokens');
  const opened = [new PostgresSessionTokens({ connection: TEST_DATABASE_URL, schema })];
  return {
    tokens: opened[0]!,
    reopen: async () => {
      const other = new PostgresSessionTokens({ connection: TEST_DATABASE_URL, schema });
      opened.push(other);
      return other;
    },
    dispose: async () => {
      for (const tokens of opened) await tokens.close();
      await drop();
    },
  };
});
