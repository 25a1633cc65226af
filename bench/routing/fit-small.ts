import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { HashedEmbedder, InMemoryEmbeddingCache } from '../../packages/core/src/index.js';
import { clincTree, loadClinc150 } from './clinc150.js';

/**
 * How long a small tree takes to fit: 300 chunks (30 CLINC150 intents × 10 training utterances, in
 * 2 domains), hashed base embedder, default settings, chunks already embedded (as at load). Both
 * ways: on the calling thread (`fitProjection`, 1 thread) and as the agent does it at load
 * (`spaceFitter().fit`: the math in a worker thread), and over USE-lite + hashed as the agent fits
 * this English tree with its default embedder (the first fit embeds the chunks). Each is repeated; the report gives the median
 * wall time and the median CPU time of the whole process (every thread), with the load average,
 * since the machine is shared.
 *
 * `--dist` runs the built package (`npx tsc -b packages/fit/tsconfig.build.json` first), as users
 * get it: its worker thread loads JavaScript, not TypeScript through tsx.
 *
 * npx tsx bench/routing/fit-small.ts [--repeats 9] [--dist] [--no-write]
 */
const dist = process.argv.includes('--dist');
const { fitProjection, spaceFitter } = (
  dist
    ? await import('../../packages/fit/dist/index.js' as string)
    : await import('../../packages/fit/src/index.js')
) as typeof import('../../packages/fit/src/index.js');
const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const repeats = Number(argument('--repeats') ?? 9);
const data = loadClinc150();
const domains = Object.keys(data.domains).slice(0, 2);
const tree = clincTree(data, { domains, perIntent: 10, threshold: null });
const base = new HashedEmbedder();
const embeddingCache = new InMemoryEmbeddingCache();
// The chunks are embedded at load before the fit starts: warm the cache the same way.
await fitProjection(tree, base, { embeddingCache, threads: 1 });

async function measure(run: () => Promise<unknown>) {
  const walls: number[] = [];
  const cpus: number[] = [];
  const loads: number[] = [];
  for (let i = 0; i < repeats; i++) {
    loads.push(loadavg()[0]!);
    const cpu = process.cpuUsage();
    const started = performance.now();
    await run();
    walls.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  return {
    wallMs: Math.round(median(walls)),
    cpuMs: Math.round(median(cpus)),
    minWallMs: Math.round(Math.min(...walls)),
    minCpuMs: Math.round(Math.min(...cpus)),
    loadAverage: Math.round(median(loads) * 10) / 10,
  };
}

const fitter = spaceFitter();
const controller = new AbortController();
// As the agent asks for it with its default embedder: this English tree is fitted over USE-lite +
// hashed (when @treeagent/embedder-use is installed). A first fit embeds the chunks with USE-lite.
const asAtLoad = { tree, base, baseIsDefault: true, embeddingCache, signal: controller.signal };
const firstOverUse = performance.now();
const firstCpu = process.cpuUsage();
const overUse = await fitter.fit(asAtLoad);
const firstWallMs = performance.now() - firstOverUse;
const firstCpuUsed = process.cpuUsage(firstCpu);
const results = {
  date: new Date().toISOString(),
  build: dist ? 'dist' : 'sources through tsx',
  chunks: tree.chunks.length,
  classes: 30,
  repeats,
  calledThread: await measure(() => fitProjection(tree, base, { embeddingCache, threads: 1 })),
  workerThread: await measure(() => fitter.fit({ tree, base, embeddingCache, signal: controller.signal })),
  overUseBase: {
    base: overUse.baseId,
    // The first fit: the 300 chunks embedded by USE-lite (on the calling thread), then the math.
    first: {
      wallMs: Math.round(firstWallMs),
      cpuMs: Math.round((firstCpuUsed.user + firstCpuUsed.system) / 1000),
    },
    // Chunks embedded (as after load, or a restart with a persistent cache): the math in the worker.
    workerThread: await measure(() => fitter.fit(asAtLoad)),
  },
};
console.log(JSON.stringify(results, null, 2));
if (!process.argv.includes('--no-write'))
  writeFileSync(
    new URL('./fit-small-results.json', import.meta.url),
    `${JSON.stringify(results, null, 2)}\n`,
  );
