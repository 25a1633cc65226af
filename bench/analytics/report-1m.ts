import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalyticsStore, SessionStore } from '../../packages/core/src/adapter/index.js';
import type { TurnFact, TurnFactStatus } from '../../packages/core/src/analytics.js';
import { PostgresSessionStore } from '../../packages/postgres/src/index.js';
import { SqliteSessionStore } from '../../packages/sqlite/src/index.js';

/**
 * The report over 1,000,000 stored turns (docs/analytics.md): `npx tsx bench/analytics/report-1m.ts
 * [--turns=1000000] [--only=sqlite|postgres] [--reads=thread|inline]`. Writes synthetic turn facts (200,000 conversations of
 * 5 turns over 90 days, two tree versions, 60 nodes, a realistic mix of statuses and latencies) to a
 * fresh SQLite file and a fresh PostgreSQL schema (the test database of scripts/setup-postgres.sh, or
 * TREEAGENT_TEST_DATABASE_URL), then times each query three times (median) and reports this process's
 * peak heap and RSS: the queries are SQL, so memory stays flat however many turns are stored.
 */
const TURNS = Number(process.argv.find((arg) => arg.startsWith('--turns='))?.slice(8) ?? 1_000_000);
const ONLY = process.argv.find((arg) => arg.startsWith('--only='))?.slice(7);
/** SQLite: the report's reads on a worker thread (`thread`, the default) or on the store's connection. */
const READS = (process.argv.find((arg) => arg.startsWith('--reads='))?.slice(8) ?? 'thread') as
  | 'thread'
  | 'inline';
const DATABASE_URL =
  process.env.TREEAGENT_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:54329/treeagent_test';
