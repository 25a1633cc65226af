import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSessionTokens } from '@treeagent/core/conformance';
import { SqliteSessionTokens } from '@treeagent/sqlite';

// InMemorySessionTokens runs the suite in core (handoff/in-memory-handoff-stores.test.ts).
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
