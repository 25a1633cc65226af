import { loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { fileURLToPath } from 'node:url';
import { FileEmbeddingCache, HashedEmbedder, InMemoryEmbeddingCache } from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { clincTree, loadClinc150 } from './clinc150.js';

/**
 * Where the time of a fit at load goes: embedding the chunks (the base embedder, through a cold
 * cache) against the math (PCA, scatter, LDA in the worker thread), as `spaceFitter()` fits an
 * English tree of CLINC150 `train` (`--per-intent` utterances per intent; `--base=agent` fits the
 * hashed n-grams instead of USE-lite + hashed; `--base=use-student` over the USE-lite student + hashed). Wall time of each phase and CPU time of
 * the process.
 * `--whole=0`: one PCA of the whole base (the fit before `wholePart`); `--whole=N`: USE-lite's 512
 * dimensions whole beside a PCA of the hashed part to N (default: what the base asks for, 256).
 * `--warm`: the chunks' vectors from the benchmarks' embedding cache (`embed-use-cache.ts` fills it),
 * as a restart with a persistent cache finds them: the math alone.
 *
 * `--no-refine`: the LDA's map as it is, not refined on the chunks (`FitOptions.refine: false`).
 *
 * CLINC150_DIR=/path/to/clinc150 nice npx tsx bench/routing/fit-profile.ts [--per-intent=20] [--base=auto|agent|use-student] [--pca=512] [--whole=0|N] [--no-refine] [--warm]
 */
const option = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const tree = clincTree(loadClinc150(), { perIntent: Number(option('per-intent', '20')), threshold: null });
const base = option('base', 'auto') as 'auto' | 'agent' | 'use-student';
const cpu = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};
const phases: { phase: string; at: number; cpu: number }[] = [];
const started = performance.now();
const cpuStart = cpu();
const pca = option('pca', '');
const whole = option('whole', '');
const fitter = spaceFitter({
  cacheDirectory: false,
  base,
  ...(pca ? { pcaDimensions: Number(pca) } : {}),
  ...(whole ? { wholePart: whole === '0' ? false : { dimensions: 512, pcaOfRest: Number(whole) } } : {}),
  ...(process.argv.includes('--no-refine') ? { refine: false as const } : {}),
  onProgress: ({ phase }) => phases.push({ phase, at: performance.now() - started, cpu: cpu() - cpuStart }),
});
const space = await fitter.fit({
  tree,
  base: new HashedEmbedder(),
  baseIsDefault: true,
  embeddingCache: process.argv.includes('--warm')
    ? new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)))
    : new InMemoryEmbeddingCache(),
  signal: new AbortController().signal,
});
const total = { at: performance.now() - started, cpu: cpu() - cpuStart };
const embedded = phases.filter((entry) => entry.phase === 'embedding').at(-1)!;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(
  `${new Date().toISOString()} ${tree.chunks.length} chunks over ${space.baseId} (${space.detail}); load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `embedding the chunks: ${seconds(embedded.at)} wall, ${seconds(embedded.cpu)} CPU; the math: ${seconds(total.at - embedded.at)} wall, ${seconds(total.cpu - embedded.cpu)} CPU; total ${seconds(total.at)} wall, ${seconds(total.cpu)} CPU`,
);
process.exit(0);
