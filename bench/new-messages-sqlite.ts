import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import { TreeAgent } from '../packages/core/src/index.js';
import { openSqlite } from '../packages/sqlite/src/index.js';
import { ms, summarize } from './lib/stats.js';
import { routingTree } from './lib/trees.js';
import { PrecomputedEmbedder } from './lib/vectors.js';

/**
 * The embedding cache write inside a turn (issue #18, goal 4): `npx tsx bench/new-messages-sqlite.ts`.
 * Two agents on `openSqlite` (WAL, synchronous NORMAL), each on its own file, the engine-overhead
 * benchmark's 200-node tree; every message is a text never seen before (the vector of a known
 * message under a new text), so each turn embeds it and stores it in the SQLite embedding cache.
 * One agent's cache writes before `setMany` resolves (`deferWrites: false`, the behaviour before),
 * the other's writes small batches off the turn's path (the default). Timed in alternating blocks
 * of 100 turns in one process, wall and CPU time per turn, so that the machine's other load falls
 * on both alike.
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
const variants = (['in the turn (before)', 'off the turn (after)'] as const).map((name, k) => {
  const sqlite = openSqlite(join(directory, String(k)), { synchronous: 'NORMAL' });
  if (k === 0) {
    // The cache of the "before" variant: the same file, every write inside the turn.
    sqlite.embeddingCache.close();
  }
  return { name, sqlite, wall: [] as number[], cpu: [] as number[] };
});
try {
  const { SqliteEmbeddingCache } = await import('../packages/sqlite/src/index.js');
  const caches = [
    new SqliteEmbeddingCache(variants[0]!.sqlite.database, { deferWrites: false }),
    variants[1]!.sqlite.embeddingCache,
  ];
  const agents = variants.map(
    (variant, k) =>
      new TreeAgent({
        tree: routing.tree,
        embedder,
        sessionStore: variant.sqlite.sessionStore,
        vectorStore: variant.sqlite.vectorStore,
        embeddingCache: caches[k]!,
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
  for (let k = 0; k < 2; k++) await run(k, false);
  for (let block = 0; block < BLOCKS; block++)
    for (const k of block % 2 ? [1, 0] : [0, 1]) await run(k, true);
  console.log(
    `${BLOCKS * PER_BLOCK} turns per variant, every message new, 200-node tree, load average ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}\n`,
  );
  console.log('| embedding cache write | wall median / p99 | CPU median / p99 |');
  console.log('| --- | --- | --- |');
  for (const variant of variants) {
    const wall = summarize(variant.wall);
    const cpu = summarize(variant.cpu);
    console.log(
      `| ${variant.name} | ${ms(wall.median)} / ${ms(wall.p99)} | ${ms(cpu.median)} / ${ms(cpu.p99)} |`,
    );
  }
  for (const cache of caches) await cache.close();
} finally {
  for (const variant of variants) await variant.sqlite.close();
  rmSync(directory, { recursive: true, force: true });
}
