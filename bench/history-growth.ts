import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SessionStore } from '../packages/core/src/adapter/index.js';
import { InMemorySessionStore, TreeAgent } from '../packages/core/src/index.js';
import { openSqlite } from '../packages/sqlite/src/index.js';
import { inChild } from './lib/child.js';
import { DEFAULT_DATABASE_URL } from './lib/database.js';
import { loadPeer, type PeerGraph, peerGraph, sqliteSaver } from './lib/langgraph.js';
import { type BenchContext, type Goal, type Section, table } from './lib/report.js';
import { bytes, collectGarbage, ms, type Stats, summarize, times } from './lib/stats.js';
import { type RoutingTree, routingTree } from './lib/trees.js';

/**
 * Benchmark 2 — turn cost against conversation length: one session of 1,000 turns, the late turns
 * against the first ones, on each session store (PostgreSQL at TREEAGENT_TEST_DATABASE_URL, default
 * the test database of scripts/setup-postgres.sh), and the bytes each turn adds to storage. LangGraph's threads, in the same run, for
 * comparison (plain messages and LangChain message objects).
 */

interface Settings {
  turns: number;
  /** Turns pooled at each point of comparison (turns 1…W, …200, last W). */
  window: number;
  sessions: number;
  warmupTurns: number;
}

/** Storage a backend reports: total bytes, and bytes of the history rows of one session. */
interface StorageProbe {
  totalBytes(): Promise<number>;
  rowBytes(sessionId: string): Promise<number>;
}

interface Backend {
  name: string;
  framework: 'Tree Agent' | 'LangGraph';
  sessions: number;
  turn(sessionId: string, text: string): Promise<unknown>;
  storage?: StorageProbe;
  close(): Promise<void>;
}

interface GrowthRow {
  name: string;
  framework: string;
  sessions: number;
  turns: number;
  first: Stats;
  at200: Stats | null;
  last: Stats;
  turn1: number;
  turnLast: number;
  /** Stored bytes added per turn over the first 100 turns and the last 100 (page growth), and the session's rows per turn. */
  bytesPerTurn: { early: number; late: number; rows: number } | null;
}

export async function historyGrowth(context: BenchContext): Promise<Section> {
  const { quick, log, tmp } = context;
  const settings: Settings = quick
    ? { turns: 40, window: 5, sessions: 1, warmupTurns: 20 }
    : { turns: 1000, window: 20, sessions: 5, warmupTurns: 300 };
  const rows: GrowthRow[] = [];
  const notes: string[] = [];
  for (const backend of BACKENDS) {
    if (quick && backend === 'ta-postgres') continue;
    log(`  ${backend}…`);
    // Each backend alone in a fresh process: no other backend's heap or garbage in its timings.
    const result = inChild<GrowthRow | { skipped: string }>(import.meta.url, 'growthChild', {
      backend,
      settings,
      dir: join(tmp, `growth-${backend}`),
      quick,
    });
    if ('skipped' in result) {
      log(`  ${result.skipped}`);
      notes.push(result.skipped);
    } else rows.push(result);
  }
  if (quick) notes.push('Quick run: PostgreSQL left out.');
  return report(rows, notes, settings);
}

const BACKENDS = [
  'ta-memory',
  'ta-sqlite',
  'ta-postgres',
  'lg-memory-plain',
  'lg-memory-langchain',
  'lg-sqlite-plain',
] as const;
type BackendId = (typeof BACKENDS)[number];

