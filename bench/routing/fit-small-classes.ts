/**
 * Nodes with too few chunks to fit: a third of CLINC150's intents keep a single training utterance
 * (below `minChunksPerClass`, so the fit leaves them out), the others keep theirs. Hashed base
 * embedder (the dependency-free default), fitted on `train` only. The weight of the base space in
 * the fitted vector (`baseWeight`) is chosen on a split of train (20 held-out utterances per intent,
 * never val), then reported on val for the small and the full intents separately.
 * `npx tsx bench/routing/fit-small-classes.ts [--weights 0,0.1,0.2,0.35,0.5,1]`
 */
import { fileURLToPath } from 'node:url';
import type { Embedder } from '../../packages/core/src/adapter/index.js';
import { evaluateRouting, type LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { FileEmbeddingCache, HashedEmbedder, type Tree, TreeAgent } from '../../packages/core/src/index.js';
import { DEFAULT_BASE_WEIGHT, FittedEmbedder } from '../../packages/fit/src/index.js';
import { clincTree, loadClinc150 } from './clinc150.js';

const argv = process.argv.slice(2);
const weightsFlag = argv.indexOf('--weights');
const weights = (weightsFlag >= 0 ? argv[weightsFlag + 1]! : '0,0.1,0.2,0.35,0.5,1').split(',').map(Number);
const data = loadClinc150();
const intents = Object.values(data.domains).flat();
const small = new Set(intents.filter((_, index) => index % 3 === 0));
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));

/** Chunks: one utterance for a small intent, `keep` for the others; the rest of train is held out. */
function split(keep: number) {
  const chunks: [string, string][] = [];
  const heldOut: LabelledUtterance[] = [];
  for (const intent of intents) {
    const utterances = data.train.filter(([, label]) => label === intent);
    const kept = small.has(intent) ? 1 : keep;
    chunks.push(...utterances.slice(0, kept));
    heldOut.push(...utterances.slice(80).map(([text]) => [text, intent] as const));
  }
  return { tree: clincTree({ ...data, train: chunks }), heldOut };
}

async function accuracy(tree: Tree, embedder: Embedder, utterances: LabelledUtterance[]) {
  const agent = new TreeAgent({ tree, embedder, embeddingCache: cache });
  await agent.ready();
  const report = await evaluateRouting(tree, agent, utterances);
  return report.accuracy;
}

async function measure(tree: Tree, embedder: Embedder, utterances: LabelledUtterance[]) {
  const smallSet = utterances.filter(([, label]) => small.has(label));
  const fullSet = utterances.filter(([, label]) => !small.has(label));
  return {
    small: await accuracy(tree, embedder, smallSet),
    full: await accuracy(tree, embedder, fullSet),
  };
}

const format = (value: number) => value.toFixed(3);
const base = new HashedEmbedder();

// 1. Selection on a split of train: chunks from the first 80 utterances, the last 20 held out.
const selection = split(80);
const selectionFit = await FittedEmbedder.fit(selection.tree, base, { embeddingCache: cache });
console.log(
  `selection fit: ${selectionFit.projection.classes.length} classes, ${selectionFit.projection.excluded.length} left out`,
);
let best = { weight: 0, score: -1 };
for (const weight of weights) {
  const result = await measure(selection.tree, selectionFit.withBaseWeight(weight), selection.heldOut);
  // Mean of the two groups: a small node counts as much as a full one.
  const score = (result.small + result.full) / 2;
  console.log(
    `  train split, baseWeight ${weight}: small ${format(result.small)}, full ${format(result.full)}`,
  );
  if (score > best.score) best = { weight, score };
}
console.log(`chosen on the train split: baseWeight ${best.weight}`);

// 2. Report on val: chunks from all of train (small intents still one utterance).
const report = split(100);
const validation: LabelledUtterance[] = data.val.map(([text, label]) => [text, label] as const);
const fitted = await FittedEmbedder.fit(report.tree, base, { embeddingCache: cache });
const unfitted = await measure(report.tree, base, validation);
console.log(`val, unfitted: small ${format(unfitted.small)}, full ${format(unfitted.full)}`);
for (const weight of [...new Set([0, DEFAULT_BASE_WEIGHT, best.weight])]) {
  const result = await measure(report.tree, fitted.withBaseWeight(weight), validation);
  console.log(
    `val, fitted, baseWeight ${weight}: small ${format(result.small)}, full ${format(result.full)}`,
  );
}
