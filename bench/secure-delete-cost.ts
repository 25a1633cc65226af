import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionRecord } from '../packages/core/src/adapter/index.js';
import { ANALYTICS_FIXTURE } from '../packages/core/src/conformance/analytics-fixture.js';
import { emptySessionRecord } from '../packages/core/src/session/session-store.js';
import { openSqlite } from '../packages/sqlite/src/index.js';

/**
 * What `PRAGMA secure_delete` costs the SQLite turn (issue #36): the store calls of a turn — lock,
 * load, commit (record, two history rows, the turn fact), release — timed one by one on
 * `openSqlite` with `secure_delete` OFF, FAST and ON (the default since issue #36), and the retention
 * sweep that deletes expired sessions (`deleteSessions` + their files). The modes run interleaved in
 * rounds, each on a fresh file, so a busy machine slows them alike.
 *
 *   npx tsx bench/secure-delete-cost.ts [--turns=3000] [--rounds=3] [--state-bytes=3000]
 */

const argument = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
const turns = Number(argument('turns') ?? 3000);
const rounds = Number(argument('rounds') ?? 3);
const stateBytes = Number(argument('state-bytes') ?? 3000);
const MODES = ['OFF', 'FAST', 'ON'] as const;
type Mode = (typeof MODES)[number];
const SESSIONS = 100;
/** A real turn fact's fields (the analytics fixture's first). */
const FACT = ANALYTICS_FIXTURE[0]!.facts[0]!;

async function run(mode: Mode): Promise<{ turns: number[]; sweepMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'treeagent-secure-delete-'));
  const stores = openSqlite(dir);
  stores.database.connection.pragma(`secure_delete = ${mode}`);
  const records = new Map<string, SessionRecord>();
  const samples: number[] = [];
  try {
    for (let turn = 0; turn < turns; turn++) {
      const sessionId = `s${turn % SESSIONS}`;
      const started = performance.now();
      const release = await stores.sessionStore.lock(sessionId);
      const record =
        (await stores.sessionStore.load(sessionId)) ??
        records.get(sessionId) ??
        emptySessionRecord(sessionId, new Date().toISOString());
      const at = new Date().toISOString();
      const next: SessionRecord = {
        ...record,
        version: record.version + 1,
        turn: record.turn + 1,
        // The state grows and shrinks: the record's overflow pages are freed and taken again.
        state: { notes: 'n'.repeat(stateBytes / 2 + ((turn * 7919) % stateBytes)) },
        updatedAt: at,
      };
      await stores.sessionStore.commit({
        record: next,
        history: [
          { role: 'user', content: `message ${turn} ${'u'.repeat(200)}`, turn: next.turn, at },
          { role: 'assistant', content: `answer ${turn} ${'a'.repeat(400)}`, turn: next.turn, at },
        ],
        expectedVersion: record.version,
        endsInteraction: true,
        facts: [{ ...FACT, sessionId, turn: next.turn, at, message: `message ${turn}` }],
      });
      await release();
      records.set(sessionId, next);
      samples.push(performance.now() - started);
    }
    for (let index = 0; index < SESSIONS; index++) {
      await stores.fileStore.put({
        name: 'upload.bin',
        mimeType: 'application/octet-stream',
        data: new Uint8Array(200_000).fill(index),
        origin: 'chat',
        sessionId: `s${index}`,
      });
    }
    const sweepStarted = performance.now();
    const ids = Array.from({ length: SESSIONS }, (_, index) => `s${index}`);
    await stores.sessionStore.deleteSessions(ids);
    for (const id of ids) await stores.fileStore.deleteSession(id);
    return { turns: samples, sweepMs: performance.now() - sweepStarted };
  } finally {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const results = new Map<Mode, { turns: number[]; sweeps: number[] }>(
  MODES.map((mode) => [mode, { turns: [], sweeps: [] }]),
);
for (let round = 0; round < rounds; round++) {
  for (const mode of round % 2 ? [...MODES].reverse() : MODES) {
    const { turns: samples, sweepMs } = await run(mode);
    // The first 10% of each run warms the file and the statement caches.
    results.get(mode)!.turns.push(...samples.slice(Math.floor(samples.length / 10)));
    results.get(mode)!.sweeps.push(sweepMs);
  }
}
console.log(
  `secure_delete cost: ${rounds} rounds × ${turns} turns over ${SESSIONS} sessions, state ${stateBytes / 2}–${(stateBytes * 3) / 2} B; load ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  '| secure_delete | turn p50 | turn p90 | turn p99 | sweep of 100 sessions (+ 20 MB files), median |',
);
console.log('|---|---|---|---|---|');
for (const mode of MODES) {
  const { turns: samples, sweeps } = results.get(mode)!;
  const sorted = [...samples].sort((a, b) => a - b);
  const sweep = [...sweeps].sort((a, b) => a - b)[Math.floor(sweeps.length / 2)]!;
  const us = (value: number) => `${(value * 1000).toFixed(0)} µs`;
  console.log(
    `| ${mode} | ${us(quantile(sorted, 0.5))} | ${us(quantile(sorted, 0.9))} | ${us(quantile(sorted, 0.99))} | ${sweep.toFixed(1)} ms |`,
  );
}