/** In a fresh process: one backend, its long sessions, timed turn by turn. */
export async function growthChild(args: {
  backend: BackendId;
  settings: Settings;
  dir: string;
  quick: boolean;
}): Promise<GrowthRow | { skipped: string }> {
  const { settings, dir } = args;
  const routing = routingTree({
    name: 'growth',
    levels: [],
    leaves: 8,
    chunksPerLeaf: 20,
    dimensions: 384,
    seed: 7,
  });
  let backend: Backend | string;
  switch (args.backend) {
    case 'ta-memory':
      backend = treeAgentBackend(
        'Tree Agent, in memory',
        routing,
        new InMemorySessionStore(),
        settings.sessions,
      );
      break;
    case 'ta-sqlite':
      backend = sqliteBackend(routing, dir, settings.sessions);
      break;
    case 'ta-postgres':
      backend = await postgresBackend(routing, args.quick ? 1 : 3);
      break;
    case 'lg-memory-plain':
    case 'lg-memory-langchain': {
      const style = args.backend === 'lg-memory-plain' ? 'plain' : 'langchain';
      const peer = await loadPeer(() => {});
      const graph = peerGraph(peer, routing, {
        shape: 'node-per-leaf',
        style,
        checkpointer: new peer.langgraph.MemorySaver(),
      });
      backend = peerBackend(
        `LangGraph, MemorySaver, ${style === 'plain' ? 'plain messages' : 'LangChain messages'}`,
        graph,
      );
      break;
    }
    case 'lg-sqlite-plain': {
      const peer = await loadPeer(() => {});
      mkdirSync(dir, { recursive: true });
      const { saver, db } = sqliteSaver(peer, join(dir, 'langgraph.db'), 'NORMAL');
      const graph = peerGraph(peer, routing, { shape: 'node-per-leaf', style: 'plain', checkpointer: saver });
      backend = peerBackend(
        'LangGraph, SqliteSaver, plain messages',
        graph,
        sqliteProbe(db, 'langgraph'),
        () => db.close(),
      );
      break;
    }
  }
  if (typeof backend === 'string') return { skipped: backend };
  try {
    return await runBackend(backend, routing, settings);
  } finally {
    await backend.close();
  }
}

async function runBackend(backend: Backend, routing: RoutingTree, settings: Settings): Promise<GrowthRow> {
  const { messages } = routing;
  const text = (i: number) => messages[i % messages.length]!.text;
  const { turns, window: w } = settings;
  // Warm-up on short sessions, so the first measured turn is not the first turn the JIT sees.
  for (let i = 0; i < settings.warmupTurns; i++) await backend.turn(`warmup-${Math.floor(i / 10)}`, text(i));
  const timed = async (sessionId: string, t: number) => {
    const started = performance.now();
    await backend.turn(sessionId, text(t));
    return performance.now() - started;
  };
  const probe = backend.storage;
  const span = Math.min(100, Math.floor((turns - w) / 2));
  const early: number[] = [];
  const late: number[] = [];
  const rows: number[] = [];
  const building: number[][] = [];
  // 1. The long sessions, up to their last window (timed too, for the curve around turn 200).
  for (let s = 0; s < backend.sessions; s++) {
    const sessionId = `long-${s}`;
    const samples: number[] = [];
    collectGarbage();
    let mark = 0;
    for (let t = 0; t < turns - w; t++) {
      // Storage is read outside the timed turns.
      if (probe && (t === 0 || t === turns - w - span)) mark = await probe.totalBytes();
      samples.push(await timed(sessionId, t));
      if (probe && t === span - 1) early.push((await probe.totalBytes()) - mark);
    }
    if (probe) late.push((await probe.totalBytes()) - mark);
    building.push(samples);
  }
  // 2. The last window of every long session interleaved, turn by turn, with the first turns of as
  // many fresh sessions: both ends of the comparison are timed at the same moments.
  const first: number[][] = [];
  const last: number[][] = [];
  collectGarbage();
  for (let k = 0; k < w; k++) {
    for (let s = 0; s < backend.sessions; s++) {
      last[s] ??= [];
      first[s] ??= [];
      last[s].push(await timed(`long-${s}`, turns - w + k));
      first[s].push(await timed(`short-${s}`, k));
    }
  }
  if (probe) {
    for (let s = 0; s < backend.sessions; s++) rows.push((await probe.rowBytes(`long-${s}`)) / turns);
  }
  const median = (values: number[]) => summarize(values).median;
  return {
    name: backend.name,
    framework: backend.framework,
    sessions: backend.sessions,
    turns,
    first: summarize(first.flat()),
    at200: turns >= 400 ? summarize(building.flatMap((samples) => samples.slice(200 - w, 200))) : null,
    last: summarize(last.flat()),
    turn1: median(first.map((samples) => samples[0]!)),
    turnLast: median(last.map((samples) => samples[w - 1]!)),
    bytesPerTurn: probe
      ? { early: median(early) / span, late: median(late) / span, rows: median(rows) }
      : null,
  };
}

function treeAgentBackend(
  name: string,
  routing: RoutingTree,
  sessionStore: SessionStore,
  sessions: number,
  extra: { storage?: StorageProbe; close?: () => Promise<void>; agentOptions?: object } = {},
): Backend {
  const agent = new TreeAgent({
    tree: routing.tree,
    embedder: routing.embedder,
    sessionStore,
    ...extra.agentOptions,
  });
  return {
    name,
    framework: 'Tree Agent',
    sessions,
    turn: (sessionId, text) => agent.send(sessionId, text),
    ...(extra.storage ? { storage: extra.storage } : {}),
    close: extra.close ?? (async () => {}),
  };
}

