import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  ConcatEmbedder,
  type Embedder,
  evaluateRouting,
  FileEmbeddingCache,
  HashedEmbedder,
  type LabelledUtterance,
  type Tree,
  TreeAgent,
} from '../../packages/core/src/index.js';
import { UseEmbedder } from '../../packages/embedder-use/src/index.js';
import { FittedEmbedder } from '../../packages/fit/src/index.js';
import { clincTestSet, clincTree, loadClinc150 } from './clinc150.js';

/**
 * Fitting the embedding space to the tree (`@treeagent/fit`): each base embedder unfitted and fitted
 * on the CLINC150 `train` tree, measured on `val` + `oos_val`; then the Italian demo set.
 * `npx tsx bench/routing/fit.ts [--quick] [--hashed-only] [--only <base name>] [--shrinkage 0.2]
 * [--pca 512] [--power 1] [--no-italian] [--fitted-only]
 * [--select-shrinkage 0.2,0.35,0.5] [--no-select]`.
 */
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const hashedOnly = argv.includes('--hashed-only');
const flag = (name: string): string | undefined => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const numeric = (name: string): number | undefined => {
  const value = flag(name);
  return value === undefined ? undefined : Number(value);
};
const only = flag('--only');
const noItalian = argv.includes('--no-italian');
const fittedOnly = argv.includes('--fitted-only');
// Shrinkage of the best offline configuration, chosen on a held-out split of TRAIN (never on val).
const selectAt = flag('--select-shrinkage');
const candidates = (selectAt ?? '0.2,0.35,0.5').split(',').map(Number);
const selectFor = new Set(argv.includes('--no-select') ? [] : ['USE-lite + hashed (1:1)']);
const shrinkage = numeric('--shrinkage');
const pcaDimensions = numeric('--pca');
const powerIterations = numeric('--power');
const fitOptions = {
  ...(shrinkage === undefined ? {} : { shrinkage }),
  ...(pcaDimensions === undefined ? {} : { pcaDimensions }),
  ...(powerIterations === undefined ? {} : { powerIterations }),
};
const partial = quick || hashedOnly || only !== undefined || noItalian || fittedOnly;
const data = loadClinc150();
const domains = quick ? Object.keys(data.domains).slice(0, 2) : undefined;
const tree = clincTree(data, { ...(domains ? { domains } : {}), ...(quick ? { perIntent: 20 } : {}) });
const testSet = clincTestSet(data, domains);
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));

async function measure(name: string, tree: Tree, embedder: Embedder, utterances: LabelledUtterance[]) {
  const agent = new TreeAgent({ tree, embedder, embeddingCache: cache });
  await agent.ready();
  const started = performance.now();
  const report = await evaluateRouting(tree, (text) => agent.route(text), utterances);
  const perUtteranceMs = (performance.now() - started) / utterances.length;
  const row = {
    name,
    embedder: embedder.id,
    accuracy: report.accuracy,
    outOfScopeRecallAsIs: report.outOfScopeRecall,
    operatingThreshold: report.operatingPoint.threshold,
    accuracyAtThreshold: report.operatingPoint.inScopeAccuracy,
    outOfScopeRecall: report.operatingPoint.outOfScopeRecall,
    perUtteranceMs,
  };
  console.log(
    `${name.padEnd(40)} accuracy ${row.accuracy.toFixed(3)}  OOS recall ${row.outOfScopeRecall.toFixed(3)} at t=${row.operatingThreshold.toFixed(3)} (kept & right ${row.accuracyAtThreshold.toFixed(3)})  ${perUtteranceMs.toFixed(2)} ms/utterance`,
  );
  return row;
}

/**
 * The shrinkage that routes best on a held-out split of TRAIN: fitted on the first 80 training
 * utterances of each intent, measured (in-scope accuracy) on the other 20.
 */
async function selectShrinkage(base: Embedder) {
  const inner = { ...data, train: [] as [string, string][], val: [] as [string, string][], oosVal: [] };
  const seen = new Map<string, number>();
  for (const pair of data.train) {
    const count = seen.get(pair[1]) ?? 0;
    seen.set(pair[1], count + 1);
    (count < 80 ? inner.train : inner.val).push(pair);
  }
  const innerTree = clincTree(inner, domains ? { domains } : {});
  const heldOut = clincTestSet(inner, domains);
  const started = performance.now();
  const scores: { shrinkage: number; accuracy: number }[] = [];
  for (const shrinkage of candidates) {
    const embedder = await FittedEmbedder.fit(innerTree, base, {
      ...fitOptions,
      shrinkage,
      embeddingCache: cache,
    });
    const agent = new TreeAgent({ tree: innerTree, embedder, embeddingCache: cache });
    await agent.ready();
    const report = await evaluateRouting(innerTree, (text) => agent.route(text), heldOut);
    scores.push({ shrinkage, accuracy: report.accuracy });
    console.log(
      `  held-out train (${heldOut.length} utterances), shrinkage ${shrinkage}: accuracy ${report.accuracy.toFixed(4)}`,
    );
  }
  const best = scores.reduce((a, b) => (b.accuracy > a.accuracy ? b : a));
  return { shrinkage: best.shrinkage, scores, selectionMs: performance.now() - started };
}

