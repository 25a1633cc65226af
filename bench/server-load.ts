import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { SessionStore } from '../packages/core/src/adapter/index.js';
import { InMemorySessionStore, TreeAgent } from '../packages/core/src/index.js';
import { serve } from '../packages/server/src/index.js';
import { openSqlite } from '../packages/sqlite/src/index.js';
import { startWorker } from './lib/child.js';
import { DEFAULT_DATABASE_URL } from './lib/database.js';
import { type BenchContext, type Goal, type Section, table, verdict } from './lib/report.js';
import { bytes, collectGarbage, ms } from './lib/stats.js';
import { routingTree } from './lib/trees.js';

/**
 * Benchmark 4 — the HTTP server under load on loopback: `POST /api/v1/sessions/:id/messages`
 * (JSON, and server-sent events with `Accept: text/event-stream`) driven by autocannon from the
 * parent process, the server alone in a child process (`serve()` on 127.0.0.1), no model latency.
 * The 200-node tree of the engine-overhead benchmark; the session store on SQLite (`openSqlite`,
 * WAL, NORMAL) or PostgreSQL (TREEAGENT_TEST_DATABASE_URL, default the test database; an empty value
 * skips it). Then the memory of idle sessions: the server's heap and RSS growth after a full garbage
 * collection, divided by the sessions created (each with one turn).
 */

const TREE = { nodes: 200, levels: [9], leaves: 189, chunksPerLeaf: 10 };
const DIMENSIONS = 384;
const GOAL_TURNS_PER_SECOND = 1000;

/** The part of autocannon's API used here (the package ships no types). */
interface AutocannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latency: { p50: number; p90: number; p99: number; max: number };
}
interface AutocannonRequest {
  method: string;
  setupRequest: (request: Record<string, unknown>) => Record<string, unknown>;
}
type Autocannon = (
  options: { url: string; connections: number; duration: number; requests: AutocannonRequest[] },
  done: (error: Error | null, result: AutocannonResult) => void,
) => unknown;

type Backend = 'sqlite' | 'postgres';
type Mode = 'json' | 'stream';

interface Settings {
  connections: number;
  /** Sessions the requests rotate over (many more than connections: no turn waits on its session). */
  sessions: number;
  warmupSeconds: number;
  seconds: number;
  idleSessions: number;
}

interface LoadRow {
  backend: Backend;
  mode: Mode;
  turnsPerSecond: number;
  turns: number;
  non2xx: number;
  errors: number;
  latency: { p50: number; p90: number; p99: number; max: number };
}

interface IdleRow {
  backend: Backend;
  sessions: number;
  heapPerSession: number;
  rssPerSession: number;
}

export async function serverLoad(context: BenchContext): Promise<Section> {
  const { quick, log, tmp } = context;
  const settings: Settings = quick
    ? { connections: 4, sessions: 16, warmupSeconds: 0.3, seconds: 0.5, idleSessions: 20 }
    : { connections: 16, sessions: 256, warmupSeconds: 3, seconds: 10, idleSessions: 2000 };
  const require = createRequire(import.meta.url);
  const autocannon = require('autocannon') as Autocannon;
  const notes: string[] = [];
  const backends: Backend[] = ['sqlite'];
  const url = process.env.TREEAGENT_TEST_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  if (url) backends.push('postgres');
  else notes.push('PostgreSQL skipped: TREEAGENT_TEST_DATABASE_URL is empty.');
  const load: LoadRow[] = [];
  const idle: IdleRow[] = [];
  for (const backend of backends) {
    log(`  ${backend}…`);
    const dir = join(tmp, backend);
    let worker: Awaited<ReturnType<typeof startWorker>>;
    let server: { url: string; messages: string[] };
    try {
      worker = await startWorker(import.meta.url, 'serverWorker', { backend, dir, url });
      server = await worker.call<{ url: string; messages: string[] }>('info');
    } catch (error) {
      notes.push(`${backend} skipped: ${(error as Error).message.split('\n')[0]}`);
      continue;
    }
    try {
      const sessions = await createSessions(server.url, settings.sessions);
      for (const mode of ['json', 'stream'] as Mode[]) {
        const fire = (seconds: number) =>
          run(autocannon, server.url, sessions, server.messages, mode, settings.connections, seconds);
        await fire(settings.warmupSeconds);
        const result = await fire(settings.seconds);
        const turns = result.non2xx + result['2xx'];
        load.push({
          backend,
          mode,
          turnsPerSecond: result['2xx'] / settings.seconds,
          turns,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          latency: {
            p50: result.latency.p50,
            p90: result.latency.p90,
            p99: result.latency.p99,
            max: result.latency.max,
          },
        });
        log(
          `    ${mode}: ${(result['2xx'] / settings.seconds).toFixed(0)} turns/s, p99 ${result.latency.p99} ms`,
        );
      }
      const before = await worker.call<{ heap: number; rss: number }>('memory');
      const fresh = await createSessions(server.url, settings.idleSessions);
      for (let k = 0; k < fresh.length; k += 16) {
        await Promise.all(
          fresh
            .slice(k, k + 16)
            .map((session, i) =>
              turn(server.url, session, server.messages[(k + i) % server.messages.length]!),
            ),
        );
      }
      const after = await worker.call<{ heap: number; rss: number }>('memory');
      idle.push({
        backend,
        sessions: fresh.length,
        heapPerSession: (after.heap - before.heap) / fresh.length,
        rssPerSession: (after.rss - before.rss) / fresh.length,
      });
    } finally {
      await worker.close();
    }
  }
  return report(load, idle, settings, notes, quick);
}

