/**
 * What one `treeagent serve` process holds on this machine (docs/deployment.md, "Capacity"): an English
 * tree of 120 chunks (12 topics), served by `treeagent serve` as users run it, driven over HTTP by
 * closed-loop clients in this process, each message new (so each is embedded):
 *   - the hashed path (`HashedEmbedder`, no fit) and the English fitted path (the default for an
 *     English tree: fitted at load over USE-lite + hashed n-grams, @treeagent/embedder-use): turns/s,
 *     p50/p99 and the server's resident memory (RSS now and its peak), on SQLite;
 *   - sessions held: the server's RSS growth over 2,000 more sessions of one turn each;
 *   - bytes per turn: the pages in use in the SQLite file (WAL checkpointed) and the PostgreSQL tables
 *     (pg_total_relation_size of the schema) grown by all the turns (warm-up included), per turn.
 *
 *   npx tsx bench/capacity.ts [--clients=8] [--seconds=10] [--sessions=2000]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  CLUSTER_API_KEY,
  freePort,
  startServeProcess,
  writeClusterFiles,
} from '../packages/cli/src/test-support/cluster.js';
import { testSchema } from '../packages/postgres/src/test-support/database.js';
import { closedLoop, type LoopResult } from './lib/closed-loop.js';
import { DEFAULT_DATABASE_URL } from './lib/database.js';

const argument = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const CLIENTS = Number(argument('clients', '8'));
const SECONDS = Number(argument('seconds', '10'));
const SESSIONS = Number(argument('sessions', '2000'));
const DATABASE_URL = process.env.TREEAGENT_TEST_DATABASE_URL || DEFAULT_DATABASE_URL;

const TOPICS: Record<string, string[]> = {
  shipping: [
    'how much is shipping',
    'delivery cost',
    'when will my parcel arrive',
    'shipping to another country',
    'express delivery options',
    'track my package',
    'do you ship abroad',
    'delivery time for my order',
    'free shipping threshold',
    'which courier do you use',
  ],
  returns: [
    'how do I return a product',
    'refund policy',
    'send an item back',
    'return label',
    'how long do refunds take',
    'exchange a product for another size',
    'return a damaged item',
    'can I return a sale item',
    'money back guarantee',
    'where do I send returns',
  ],
  payment: [
    'which payment methods do you accept',
    'pay by credit card',
    'pay with paypal',
    'my payment was declined',
    'pay in instalments',
    'is payment secure',
    'bank transfer details',
    'charged twice for my order',
    'invoice for my purchase',
    'change the payment method',
  ],
  account: [
    'reset my password',
    'cannot log in',
    'change my email address',
    'delete my account',
    'update my address',
    'create an account',
    'two factor authentication',
    'my account is locked',
    'change my username',
    'newsletter subscription settings',
  ],
  opening: [
    'opening hours',
    'when are you open',
    'are you open on sunday',
    'holiday opening times',
    'what time do you close',
    'shop address',
    'where is your store',
    'parking near the shop',
    'is the shop open today',
    'visit the showroom',
  ],
  warranty: [
    'how long is the warranty',
    'warranty claim',
    'my product broke',
    'repair under warranty',
    'extended warranty',
    'warranty does not cover',
    'proof of purchase for warranty',
    'manufacturer guarantee',
    'replacement part',
    'defective product',
  ],
  sizes: [
    'size guide',
    'which size should I buy',
    'frame size for my height',
    'the size is too small',
    'measurements of the product',
    'does it fit',
    'size chart for children',
    'wheel size',
    'how to measure',
    'size conversion',
  ],
  stock: [
    'is this item in stock',
    'when will it be available again',
    'notify me when back in stock',
    'out of stock',
    'reserve an item',
    'stock in the store',
    'limited edition availability',
    'pre order a product',
    'restock date',
    'available colours',
  ],
  discounts: [
    'do you have a discount code',
    'student discount',
    'my coupon does not work',
    'black friday deals',
    'loyalty points',
    'gift card balance',
    'price match',
    'sale ends when',
    'bulk order discount',
    'referral bonus',
  ],
  repairs: [
    'book a repair',
    'service my bike',
    'how much does a repair cost',
    'repair appointment',
    'flat tyre',
    'brakes are squeaking',
    'gear adjustment',
    'annual service',
    'repair time',
    'collect my bike after repair',
  ],
  orders: [
    'where is my order',
    'cancel my order',
    'change my order',
    'order confirmation email',
    'order number',
    'add an item to my order',
    'order history',
    'wrong item delivered',
    'missing item in my order',
    'split my order',
  ],
  contact: [
    'talk to customer service',
    'phone number',
    'email support',
    'live chat',
    'complaint',
    'feedback about the service',
    'call me back',
    'support hours',
    'contact form',
    'speak to the manager',
  ],
};

/** A JSON tree: one emit node per topic, its phrases as chunks. */
function englishTree(): object {
  return {
    format: 'treeagent-tree',
    version: 1,
    name: 'capacity',
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, parent: 1, type: 'agent', name: 'assistant', isPrimary: true },
      ...Object.entries(TOPICS).map(([topic, chunks], i) => ({
        id: 3 + i,
        parent: 2,
        type: 'emit',
        name: topic,
        chunks,
        emit: { message: { type: 'static', content: `About ${topic}.` } },
      })),
    ],
  };
}

