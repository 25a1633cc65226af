/**
 * Child process of the kill -9 test: holds the session's lock and commits turns in a loop on a
 * SQLite file, printing `ack <turn>` after each commit returned (and `vector <turn>` after each upsert). Run with `node --import tsx`.
 * Usage: commit-loop.ts <file> <sessionId> <leaseMs>
 */
import type { SessionRecord } from '@treeagent/core/adapter';
import { emptySessionRecord } from '@treeagent/core/adapter';
import { SqliteSessionStore } from '../sqlite-session-store.js';
import { SqliteVectorStore } from '../sqlite-vector-store.js';

const [file, sessionId, leaseMs] = process.argv.slice(2) as [string, string, string];
const store = new SqliteSessionStore(file, { lock: { leaseMs: Number(leaseMs), timeoutMs: 30_000 } });
const vectors = new SqliteVectorStore(file);
await store.lock(sessionId);
process.stdout.write('locked\n');

let record: SessionRecord =
  (await store.load(sessionId)) ?? emptySessionRecord(sessionId, new Date().toISOString());
for (;;) {
  const turn = record.turn + 1;
  const next: SessionRecord = {
    ...record,
    version: record.version + 1,
    turn,
    lastNodeId: turn,
    state: { turn, pad: 'x'.repeat(4000 + (turn % 7) * 1000) },
    updatedAt: new Date().toISOString(),
  };
  await store.commit({
    record: next,
    history: [
      { role: 'user', content: `user ${turn}`, turn, at: next.updatedAt },
      { role: 'assistant', content: `assistant ${turn} ${'y'.repeat(3000)}`, turn, at: next.updatedAt },
    ],
    expectedVersion: record.version,
  });
  record = next;
  process.stdout.write(`ack ${turn}\n`);
  // Some vector writes too, so the kill can land in any table.
  await vectors.upsert('c', [
    {
      id: turn,
      text: `chunk ${turn}`,
      vector: Float32Array.from({ length: 64 }, (_, i) => i + turn),
      payload: { turn },
    },
  ]);
  process.stdout.write(`vector ${turn}\n`);
  // Yield to timers (the lease renewal), as a server between requests would.
  await new Promise((resolve) => setImmediate(resolve));
}