const TURNS_PER_SESSION = 5;
const DAYS = 90;
const END = Date.parse('2026-11-30T23:59:00.000Z');
const STATUSES: TurnFactStatus[] = [
  'answered',
  'answered',
  'answered',
  'answered',
  'answered',
  'answered',
  'fallback',
  'no-match',
  'error',
  'handed-off',
];
const MESSAGES = [
  'dove parcheggio?',
  'che tempo fa?',
  'aprite la domenica?',
  'pagate con paypal?',
  'ciao',
  'ordine 123',
];

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function* facts(): Generator<TurnFact[]> {
  const next = random(42);
  const sessions = Math.ceil(TURNS / TURNS_PER_SESSION);
  let batch: TurnFact[] = [];
  for (let s = 0; s < sessions; s++) {
    const start = END - Math.floor(next() * DAYS * 86_400_000);
    const version = start < END - 30 * 86_400_000 ? 'v1-aaaaaaaaaaaa' : 'v2-bbbbbbbbbbbb';
    for (let turn = 1; turn <= TURNS_PER_SESSION && s * TURNS_PER_SESSION + turn <= TURNS; turn++) {
      const status = STATUSES[Math.floor(next() * STATUSES.length)]!;
      const margin = next() * 0.4;
      batch.push({
        sessionId: `s${s}`,
        turn,
        at: new Date(start + turn * 40_000).toISOString(),
        treeVersion: version,
        status,
        errorCode: status === 'error' ? 'CALLBACK_ERROR' : null,
        nodeId: status === 'no-match' || status === 'error' ? null : 3 + Math.floor(next() * 60),
        agentId: 2,
        bestSimilarity: 0.2 + next() * 0.7,
        minMargin: margin,
        lowMarginNodeId: 2,
        lowMarginChildId: 3 + Math.floor(next() * 6),
        lowMarginRunnerUpId: 9 + Math.floor(next() * 6),
        failCounter: status === 'answered' ? 0 : 1,
        latencyMs: 2 + next() * next() * 400,
        inputTokens: null,
        outputTokens: null,
        message:
          status === 'no-match' || status === 'fallback'
            ? MESSAGES[Math.floor(next() * MESSAGES.length)]!
            : `domanda ${turn}`,
        decisions: [],
      });
      if (batch.length === 2000) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

async function fill(store: SessionStore): Promise<number> {
  const started = performance.now();
  for (const batch of facts()) await store.recordFacts!(batch);
  return performance.now() - started;
}

async function time<T>(run: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const times: number[] = [];
  let result!: T;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    result = await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[1]!, result };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function measure(name: string, store: SessionStore, analytics: AnalyticsStore): Promise<string[]> {
  const fillMs = await fill(store);
  global.gc?.();
  const baseline = process.memoryUsage();
  let peakHeap = baseline.heapUsed;
  let peakRss = baseline.rss;
  // The longest the event loop waited (a server's other requests wait as long): gaps between ticks.
  let lastTick = performance.now();
  let longestStall = 0;
  const sampler = setInterval(() => {
    const now = performance.now();
    longestStall = Math.max(longestStall, now - lastTick - 5);
    lastTick = now;
    const usage = process.memoryUsage();
    peakHeap = Math.max(peakHeap, usage.heapUsed);
    peakRss = Math.max(peakRss, usage.rss);
  }, 5);
  const rows: string[] = [];
  const queries: [string, () => Promise<unknown>][] = [
    ['report, all 90 days', () => analytics.report({ from: '2026-09-01', to: '2026-11-30' })],
    ['report, last 30 days', () => analytics.report({ from: '2026-11-01', to: '2026-11-30' })],
    [
      'report, one version, 90 days',
      () => analytics.report({ from: '2026-09-01', to: '2026-11-30', treeVersion: 'v2-bbbbbbbbbbbb' }),
    ],
    ['unmatched messages, 90 days', () => analytics.unmatched({ from: '2026-09-01', to: '2026-11-30' })],
    [
      'review: conversations with "parcheggio", 30 days',
      () => analytics.conversations({ from: '2026-11-01', to: '2026-11-30', text: 'parcheggio' }),
    ],
    ['review: one transcript', () => analytics.turns('s12345')],
  ];
  let turns = 0;
  for (const [query, run] of queries) {
    const { ms, result } = await time(run);
    if (query === 'report, all 90 days') turns = (result as { totals: { turns: number } }).totals.turns;
    rows.push(
      `| ${name} | ${query} | ${ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`} |`,
    );
  }
  // A stall that lasted to the end (queries on this thread never let the timer run) counts too.
  longestStall = Math.max(longestStall, performance.now() - lastTick - 5);
  clearInterval(sampler);
  return [
    `\n${name}: ${turns.toLocaleString('en')} turns stored (written in ${(fillMs / 1000).toFixed(0)} s, batches of 2,000); this process: heap ${mb(baseline.heapUsed)} → peak ${mb(peakHeap)}, RSS ${mb(baseline.rss)} → peak ${mb(peakRss)} during the queries; the event loop's longest stall ${(longestStall / 1000).toFixed(2)} s\n`,
    '| store | query | median of 3 |',
    '| --- | --- | --- |',
    ...rows,
  ];
}

const directory = mkdtempSync(join(tmpdir(), 'treeagent-report-1m-'));
const lines: string[] = [];
try {
  if (ONLY !== 'postgres') {
    const store = new SqliteSessionStore(join(directory, 'facts.db'), {
      synchronous: 'NORMAL',
      analyticsReads: READS,
    });
    lines.push(...(await measure(`SQLite (reads: ${READS})`, store, store.analytics())));
    await store.close();
  }
  if (ONLY !== 'sqlite' && DATABASE_URL) {
    const schema = `bench_report_${process.pid}`;
    const store = new PostgresSessionStore({ connection: DATABASE_URL, schema });
    try {
      lines.push(...(await measure('PostgreSQL', store, store.analytics())));
    } finally {
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: DATABASE_URL });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
      await store.close();
    }
  }
  console.log(lines.join('\n'));
} finally {
  rmSync(directory, { recursive: true, force: true });
}