const phrases = Object.values(TOPICS).flat();
/** A new message every time: a phrase of the tree reworded with a number. */
const message = (client: number, i: number) =>
  `hello, ${phrases[(client * 31 + i) % phrases.length]} please, order ${client}-${i}`;

function rss(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)![1]) * 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** The pages in use in the SQLite file, once its WAL is checkpointed into it (the server keeps it open). */
function sqliteBytes(file: string): number {
  const database = new Database(file);
  try {
    database.pragma('busy_timeout = 10000');
    database.pragma('wal_checkpoint(TRUNCATE)');
    const pages = Number(database.pragma('page_count', { simple: true }));
    const free = Number(database.pragma('freelist_count', { simple: true }));
    return (pages - free) * Number(database.pragma('page_size', { simple: true }));
  } finally {
    database.close();
  }
}

async function schemaBytes(schema: string): Promise<number> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [schema],
    );
    return Number(rows[0].bytes);
  } finally {
    await client.end();
  }
}

interface Row extends LoopResult {
  setup: string;
  space: string;
  rssMb: number;
  peakMb: number;
  bytesPerTurn?: number;
  bytesPerSession?: number;
}

async function run(setup: 'hashed' | 'english-fitted' | 'hashed-postgres'): Promise<Row> {
  const scratch = mkdtempSync(join(tmpdir(), 'treeagent-capacity-'));
  const files = await writeClusterFiles(scratch);
  writeFileSync(join(scratch, 'capacity.json'), JSON.stringify(englishTree()));
  // The hashed path: the tree module gives the embedder, so nothing is fitted.
  writeFileSync(
    join(scratch, 'capacity-hashed.ts'),
    `import { HashedEmbedder } from '@treeagent/core';
import { loadTreeDocument } from './load.js';
export const embedder = new HashedEmbedder();
export default loadTreeDocument();
`,
  );
  writeFileSync(
    join(scratch, 'load.ts'),
    `import { readFileSync } from 'node:fs';
import { defineTree } from '@treeagent/core';
import { documentToDefinition } from '@treeagent/core/document';
export const loadTreeDocument = () => defineTree(documentToDefinition(JSON.parse(readFileSync(new URL('./capacity.json', import.meta.url), 'utf8')), {}));
`,
  );
  const postgres = setup === 'hashed-postgres';
  const { schema, drop } = postgres ? testSchema('capacity') : { schema: undefined, drop: async () => {} };
  const data = join(scratch, 'data');
  const server = await startServeProcess({
    files: {
      ...files,
      tree: join(scratch, setup === 'english-fitted' ? 'capacity.json' : 'capacity-hashed.ts'),
    },
    port: await freePort(),
    data,
    ...(postgres ? { databaseUrl: DATABASE_URL, schema: schema! } : {}),
  });
  try {
    if (setup === 'english-fitted') {
      // The fit runs in the background after the start: measure in the fitted space.
      const deadline = Date.now() + 180_000;
      while (
        !/in the fitted space|fitting the embedding space .* failed/.test(server.stdout() + server.stderr())
      ) {
        if (Date.now() > deadline)
          throw new Error(`no fit within 180 s: ${server.stdout()} ${server.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    const space =
      /routing tree "capacity" in the fitted space \(([^)]*)/.exec(server.stdout() + server.stderr())?.[1] ??
      /embedding space: ([^\n]*)/.exec(server.stdout())?.[1] ??
      '?';
    const stored = async () => (postgres ? schemaBytes(schema!) : sqliteBytes(join(data, 'treeagent.db')));
    const before = await stored();
    const result = await closedLoop(server.url, {
      clients: CLIENTS,
      seconds: SECONDS,
      warmupSeconds: 2,
      message,
    });
    const memory = rss(server.child.pid!);
    const after = await stored();
    const row: Row = {
      setup,
      space,
      ...result,
      rssMb: memory.rss / 1e6,
      peakMb: memory.peak / 1e6,
      bytesPerTurn: (after - before) / Math.max(1, result.allTurns),
    };
    if (setup === 'hashed') {
      const start = rss(server.child.pid!).rss;
      // Through the OpenAI-compatible endpoint: each new X-Session-Id is a new session (the JSON
      // API's POST /api/v1/sessions allows 30 new sessions a minute per client address).
      for (let i = 0; i < SESSIONS; i += 50)
        await Promise.all(
          Array.from({ length: Math.min(50, SESSIONS - i) }, async (_, j) => {
            const response = await fetch(`${server.url}/v1/chat/completions`, {
              method: 'POST',
              headers: {
                authorization: `Bearer ${CLUSTER_API_KEY}`,
                'content-type': 'application/json',
                'x-session-id': `held-${i + j}`,
              },
              body: JSON.stringify({
                model: 'capacity',
                messages: [{ role: 'user', content: message(i + j, 0) }],
              }),
            });
            if (response.status !== 200)
              throw new Error(`chat/completions: ${response.status} ${await response.text()}`);
          }),
        );
      row.bytesPerSession = (rss(server.child.pid!).rss - start) / SESSIONS;
    }
    return row;
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    await drop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const rows: Row[] = [];
for (const setup of ['hashed', 'english-fitted', 'hashed-postgres'] as const) {
  process.stdout.write(`${setup}…\n`);
  rows.push(await run(setup));
}
process.stdout.write(
  `\none treeagent serve process, ${CLIENTS} clients, ${SECONDS} s measured, every message new; ${execFileSync('nproc', { encoding: 'utf8' }).trim()} cores, load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}\n`,
);
process.stdout.write('setup            turns/s  p50 ms  p99 ms  errors  RSS MB (peak)  stored bytes/turn\n');
for (const row of rows)
  process.stdout.write(
    `${row.setup.padEnd(15)}  ${row.turnsPerSecond.toFixed(0).padStart(7)}  ${row.p50Ms.toFixed(1).padStart(6)}  ${row.p99Ms.toFixed(1).padStart(6)}  ${String(row.errors).padStart(6)}  ${row.rssMb.toFixed(0).padStart(6)} (${row.peakMb.toFixed(0)})  ${row.bytesPerTurn?.toFixed(0).padStart(8)}\n`,
  );
for (const row of rows) process.stdout.write(`  ${row.setup}: embedding space ${row.space}\n`);
const [hashed, fitted] = [rows[0]!, rows[1]!];
process.stdout.write(
  `ratios: English fitted / hashed: ${(fitted.turnsPerSecond / hashed.turnsPerSecond).toFixed(2)}× the turns/s, ${(fitted.p99Ms / hashed.p99Ms).toFixed(2)}× the p99, ${(fitted.rssMb / hashed.rssMb).toFixed(2)}× the RSS; PostgreSQL / SQLite: ${(rows[2]!.turnsPerSecond / hashed.turnsPerSecond).toFixed(2)}× the turns/s, ${(rows[2]!.bytesPerTurn! / hashed.bytesPerTurn!).toFixed(2)}× the bytes per turn\n`,
);
process.stdout.write(
  `sessions held: ${SESSIONS} more sessions of one turn grew the hashed server's RSS by ${(hashed.bytesPerSession! / 1024).toFixed(1)} KB each, an upper bound (no forced garbage collection; sessions live in the store)\n`,
);