function sqliteBackend(routing: RoutingTree, dir: string, sessions: number): Backend {
  const stores = openSqlite(dir, { synchronous: 'NORMAL' });
  return treeAgentBackend(
    'Tree Agent, SQLite (openSqlite, WAL, NORMAL)',
    routing,
    stores.sessionStore,
    sessions,
    {
      storage: sqliteProbe(stores.database.connection, 'treeagent'),
      close: () => stores.close(),
      agentOptions: { vectorStore: stores.vectorStore, embeddingCache: stores.embeddingCache },
    },
  );
}

/** Bytes used by the file (after a WAL checkpoint, free pages excluded) and the rows one session wrote. */
function sqliteProbe(db: any, kind: 'treeagent' | 'langgraph'): StorageProbe {
  return {
    async totalBytes() {
      db.pragma('wal_checkpoint(TRUNCATE)');
      const pages = db.pragma('page_count', { simple: true }) - db.pragma('freelist_count', { simple: true });
      return pages * db.pragma('page_size', { simple: true });
    },
    async rowBytes(sessionId) {
      if (kind === 'treeagent') {
        return db
          .prepare(
            `SELECT (SELECT coalesce(sum(length(entry)), 0) FROM session_history WHERE session_id = ?)
                  + (SELECT coalesce(sum(length(record)), 0) FROM sessions WHERE id = ?) AS n`,
          )
          .get(sessionId, sessionId).n;
      }
      return db
        .prepare(
          `SELECT (SELECT coalesce(sum(length(checkpoint) + length(metadata)), 0) FROM checkpoints WHERE thread_id = ?)
                + (SELECT coalesce(sum(length(value)), 0) FROM writes WHERE thread_id = ?) AS n`,
        )
        .get(sessionId, sessionId).n;
    },
  };
}

