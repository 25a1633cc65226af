import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RouteResult, routeText } from '../packages/core/src/engine/agent/route.js';
import { loadRuntime, type RuntimeParts } from '../packages/core/src/engine/runtime/load-runtime.js';
import type { ExploreScan } from '../packages/core/src/explore/chunk-index.js';
import { InMemoryEmbeddingCache } from '../packages/core/src/index.js';
import { inChild } from './lib/child.js';
import { benchRuntimeParts } from './lib/runtime-parts.js';
import { ms, summarize } from './lib/stats.js';
import { routingTree } from './lib/trees.js';

/**
 * Where the sign-bit scan starts to pay (`SIGN_SCAN_FROM`, packages/core/src/explore/chunk-index.ts):
 * on trees shaped like the engine-overhead benchmark's largest (two levels of 10 routing nodes,
 * leaves of 5 chunks, 384-d) from 1,000 to 40,000 chunks, one route (`routeText`, what a turn's
 * explore step does) three ways on the same messages, interleaved message by message:
 *
 * - `exact`: one float32 pass over every chunk per direction (`exploreScan: 'exact'`);
 * - `sign-bits`: the sign-bit pass, then the nearest candidates rescored in float32, rows in memory;
 * - `sign-bits, packed file`: the same with the float32 rows left in the packed index file and int8
 *   rows choosing the few read (what an agent with an `indexDirectory` — `openSqlite`'s embedding
 *   cache — runs on).
 *
 * Each size runs in a fresh process. Prints wall and CPU median / p99 per route, and how many
 * routes made decisions identical to the exact ones (every hop: action, best chunk, similarity,
 * next node).
 *
 *   npx tsx bench/sign-scan-crossover.ts [--chunks=1000,2000,5000,10000,20000] [--routes=2000]
 */

const DIMENSIONS = 384;
const VARIANTS = ['exact', 'sign-bits', 'sign-bits, packed file'] as const;
type Variant = (typeof VARIANTS)[number];

interface CrossoverRow {
  chunks: number;
  routes: number;
  wall: Record<Variant, { median: number; p99: number }>;
  cpu: Record<Variant, { median: number; p99: number }>;
  identical: Record<Variant, number>;
  load: number;
}

/** In a fresh process: one tree size, routed the three ways. */
export async function crossoverChild({
  chunks,
  routes,
}: {
  chunks: number;
  routes: number;
}): Promise<CrossoverRow> {
  const routing = routingTree({
    name: `crossover-${chunks}`,
    dimensions: DIMENSIONS,
    seed: 2000,
    levels: [10, 10],
    leaves: Math.round(chunks / 5),
    chunksPerLeaf: 5,
    messages: 512,
  });
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-crossover-'));
  const parts = (scan: ExploreScan, indexDirectory?: string): RuntimeParts =>
    benchRuntimeParts(routing, {
      embeddingCache: new InMemoryEmbeddingCache(),
      exploreScan: scan,
      calibration: {},
      indexDirectory,
    });
  try {
    const runtimes = {
      exact: await loadRuntime(parts('exact')),
      'sign-bits': await loadRuntime(parts('sign-bits')),
      'sign-bits, packed file': await loadRuntime(parts('sign-bits', directory)),
    } satisfies Record<Variant, unknown>;
    if (!runtimes['sign-bits'].chunkIndex?.signBits) throw new Error('no sign bits (no WebAssembly SIMD?)');
    if (runtimes['sign-bits, packed file'].chunkIndex?.rowsInMemory)
      throw new Error('the packed index kept its float32 rows in memory');
    const key = (result: RouteResult) =>
      JSON.stringify(
        result.decisions.map((d) => [d.nodeId, d.action, d.best?.chunkId, d.best?.similarity, d.nextNodeId]),
      );
    const wall = Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
    const cpu = Object.fromEntries(VARIANTS.map((v) => [v, [] as number[]])) as Record<Variant, number[]>;
    const identical = Object.fromEntries(VARIANTS.map((v) => [v, 0])) as Record<Variant, number>;
    const { messages } = routing;
    const warmup = 200;
    for (let i = 0; i < warmup + routes; i++) {
      const text = messages[i % messages.length]!.text;
      let reference = '';
      // Rotate the order so that no variant always runs first (caches, branch predictors).
      for (let k = 0; k < VARIANTS.length; k++) {
        const variant = VARIANTS[(i + k) % VARIANTS.length]!;
        const cpuStart = process.cpuUsage();
        const started = performance.now();
        const result = await routeText(runtimes[variant], text);
        const elapsed = performance.now() - started;
        const used = process.cpuUsage(cpuStart);
        if (i < warmup) continue;
        wall[variant].push(elapsed);
        cpu[variant].push((used.user + used.system) / 1000);
        if (variant === 'exact') reference = key(result);
        (runtimes[variant] as unknown as { lastKey?: string }).lastKey = key(result);
      }
      if (i >= warmup)
        for (const variant of VARIANTS)
          if ((runtimes[variant] as unknown as { lastKey?: string }).lastKey === reference)
            identical[variant]++;
    }
    const stats = (samples: Record<Variant, number[]>) =>
      Object.fromEntries(
        VARIANTS.map((v) => {
          const s = summarize(samples[v]);
          return [v, { median: s.median, p99: s.p99 }];
        }),
      ) as CrossoverRow['wall'];
    return {
      chunks: routing.chunkCount,
      routes,
      wall: stats(wall),
      cpu: stats(cpu),
      identical,
      load: loadavg()[0]!,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const isMain = process.argv[1]?.endsWith('sign-scan-crossover.ts');
if (isMain) {
  const option = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
  const sizes = (option('chunks') ?? '1000,2000,3000,5000,7500,10000,15000,20000,40000')
    .split(',')
    .map(Number);
  const routes = Number(option('routes') ?? 2000);
  console.log(
    `| chunks | exact wall median / p99 | sign-bits wall median / p99 | sign-bits, packed file wall median / p99 | CPU median: exact / sign-bits / packed file | identical to exact: sign-bits / packed file | load avg |`,
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const chunks of sizes) {
    const row = inChild<CrossoverRow>(import.meta.url, 'crossoverChild', { chunks, routes });
    const pair = (v: Variant) => `${ms(row.wall[v].median)} / ${ms(row.wall[v].p99)}`;
    console.log(
      `| ${row.chunks.toLocaleString('en')} | ${pair('exact')} | ${pair('sign-bits')} | ${pair('sign-bits, packed file')} | ${VARIANTS.map((v) => ms(row.cpu[v].median)).join(' / ')} | ${row.identical['sign-bits']}/${row.routes}, ${row.identical['sign-bits, packed file']}/${row.routes} | ${row.load.toFixed(2)} |`,
    );
  }
}
