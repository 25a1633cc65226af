import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import { TreeAgent } from '../../packages/core/src/index.js';
import { openSqlite } from '../../packages/sqlite/src/index.js';
import { ms, summarize } from '../lib/stats.js';
import { routingTree } from '../lib/trees.js';

/**
 * What writing the turn facts costs per turn (docs/analytics.md): `npx tsx bench/analytics/turn-facts-overhead.ts`.
 * The engine-overhead benchmark's 200-node tree and precomputed embedder, two agents on SQLite
 * files of their own (WAL, synchronous NORMAL): one with `turnFacts: false` (before), one with the
 * default (after: the fact computed from the trace and written in the turn's commit). Alternating
 * blocks of 100 turns in one process, 10 turns per session, wall and CPU time per turn; the same in
 * memory (the fact is computed, the in-memory store keeps none).
 */
const BLOCKS = Number(
  process.argv.find((arg) => arg.startsWith('--blocks='))?.slice('--blocks='.length) ?? 20,
);
const PER_BLOCK = 100;

const routing = routingTree({
  name: 'turn-facts',
  levels: [9],
  leaves: 189,
  chunksPerLeaf: 10,
  dimensions: 384,
  seed: 200,
});
const directory = mkdtempSync(join(tmpdir(), 'treeagent-turn-facts-'));
const results: string[] = [];
try {
  for (const persistence of ['SQLite', 'in memory'] as const) {
    const variants = (['before: turnFacts false', 'after: turn facts written'] as const).map((name, k) => {
      const sqlite =
        persistence === 'SQLite'
          ? openSqlite(join(directory, `${persistence}-${k}`), { synchronous: 'NORMAL' })
          : null;
      const agent = new TreeAgent({
        tree: routing.tree,
        embedder: routing.embedder,
        ...(sqlite
          ? {
              sessionStore: sqlite.sessionStore,
              vectorStore: sqlite.vectorStore,
              embeddingCache: sqlite.embeddingCache,
            }
          : {}),
        turnFacts: k === 1,
      });
      return { name, sqlite, agent, wall: [] as number[], cpu: [] as number[] };
    });
    for (const variant of variants) await variant.agent.ready();
    const load = loadavg()[0]!;
    let turn = 0;
    const run = async (k: number, keep: boolean) => {
      const variant = variants[k]!;
      for (let i = 0; i < PER_BLOCK; i++, turn++) {
        const message = routing.messages[turn % routing.messages.length]!.text;
        const wall = performance.now();
        const cpu = cpuUsage();
        await variant.agent.send(`s${Math.floor(turn / 10)}`, message);
        if (!keep) continue;
        const used = cpuUsage(cpu);
        variant.wall.push(performance.now() - wall);
        variant.cpu.push((used.user + used.system) / 1000);
      }
    };
    for (let k = 0; k < 2; k++) await run(k, false);
    for (let block = 0; block < BLOCKS; block++)
      for (const k of block % 2 ? [1, 0] : [0, 1]) await run(k, true);
    results.push(
      `\n${persistence}: ${BLOCKS * PER_BLOCK} turns per variant, 200-node tree, load average ${load.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}\n`,
    );
    results.push('| turn facts | wall median / p99 | CPU median / p99 |', '| --- | --- | --- |');
    for (const variant of variants) {
      const wall = summarize(variant.wall);
      const cpu = summarize(variant.cpu);
      results.push(
        `| ${variant.name} | ${ms(wall.median)} / ${ms(wall.p99)} | ${ms(cpu.median)} / ${ms(cpu.p99)} |`,
      );
    }
    for (const variant of variants) await variant.sqlite?.close();
  }
  console.log(results.join('\n'));
} finally {
  rmSync(directory, { recursive: true, force: true });
}