async function postgresBackend(routing: RoutingTree, sessions: number): Promise<Backend | string> {
  // The test database of scripts/setup-postgres.sh by default (as the server-load benchmark); an
  // empty TREEAGENT_TEST_DATABASE_URL leaves PostgreSQL out.
  const url = process.env.TREEAGENT_TEST_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  if (!url) return 'PostgreSQL left out: TREEAGENT_TEST_DATABASE_URL is empty.';
  let postgres: typeof import('../packages/postgres/src/index.js');
  let pg: any;
  try {
    postgres = await import('../packages/postgres/src/index.js');
    const name = 'pg';
    pg = (await import(name)).default;
  } catch (error) {
    return `PostgreSQL skipped: @treeagent/postgres could not be imported (${(error as Error).message}).`;
  }
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {});
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => {});
    return `PostgreSQL skipped: ${redact(url)} is not reachable (${(error as Error).message}).`;
  }
  const schema = `bench_${process.pid}_${Date.now().toString(36)}`;
  const store = new postgres.PostgresSessionStore({ connection: url, schema });
  const { sessions: sessionsTable, history, turnFacts } = store.tables;
  return treeAgentBackend('Tree Agent, PostgreSQL', routing, store, sessions, {
    storage: {
      async totalBytes() {
        const { rows } = await pool.query(
          // The turn's analytics facts too, as the SQLite figure (the whole file) counts them.
          'SELECT pg_total_relation_size($1::regclass) + pg_total_relation_size($2::regclass) + pg_total_relation_size($3::regclass) AS n',
          [history, sessionsTable, turnFacts],
        );
        return Number(rows[0].n);
      },
      async rowBytes(sessionId) {
        const { rows } = await pool.query(
          `SELECT (SELECT coalesce(sum(pg_column_size(entry)), 0) FROM ${history} WHERE session_id = $1)
                + (SELECT coalesce(sum(pg_column_size(s.*)), 0) FROM ${sessionsTable} s WHERE id = $1) AS n`,
          [sessionId],
        );
        return Number(rows[0].n);
      },
    },
    async close() {
      await store.close();
      await pool.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`).catch(() => {});
      await pool.end();
    },
  });
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database';
  }
}

function peerBackend(name: string, graph: PeerGraph, storage?: StorageProbe, close?: () => void): Backend {
  return {
    name,
    framework: 'LangGraph',
    sessions: 1,
    turn: (threadId, text) => graph.turn(threadId, text),
    ...(storage ? { storage } : {}),
    close: async () => close?.(),
  };
}

function report(rows: GrowthRow[], notes: string[], settings: Settings): Section {
  const goals: Goal[] = [];
  for (const row of rows.filter((row) => row.framework === 'Tree Agent')) {
    const ratio = row.last.median / row.first.median;
    goals.push({
      benchmark: '2. history growth',
      goal: `${row.name}: turn ${row.turns} costs what turn 1 costs (flat)`,
      measured: `turns ${row.turns - settings.window + 1}–${row.turns} ÷ turns 1–${settings.window} (interleaved): median ${times(ratio)}, p99 ${times(row.last.p99 / row.first.p99)}${row.bytesPerTurn ? `; ${bytes(row.bytesPerTurn.early)}/turn early, ${bytes(row.bytesPerTurn.late)}/turn late` : ''}`,
      // "Flat" within noise: the late turns may cost at most 1.5× the first ones.
      met: settings.turns < 1000 ? null : ratio <= 1.5,
    });
  }
  const w = settings.window;
  const span = Math.min(100, Math.floor((settings.turns - w) / 2));
  const with200 = settings.turns >= 400;
  const taSessions = rows.find((row) => row.framework === 'Tree Agent')?.sessions ?? 1;
  const markdown = [
    `One session of ${settings.turns} turns (${taSessions} such session${taSessions > 1 ? 's' : ''} for each Tree Agent store, 1 thread for LangGraph), each backend alone in a fresh process, after ${settings.warmupTurns} warm-up turns on short sessions. Each point pools a window of ${w} turns over the sessions. The last window (turns ${settings.turns - w + 1}–${settings.turns}) is timed interleaved, turn by turn, with turns 1–${w} of as many fresh sessions, so both ends of the comparison meet the same machine; turns ${200 - w + 1}–200 come from the run-up and are indicative. “Turn 1” and “turn ${settings.turns}” are the medians of that single turn over the sessions (turn 1 also creates the session). 10-node tree (8 leaves × 20 chunks), so the routing work is small and the store’s share shows.`,
    '',
    table(
      [
        'backend',
        `turns 1–${w} median / p99`,
        ...(with200 ? [`turns ${200 - w + 1}–200 median`] : []),
        `turns ${settings.turns - w + 1}–${settings.turns} median / p99`,
        'late ÷ first (median / p99)',
        ...(with200 ? ['≈200 ÷ first'] : []),
        `turn ${settings.turns} ÷ turn 1`,
      ],
      rows.map((row) => [
        row.name,
        `${ms(row.first.median)} / ${ms(row.first.p99)}`,
        ...(with200 ? [row.at200 ? ms(row.at200.median) : '—'] : []),
        `${ms(row.last.median)} / ${ms(row.last.p99)}`,
        `${times(row.last.median / row.first.median)} / ${times(row.last.p99 / row.first.p99)}`,
        ...(with200 ? [row.at200 ? times(row.at200.median / row.first.median) : '—'] : []),
        `${times(row.turnLast / row.turn1)} (${ms(row.turnLast)} ÷ ${ms(row.turn1)})`,
      ]),
    ),
    '',
    `Stored bytes per turn: growth of the storage over the first ${span} turns of a long session and over turns ${settings.turns - w - span + 1}–${settings.turns - w} (SQLite: pages in use after a WAL checkpoint; PostgreSQL: \`pg_total_relation_size\` of the session tables and the turn facts table, so 8 KB page steps; both count the turn's analytics facts, docs/analytics.md), and the bytes of the session’s own rows (history entries + record; LangGraph: checkpoints + writes) divided by its turns.`,
    '',
    table(
      [
        'backend',
        `turns 1–${span}`,
        `turns ${settings.turns - w - span + 1}–${settings.turns - w}`,
        'rows of the session ÷ turns',
      ],
      rows
        .filter((row) => row.bytesPerTurn)
        .map((row) => [
          row.name,
          `${bytes(row.bytesPerTurn!.early)}/turn`,
          `${bytes(row.bytesPerTurn!.late)}/turn`,
          `${bytes(row.bytesPerTurn!.rows)}/turn`,
        ]),
    ),
    ...(notes.length ? ['', ...notes.map((note) => `- ${note}`)] : []),
  ].join('\n');
  return {
    id: 'history-growth',
    title: '2. Turn cost against conversation length',
    markdown,
    data: { settings, rows, notes },
    goals,
  };
}
