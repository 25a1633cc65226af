import { PostgresAuditLog, PostgresOperatorSessions } from '@treeagent/postgres';
import { describeOperatorStores } from '../test-support/describe-operator-stores.js';
import { requirePostgres, TEST_DATABASE_URL, testSchema } from '../test-support/server-process.js';

describeOperatorStores('PostgreSQL operator stores', async () => {
  await requirePostgres();
  const { schema, drop } = testSchema('operators');
  const make = () => ({
    sessions: new PostgresOperatorSessions({ connection: TEST_DATABASE_URL, schema }),
    auditLog: new PostgresAuditLog({ connection: TEST_DATABASE_URL, schema }),
  });
  const opened = [make()];
  return {
    ...opened[0]!,
    reopen: async () => {
      const other = make();
      opened.push(other);
      return other;
    },
    dispose: async () => {
      for (const stores of opened) await Promise.all([stores.sessions.close(), stores.auditLog.close()]);
      await drop();
    },
  };
});
