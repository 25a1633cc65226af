/**
 * Bounded-time load on loopback: `serve()` with a SQLite store in a temporary directory and the
 * bike-shop example tree (offline: no language model), then N concurrent clients each sending
 * messages to its own sessions for `--seconds`. Reports turns served, errors, latency percentiles
 * and memory growth.
 *
 *   npx tsx scripts/soak.ts --seconds 60 --clients 16 --sessions-per-client 4
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TreeAgent } from '@treeagent/core';
import { bikeShopTree } from '@treeagent/examples/src/bike-shop/tree.js';
import { serve } from '@treeagent/server';
import { openSqlite } from '@treeagent/sqlite';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    clients: { type: 'string', default: '16' },
    'sessions-per-client': { type: 'string', default: '4' },
  },
});
const seconds = Number(values.seconds);
const clients = Number(values.clients);
const sessionsPerClient = Number(values['sessions-per-client']);

const MESSAGES = [
  'buongiorno a tutti',
  'quanto pago per la spedizione?',
  'come posso restituire una bici?',
  'a che punto è il mio ordine?',
  'voglio il rimborso',
  'che tempo fa domani a Milano?',
  'spedite anche in Germania?',
  'il prodotto è arrivato rotto, è difettoso',
];

function memory() {
  const usage = process.memoryUsage();
  return { rssMiB: usage.rss / 2 ** 20, heapMiB: usage.heapUsed / 2 ** 20 };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const gc = (globalThis as { gc?: () => void }).gc;
const directory = mkdtempSync(join(tmpdir(), 'treeagent-soak-'));
const stores = openSqlite(directory);
const agent = new TreeAgent({
  tree: bikeShopTree(),
  sessionStore: stores.sessionStore,
  vectorStore: stores.vectorStore,
  embeddingCache: stores.embeddingCache,
});
const server = await serve({
  agent,
  port: 0,
  logger: { error: () => {} },
  sessions: { createLimit: false },
  // A load test: one address sends every message, far over the per-client limits.
  messageLimit: { perSession: false, perAddress: false },
});
await agent.ready();

async function post(path: string, body: unknown, token?: string): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Session-Token': token } : {}) },
    body: JSON.stringify(body),
  });
}

// Warm-up: a few turns so JIT and caches settle before the "before" memory figure.
const warm = (await (await post('/api/v1/sessions', {})).json()) as { sessionId: string; token: string };
for (const message of MESSAGES)
  await (await post(`/api/v1/sessions/${warm.sessionId}/messages`, { message }, warm.token)).text();
gc?.();
const before = memory();

const latencies: number[] = [];
const errors = new Map<string, number>();
let turns = 0;
const deadline = performance.now() + seconds * 1000;

async function client(index: number): Promise<void> {
  const sessions: { sessionId: string; token: string }[] = [];
  for (let i = 0; i < sessionsPerClient; i++)
    sessions.push(
      (await (await post('/api/v1/sessions', {})).json()) as { sessionId: string; token: string },
    );
  let n = index;
  while (performance.now() < deadline) {
    const session = sessions[n % sessions.length]!;
    const message = MESSAGES[n % MESSAGES.length]!;
    n += 1;
    const started = performance.now();
    try {
      const response = await post(
        `/api/v1/sessions/${session.sessionId}/messages`,
        { message },
        session.token,
      );
      const body = (await response.json()) as { error?: { code: string } };
      if (response.status === 200) {
        turns += 1;
        latencies.push(performance.now() - started);
      } else {
        const code = `${response.status} ${body.error?.code ?? '?'}`;
        errors.set(code, (errors.get(code) ?? 0) + 1);
      }
    } catch (error) {
      const code = (error as Error).message;
      errors.set(code, (errors.get(code) ?? 0) + 1);
    }
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
const elapsed = (performance.now() - started) / 1000;
gc?.();
const after = memory();
await server.close({ timeoutMs: 5000 });
stores.close();
rmSync(directory, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const report = {
  seconds: Number(elapsed.toFixed(1)),
  clients,
  sessions: clients * sessionsPerClient,
  turnsServed: turns,
  turnsPerSecond: Number((turns / elapsed).toFixed(1)),
  errors: Object.fromEntries(errors),
  latencyMs: {
    p50: Number(percentile(latencies, 50).toFixed(1)),
    p99: Number(percentile(latencies, 99).toFixed(1)),
    max: Number((latencies.at(-1) ?? Number.NaN).toFixed(1)),
  },
  memoryMiB: {
    rssBefore: Number(before.rssMiB.toFixed(1)),
    rssAfter: Number(after.rssMiB.toFixed(1)),
    heapBefore: Number(before.heapMiB.toFixed(1)),
    heapAfter: Number(after.heapMiB.toFixed(1)),
    gcExposed: Boolean(gc),
  },
};
console.log(JSON.stringify(report, null, 2));
process.exit(errors.size ? 1 : 0);