interface Session {
  id: string;
  token: string;
}

async function createSessions(url: string, count: number): Promise<Session[]> {
  const sessions: Session[] = [];
  for (let k = 0; k < count; k++) {
    const response = await fetch(`${url}/api/v1/sessions`, { method: 'POST' });
    if (response.status !== 201) throw new Error(`POST /api/v1/sessions answered ${response.status}`);
    const { sessionId, token } = (await response.json()) as { sessionId: string; token: string };
    sessions.push({ id: sessionId, token });
  }
  return sessions;
}

async function turn(url: string, session: Session, message: string): Promise<void> {
  const response = await fetch(`${url}/api/v1/sessions/${session.id}/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-session-token': session.token },
    body: JSON.stringify({ message }),
  });
  if (response.status !== 200) throw new Error(`a turn answered ${response.status}`);
  await response.arrayBuffer();
}

/** autocannon for `seconds`, the requests rotating over the sessions and the messages. */
function run(
  autocannon: Autocannon,
  url: string,
  sessions: Session[],
  messages: string[],
  mode: Mode,
  connections: number,
  seconds: number,
): Promise<AutocannonResult> {
  let next = 0;
  const bodies = messages.map((message) => JSON.stringify({ message }));
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const k = next++;
              const session = sessions[k % sessions.length]!;
              return {
                ...request,
                path: `/api/v1/sessions/${session.id}/messages`,
                headers: {
                  'content-type': 'application/json',
                  'x-session-token': session.token,
                  ...(mode === 'stream' ? { accept: 'text/event-stream' } : {}),
                },
                body: bodies[k % bodies.length],
              };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** In a fresh process: the server on an ephemeral loopback port. */
export async function serverWorker({ backend, dir, url }: { backend: Backend; dir: string; url: string }) {
  const routing = routingTree({
    name: `server-${TREE.nodes}`,
    dimensions: DIMENSIONS,
    seed: TREE.nodes,
    ...TREE,
  });
  let sessionStore: SessionStore = new InMemorySessionStore();
  let closeStore = async () => {};
  let extra = {};
  if (backend === 'sqlite') {
    mkdirSync(dir, { recursive: true });
    const sqlite = openSqlite(dir, { synchronous: 'NORMAL' });
    sessionStore = sqlite.sessionStore;
    extra = { vectorStore: sqlite.vectorStore, embeddingCache: sqlite.embeddingCache };
    closeStore = async () => sqlite.close();
  } else {
    const postgres = await import('../packages/postgres/src/index.js');
    const name = 'pg';
    const pg = (await import(name)).default;
    const pool = new pg.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: 5000 });
    pool.on('error', () => {});
    await pool.query('SELECT 1');
    const schema = `bench_server_${process.pid}_${Date.now().toString(36)}`;
    const store = new postgres.PostgresSessionStore({ connection: url, schema });
    sessionStore = store;
    closeStore = async () => {
      await store.close();
      await pool.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(schema)} CASCADE`).catch(() => {});
      await pool.end();
    };
  }
  const agent = new TreeAgent({ tree: routing.tree, embedder: routing.embedder, sessionStore, ...extra });
  await agent.ready();
  // One load generator creates every session: no per-address limit on session creation.
  // A load test: one address sends every message, far over the per-client limits.
  const server = await serve({
    agent,
    port: 0,
    hostname: '127.0.0.1',
    sessions: { createLimit: false },
    messageLimit: { perSession: false, perAddress: false },
  });
  return {
    info: () => ({ url: server.url, messages: routing.messages.map((message) => message.text) }),
    memory: () => {
      collectGarbage();
      collectGarbage();
      const usage = process.memoryUsage();
      return { heap: usage.heapUsed + usage.external, rss: usage.rss };
    },
    async close() {
      await server.close({ timeoutMs: 2000 });
      await closeStore();
    },
  };
}

