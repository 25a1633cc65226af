import {
  requireDatabase,
  TEST_DATABASE_URL,
  testSchema,
} from '../../../postgres/src/test-support/database.js';
import { describeEnvironmentScenario } from '../test-support/environment-scenario.js';

describeEnvironmentScenario('PostgreSQL', async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('cli_serve_env');
  return { flags: ['--database-url', TEST_DATABASE_URL, '--schema', schema], dispose: drop };
});