async function fitted(tree: Tree, base: Embedder, extra: { shrinkage?: number } = {}) {
  const started = performance.now();
  let phaseStart = started;
  const phases: Record<string, number> = {};
  const embedder = await FittedEmbedder.fit(tree, base, {
    ...fitOptions,
    ...extra,
    embeddingCache: cache,
    onProgress: ({ phase }) => {
      const now = performance.now();
      phases[phase] = (phases[phase] ?? 0) + (now - phaseStart);
      phaseStart = now;
    },
  });

  const fitMs = performance.now() - started;
  // Time of the projection alone, per message.
  const [vector] = await base.embed(['what is my credit score']);
  const projectStart = performance.now();
  for (let i = 0; i < 200; i++) embedder.project(vector!);
  const projectMs = (performance.now() - projectStart) / 200;
  console.log(
    `  fit ${(fitMs / 1000).toFixed(1)} s [${Object.entries(phases)
      .map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`)
      .join(
        ', ',
      )}] (${embedder.projection.chunks} chunks, ${embedder.projection.classes.length} classes, ${embedder.dimensions} dims), projection ${projectMs.toFixed(3)} ms/message`,
  );
  return { embedder, fitMs, projectMs };
}

const hashed = new HashedEmbedder();
const bases: { name: string; embedder: () => Embedder }[] = [{ name: 'hashed', embedder: () => hashed }];
if (!hashedOnly) {
  const use = new UseEmbedder();
  bases.push(
    { name: 'USE-lite', embedder: () => use },
    { name: 'USE-lite + hashed (1:1)', embedder: () => new ConcatEmbedder([use, hashed]) },
    {
      name: 'USE-lite + hashed (2:1)',
      embedder: () => new ConcatEmbedder([{ embedder: use, weight: 2 }, hashed]),
    },
  );
}

console.log(`CLINC150: ${tree.chunks.length} chunks, ${testSet.length} test utterances\n`);
const rows = [];
for (const { name, embedder } of bases) {
  if (only !== undefined && name !== only) continue;
  const base = embedder();
  const unfitted = fittedOnly ? null : await measure(name, tree, base, testSet);
  const selection = selectFor.has(name) ? await selectShrinkage(base) : null;
  const fit = await fitted(tree, base, selection ? { shrinkage: selection.shrinkage } : {});
  const label = selection ? `${name}, fitted (shrinkage ${selection.shrinkage})` : `${name}, fitted`;
  const row = await measure(label, tree, fit.embedder, testSet);
  rows.push({
    unfitted,
    fitted: {
      ...row,
      fitMs: fit.fitMs,
      projectMs: fit.projectMs,
      settings: fit.embedder.projection.settings,
    },
    ...(selection ? { shrinkageSelection: selection } : {}),
  });
}

// Italian: the bike-shop demo tree and its labelled utterances.
async function italianRows() {
  const { bikeShopTree } = await import('../../examples/src/bike-shop/tree.js');
  const italianTree = bikeShopTree();
  const italian: LabelledUtterance[] = readFileSync(
    fileURLToPath(new URL('../../examples/src/bike-shop/utterances.tsv', import.meta.url)),
    'utf8',
  )
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => line.split('\t') as unknown as LabelledUtterance);
  console.log(`\nItalian bike shop: ${italianTree.chunks.length} chunks, ${italian.length} utterances`);
  const italianUnfitted = await measure('hashed', italianTree, hashed, italian);
  const italianFit = await FittedEmbedder.fit(italianTree, hashed, fitOptions);
  console.log(
    `  ${italianFit.projection.classes.length} classes, ${italianFit.projection.excluded.length} excluded (fewer than 2 chunks)`,
  );
  const italianFitted = await measure('hashed, fitted', italianTree, italianFit, italian);
  return { unfitted: italianUnfitted, fitted: italianFitted };
}
const italianResult = noItalian ? null : await italianRows();

mkdirSync(fileURLToPath(new URL('../.cache', import.meta.url)), { recursive: true });
const out = fileURLToPath(
  new URL(partial ? '../.cache/fit-partial.json' : './fit-results.json', import.meta.url),
);
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), quick, fitOptions, chunks: tree.chunks.length, rows, italian: italianResult }, null, 2)}\n`,
);
console.log(`\nwritten ${out}`);
