import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import { TreeAgent } from '../packages/core/src/index.js';
import { openSqlite, SqliteEmbeddingCache } from '../packages/sqlite/src/index.js';
import { ms, summarize } from './lib/stats.js';
import { routingTree } from './lib/trees.js';
import { PrecomputedEmbedder } from './lib/vectors.js';

/**
 * Where a new message's embedding goes, on SQLite (issue #18, goal 4):
 * `npx tsx bench/new-messages-sqlite.ts [--blocks=20]`. Three agents on `openSqlite` (WAL,
 * synchronous NORMAL), each on its own file, the engine-overhead benchmark's 200-node tree; every
 * message is a text never seen before (the vector of a known message under a new text), so each turn
 * embeds it. The vector is written to the SQLite embedding cache inside the turn
 * (`messageEmbeddings: 'embedding-cache'` with `deferWrites: false`, the behaviour before issue
 * #18), written off the turn's path (`messageEmbeddings: 'embedding-cache'`, small batches written
 * together about 100 ms later), or not persisted (`messageEmbeddings: 'memory'`, the default: kept
 * in a bounded in-memory cache read through to the SQLite one). Timed in rotating blocks of 100 turns
 * in one process, wall and CPU time per turn, so that the machine's other load falls on all alike.
 */

const BLOCKS = Number(
  process.argv.find((arg) => arg.startsWith('--blocks='))?.slice('--blocks='.length) ?? 20,
);
const PER_BLOCK = 100;

const routing = routingTree({
  name: 'new-messages',
  levels: [9],
  leaves: 189,
  chunksPerLeaf: 10,
  dimensions: 384,
  seed: 200,
});
const base = routing.embedder;
const embedder = new PrecomputedEmbedder({
  dimensions: base.dimensions,
  vectors: base.vectors,
  generate: (texts) => texts.map((text) => base.vector(text.slice(0, text.indexOf('#')))),
});
const directory = mkdtempSync(join(tmpdir(), 'treeagent-new-messages-'));
const NAMES = [
  'written in the turn (before #18)',
  'written off the turn',
  'not persisted (default)',
] as const;
const variants = NAMES.map((name, k) => {
  const sqlite = openSqlite(join(directory, String(k)), { synchronous: 'NORMAL' });
  return { name, sqlite, wall: [] as number[], cpu: [] as number[], rows: 0 };
});
try {
  // The "before" variant's cache: the same file, every write inside the turn.
  const caches = [
    new SqliteEmbeddingCache(variants[0]!.sqlite.database, { deferWrites: false }),
    variants[1]!.sqlite.embeddingCache,
    variants[2]!.sqlite.embeddingCache,
  ];
  const agents = variants.map(
    (variant, k) =>
      new TreeAgent({
        tree: routing.tree,
        embedder,
        sessionStore: variant.sqlite.sessionStore,
        vectorStore: variant.sqlite.vectorStore,
        embeddingCache: caches[k]!,
        messageEmbeddings: k === 2 ? 'memory' : 'embedding-cache',
      }),
  );
  for (const agent of agents) await agent.ready();
  const load = loadavg()[0]!;
  let turn = 0;
  const run = async (k: number, keep: boolean) => {
    for (let i = 0; i < PER_BLOCK; i++, turn++) {
      const message = routing.messages[turn % routing.messages.length]!.text;
      const wall = performance.now();
      const cpu = cpuUsage();
      await agents[k]!.send(`s${k}-${Math.floor(turn / 10)}`, `${message}#${turn}`);
      if (!keep) continue;
      const used = cpuUsage(cpu);
      variants[k]!.wall.push(performance.now() - wall);
      variants[k]!.cpu.push((used.user + used.system) / 1000);
    }
  };
  for (let k = 0; k < variants.length; k++) await run(k, false);
  for (let block = 0; block < BLOCKS; block++)
    for (let j = 0; j < variants.length; j++) await run((block + j) % variants.length, true);
  for (const [k, cache] of caches.entries()) {
    await cache.flush();
    variants[k]!.rows = await cache.size(embedder.id);
  }
  console.log(
    `${BLOCKS * PER_BLOCK} turns per variant, every message new, 200-node tree, load average ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log('| message embedding | wall median / p99 | CPU median / p99 | vectors in the file after |');
  console.log('| --- | --- | --- | --- |');
  for (const variant of variants) {
    const wall = summarize(variant.wall);
    const cpu = summarize(variant.cpu);
    console.log(
      `| ${variant.name} | ${ms(wall.median)} / ${ms(wall.p99)} | ${ms(cpu.median)} / ${ms(cpu.p99)} | ${variant.rows.toLocaleString('en')} |`,
    );
  }
  await caches[0]!.close();
} finally {
  for (const variant of variants) await variant.sqlite.close();
  rmSync(directory, { recursive: true, force: true });
}
