import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqlite } from '@treeagent/sqlite';
import { describeHandoffQueue } from '../test-support/describe-handoff-queue.js';
import { InMemoryHandoffQueue } from './handoff-queue.js';

describeHandoffQueue(
  'InMemoryHandoffQueue',
  async () => ({ queue: new InMemoryHandoffQueue(), dispose: async () => {} }),
  {
    skip: [
      {
        reason: 'kept in process memory: nothing outlives the object',
        tests: [
          'a persistent queue is seen by another instance on the same storage (restart, second process)',
        ],
      },
    ],
  },
);

describeHandoffQueue('SqliteHandoffQueue', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-queue-'));
  const opened = [openSqlite(directory)];
  return {
    queue: opened[0]!.handoffQueue,
    reopen: async () => {
      const other = openSqlite(directory);
      opened.push(other);
      return other.handoffQueue;
    },
    dispose: async () => {
      for (const stores of opened) await stores.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});
