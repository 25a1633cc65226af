import {
  requireDatabase,
  TEST_DATABASE_URL,
  testSchema,
} from '../../../postgres/src/test-support/database.js';
import { describePublishScenario } from '../test-support/publish-scenario.js';

describePublishScenario('PostgreSQL', async () => {
  await requireDatabase();
  const { schema, drop } = testSchema('cli_publish');
  return { flags: ['--database-url', TEST_DATABASE_URL, '--schema', schema], dispose: drop };
});
