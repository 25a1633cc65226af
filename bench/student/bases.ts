import { defaultEmbedderFor, type Embedder } from '../../packages/core/src/adapter/index.js';
import { ConcatEmbedder, type Tree } from '../../packages/core/src/index.js';
import { UseEmbedder, UseStudentEmbedder } from '../../packages/embedder-use/src/index.js';
import { type SpaceFitterOptions, USE_BASE_WEIGHT } from '../../packages/fit/src/index.js';
import { UseMaxPoolEmbedder } from '../routing/experiments/use-max-pool.js';

/**
 * The bases of the fit compared for the USE-lite student (`--base <name>` of the routing
 * benchmarks): `use+hashed` is the library's `'auto'` base for English trees (its own base weight and
 * keep), `hashed` the agent's hashed embedder alone; the others are given to `spaceFitter` as an
 * `Embedder`, with USE-lite + hashed's base weight (0.25) unless the benchmark chooses another.
 */
export const BASES = [
  'use+hashed',
  'hashed',
  'student',
  'student+hashed',
  'use+student+hashed',
  'use+usemax+hashed',
] as const;
export type BaseName = (typeof BASES)[number];

let student: UseStudentEmbedder | undefined;
let use: UseEmbedder | undefined;

export function parseBase(value: string | undefined): BaseName {
  const name = value ?? 'use+hashed';
  if (!(BASES as readonly string[]).includes(name))
    throw new Error(`--base ${name}: expected one of ${BASES.join(', ')}`);
  return name as BaseName;
}

/** The fitter's options for a base on `tree` (the hashed part: the agent's own embedder for the tree). */
export function baseOptions(name: BaseName, tree: Tree): SpaceFitterOptions {
  if (name === 'use+hashed') return {};
  if (name === 'hashed') return { base: 'agent' };
  const hashed: Embedder = defaultEmbedderFor(tree);
  if (name === 'use+usemax+hashed') {
    // The experiment of routing/experiments/use-max-pool.ts: USE-lite's two views whole, the hashed part's PCA beside.
    use ??= new UseEmbedder({ batchSize: 16, workers: 2 });
    const weight = Number(process.env.USEMAX_WEIGHT ?? '1');
    const base = new ConcatEmbedder([
      { embedder: use, weight: 2 },
      { embedder: new UseMaxPoolEmbedder(), weight },
      hashed,
    ]);
    return { base, baseWeight: USE_BASE_WEIGHT, wholePart: { dimensions: 1024, pcaOfRest: 256 } };
  }
  student ??= new UseStudentEmbedder();
  if (name === 'use+student+hashed') use ??= new UseEmbedder({ batchSize: 16, workers: 2 });
  const base =
    name === 'student'
      ? student
      : name === 'student+hashed'
        ? new ConcatEmbedder([{ embedder: student, weight: 2 }, hashed])
        : new ConcatEmbedder([{ embedder: use!, weight: 2 }, { embedder: student, weight: 1 }, hashed]);
  return { base, baseWeight: USE_BASE_WEIGHT };
}
