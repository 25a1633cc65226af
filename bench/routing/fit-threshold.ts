/**
 * Does fitting the embedding space help a small tree? The automatic fit starts at
 * `AUTO_FIT_MIN_CHUNKS` (100) exploration chunks; the English template of `npm create treeagent` has
 * fewer. Small flat trees (agent → intents) of 20, 40, 60 and 100 chunks (4, 8, 12 and 20 CLINC150
 * intents × 5 training utterances), each size over 5 folds: each fold draws its own intents (seeded)
 * and its own 5 training utterances per intent; tested on the validation utterances of those intents
 * (30 each) and the 100 out-of-scope validation utterances. Routed with the default hashed embedder,
 * unfitted (`fit: false`) and fitted (`fit: true`, `@treeagent/fit`'s `spaceFitter`), thresholds
 * calibrated at load as served. Reports in-scope accuracy and out-of-scope recall, mean and spread
 * over the folds. The test utterances are CLINC150 `val` (and `oos_val`): these are the figures of
 * "routing measured on small trees", not a held-out test.
 *
 * Three variants: `hashed` (the default hashed embedder, unfitted), `fitted` (fitted over the hashed
 * embedder alone: `base: 'agent'`), `useFitted` (fitted as `treeagent dev` fits an English tree: the
 * `'auto'` base, USE-lite + hashed n-grams 2:1 with `@treeagent/embedder-use` installed; the run fails
 * when the fit chose another base) and `use` (unfitted, the agent's embedder a `UseEmbedder`, which a
 * user chooses with `embedder: new UseEmbedder()`). USE-lite vectors go through the benchmarks'
 * embedding cache (`bench/.cache/embeddings`); only the folds' texts are embedded.
 *
 * npx tsx bench/routing/fit-threshold.ts [--folds 5] [--base hashed|use|both] [--no-write]
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { evaluateRouting, type LabelledUtterance } from '../../packages/core/src/evaluation.js';
import {
  defineTree,
  FileEmbeddingCache,
  type NodeDefinition,
  TreeAgent,
} from '../../packages/core/src/index.js';
import { UseEmbedder } from '../../packages/embedder-use/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { loadClinc150 } from './clinc150.js';

const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const folds = Number(argument('--folds') ?? 5);
const PER_INTENT = 5;
const SIZES = [20, 40, 60, 100];
const data = loadClinc150();
const intents = Object.values(data.domains).flat();
const baseOption = argument('--base') ?? 'both';
if (!['hashed', 'use', 'both'].includes(baseOption))
  throw new Error(`--base ${baseOption}: expected hashed, use or both`);
type Variant = 'hashed' | 'fitted' | 'useFitted' | 'use';
const VARIANTS: Variant[] = [
  ...(baseOption === 'use' ? [] : (['hashed', 'fitted'] as const)),
  ...(baseOption === 'hashed' ? [] : (['useFitted', 'use'] as const)),
];
const hashedFitter = spaceFitter({ cacheDirectory: false, worker: false, base: 'agent' });
// As `treeagent dev` builds it (packages/cli/src/commands/dev.ts), minus the worker thread.
const autoFitter = spaceFitter({ cacheDirectory: false, worker: false });
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));
let use: UseEmbedder | undefined;

/** A seeded shuffle (mulberry32), so the folds are the same on every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function foldOf(size: number, fold: number) {
  const chosen = shuffled(intents, 1000 * size + fold).slice(0, size / PER_INTENT);
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ];
  chosen.forEach((intent, index) => {
    const utterances = data.train.filter(([, label]) => label === intent);
    nodes.push({
      id: 10 + index,
      type: 'emit',
      parent: 2,
      name: intent,
      chunks: utterances.slice(fold * PER_INTENT, (fold + 1) * PER_INTENT).map(([text]) => text),
      emit: { message: { type: 'static', content: intent } },
    });
  });
  const set = new Set(chosen);
  const test: LabelledUtterance[] = [
    ...data.val.filter(([, label]) => set.has(label)).map(([text, label]) => [text, label] as const),
    ...data.oosVal.map(([text]) => [text, 'none'] as const),
  ];
  return { tree: defineTree({ name: `small-${size}-${fold}`, nodes }), test };
}

async function score(variant: Variant, size: number, fold: number) {
  const { tree, test } = foldOf(size, fold);
  const fitted = variant === 'fitted' || variant === 'useFitted';
  if (variant === 'use') use ??= new UseEmbedder({ batchSize: 64 });
  const agent = new TreeAgent({
    tree,
    fit: fitted,
    spaceFitter: variant === 'useFitted' ? autoFitter : hashedFitter,
    ...(variant === 'hashed' || variant === 'fitted' ? {} : { embeddingCache: cache }),
    ...(variant === 'use' && use ? { embedder: use } : {}),
    log: () => undefined,
  });
  const space = await agent.whenFitted();
  if (fitted && space.state !== 'fitted')
    throw new Error(`fold ${fold} of ${size}: not fitted (${space.state})`);
  if (variant === 'useFitted' && !(space.state === 'fitted' && space.base?.startsWith('USE-lite')))
    throw new Error(
      `fold ${fold} of ${size}: fitted over ${space.state === 'fitted' ? space.base : 'nothing'}, not USE-lite + hashed: is @treeagent/embedder-use built (npm run build -w @treeagent/embedder-use)?`,
    );
  const report = await evaluateRouting(tree, agent, test);
  return { accuracy: report.accuracy, outOfScopeRecall: report.outOfScopeRecall };
}

const summary = (values: number[]) => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    mean: Math.round(mean * 1000) / 1000,
    min: Math.round(Math.min(...values) * 1000) / 1000,
    max: Math.round(Math.max(...values) * 1000) / 1000,
  };
};

const rows = [];
for (const size of SIZES) {
  const row: Record<string, unknown> = { chunks: size, intents: size / PER_INTENT };
  for (const variant of VARIANTS) {
    const results = [];
    for (let fold = 0; fold < folds; fold++) results.push(await score(variant, size, fold));
    row[variant] = {
      accuracy: summary(results.map((result) => result.accuracy)),
      outOfScopeRecall: summary(results.map((result) => result.outOfScopeRecall)),
      perFold: results,
    };
  }
  const line = VARIANTS.map((variant) => {
    const figures = row[variant] as { accuracy: { mean: number }; outOfScopeRecall: { mean: number } };
    return `${variant} ${figures.accuracy.mean} / ${figures.outOfScopeRecall.mean}`;
  });
  console.log(
    `${size} chunks (${size / PER_INTENT} intents), accuracy / out-of-scope recall: ${line.join('; ')}`,
  );
  rows.push(row);
}
if (!process.argv.includes('--no-write'))
  writeFileSync(
    new URL('./fit-threshold-results.json', import.meta.url),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        folds,
        perIntent: PER_INTENT,
        testSet: 'CLINC150 val (in-scope) + oos_val: the folds are scored on validation data',
        variants: VARIANTS,
        rows,
      },
      null,
      2,
    )}\n`,
  );
