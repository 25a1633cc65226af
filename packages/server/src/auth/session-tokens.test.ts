import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteSessionTokens } from '@treeagent/sqlite';
import { describeSessionTokens } from '../test-support/describe-session-tokens.js';
import { InMemorySessionTokens } from './session-tokens.js';

describeSessionTokens(
  'InMemorySessionTokens',
  async () => ({ tokens: new InMemorySessionTokens(), dispose: async () => {} }),
  {
    skip: [
      {
        reason: 'kept in process memory: nothing outlives the object',
        tests: [
          'a persistent store is seen by another instance on the same storage (restart, second process)',
        ],
      },
    ],
  },
);

describeSessionTokens('SqliteSessionTokens', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-tokens-'));
  const file = join(directory, 'treeagent.db');
  const opened: SqliteSessionTokens[] = [new SqliteSessionTokens(file)];
  return {
    tokens: opened[0]!,
    reopen: async () => {
      const other = new SqliteSessionTokens(file);
      opened.push(other);
      return other;
    },
    dispose: async () => {
      for (const tokens of opened) await tokens.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
