import {
  PostgresAuditLog,
  PostgresHandoffQueue,
  PostgresSessionStore,
  PostgresSessionTokens,
} from '@treeagent/postgres';
import { describePersonalData } from '../test-support/describe-personal-data.js';
import { requirePostgres, TEST_DATABASE_URL, testSchema } from '../test-support/server-process.js';

describePersonalData('PostgreSQL (real stores in a schema of their own)', async () => {
  await requirePostgres();
  const { schema, drop } = testSchema('personal');
  const connection = TEST_DATABASE_URL;
  const sessionStore = new PostgresSessionStore({ connection, schema });
  const tokens = new PostgresSessionTokens({ connection, schema });
  const auditLog = new PostgresAuditLog({ connection, schema });
  const handoffQueue = new PostgresHandoffQueue({ connection, schema });
  return {
    sessionStore,
    tokens,
    auditLog,
    handoffQueue,
    keepsFacts: true,
    dispose: async () => {
      await Promise.all([sessionStore.close(), tokens.close(), auditLog.close(), handoffQueue.close()]);
      await drop();
    },
  };
});
