import { join } from 'node:path';
import { describe, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { sessionLanguageSurvivesRestart } from '../../core/src/test-support/session-language-scenario.js';
import { SqliteSessionStore } from './sqlite-session-store.js';
import { tempDir } from './test-support/temp-dir.js';

const cleanups = cleanupsAfterEach();

describe('SQLite: the session language', () => {
  it('survives a restart of the agent on the same database file', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = join(dir, 'sessions.db');
    await sessionLanguageSurvivesRestart(async () => new SqliteSessionStore(file));
  });
});