function report(
  load: LoadRow[],
  idle: IdleRow[],
  settings: Settings,
  notes: string[],
  quick: boolean,
): Section {
  const goals: Goal[] = [];
  const sqliteJson = load.find((row) => row.backend === 'sqlite' && row.mode === 'json');
  goals.push({
    benchmark: '4. server under load',
    goal: `SQLite, ${TREE.nodes}-node tree, no model, loopback, 2 cores: ≥ ${GOAL_TURNS_PER_SECOND.toLocaleString('en')} turns/s`,
    measured: sqliteJson
      ? `${sqliteJson.turnsPerSecond.toFixed(0)} turns/s (JSON), p99 ${ms(sqliteJson.latency.p99)}`
      : 'not measured',
    met: quick || !sqliteJson ? null : sqliteJson.turnsPerSecond >= GOAL_TURNS_PER_SECOND,
  });
  const name = (backend: Backend) =>
    backend === 'sqlite' ? 'SQLite (openSqlite, WAL, NORMAL)' : 'PostgreSQL';
  const markdown = [
    `\`POST /api/v1/sessions/:id/messages\` on \`serve()\` (127.0.0.1, ephemeral port), the server alone in a child process, driven by autocannon in the parent (${settings.connections} connections, requests rotating over ${settings.sessions} sessions and the tree's 64 messages; ${settings.warmupSeconds} s of warm-up, then ${settings.seconds} s measured). ${TREE.nodes}-node tree (${TREE.leaves} leaves × ${TREE.chunksPerLeaf} chunks, ${DIMENSIONS}-d precomputed vectors), no model, no API key (session tokens checked), metrics on. Both processes share the 2 cores: the load generator takes part of the CPU. Latency is autocannon's per-request time (milliseconds, 1 ms resolution); “stream” sends \`Accept: text/event-stream\` and reads the events to \`turn-end\`.`,
    '',
    table(
      [
        'session store',
        'response',
        'turns/s',
        'latency p50 / p90 / p99 / max',
        'turns',
        'non-2xx / errors',
        `goal ≥ ${GOAL_TURNS_PER_SECOND} turns/s (SQLite)`,
      ],
      load.map((row) => [
        name(row.backend),
        row.mode === 'json' ? 'JSON' : 'server-sent events',
        row.turnsPerSecond.toFixed(0),
        `${row.latency.p50} / ${row.latency.p90} / ${row.latency.p99} / ${row.latency.max} ms`,
        row.turns.toLocaleString('en'),
        `${row.non2xx} / ${row.errors}`,
        row.backend === 'sqlite' && row.mode === 'json'
          ? verdict(quick ? null : row.turnsPerSecond >= GOAL_TURNS_PER_SECOND)
          : '',
      ]),
    ),
    '',
    `Memory per idle session: ${settings.idleSessions.toLocaleString('en')} new sessions, one turn each, then idle; growth of the server's heap (used + external) and RSS after two full garbage collections, divided by the sessions. The sessions themselves live in the session store; what stays in the server is the session token (its hash) and any per-session state.`,
    '',
    table(
      ['session store', 'sessions', 'heap per idle session', 'RSS per idle session'],
      idle.map((row) => [
        name(row.backend),
        row.sessions.toLocaleString('en'),
        bytes(Math.max(0, row.heapPerSession)),
        bytes(Math.max(0, row.rssPerSession)),
      ]),
    ),
    ...(notes.length ? ['', ...notes.map((note) => `- ${note}`)] : []),
  ].join('\n');
  return {
    id: 'server-load',
    title: '5. Server under load',
    markdown,
    data: { settings, load, idle, notes },
    goals,
  };
}
