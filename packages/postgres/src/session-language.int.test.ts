import { beforeEach, describe, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { sessionLanguageSurvivesRestart } from '../../core/src/test-support/session-language-scenario.js';
import { PostgresSessionStore } from './index.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema } from './test-support/database.js';

const cleanups = cleanupsAfterEach();
beforeEach(requireDatabase);

describe('PostgreSQL: the session language', () => {
  it('survives a restart of the agent on the same database', async () => {
    const { schema, drop } = testSchema('session-language');
    cleanups.push(drop);
    await sessionLanguageSurvivesRestart(
      async () => new PostgresSessionStore({ connection: TEST_DATABASE_URL, schema }),
    );
  });
});
