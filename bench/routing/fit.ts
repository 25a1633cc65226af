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
 * `npx tsx bench/routing/fit.ts [--quick] [--hashed-only] [--shrinkage 0.2]`.
 */
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const hashedOnly = argv.includes('--hashed-only');
const shrinkageAt = argv.indexOf('--shrinkage');
const shrinkage = shrinkageAt >= 0 ? Number(argv[shrinkageAt + 1]) : undefined;
const fitOptions = shrinkage === undefined ? {} : { shrinkage };
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

async function fitted(tree: Tree, base: Embedder) {
  const started = performance.now();
  const embedder = await FittedEmbedder.fit(tree, base, { ...fitOptions, embeddingCache: cache });
  const fitMs = performance.now() - started;
  // Time of the projection alone, per message.
  const [vector] = await base.embed(['what is my credit score']);
  const projectStart = performance.now();
  for (let i = 0; i < 200; i++) embedder.project(vector!);
  const projectMs = (performance.now() - projectStart) / 200;
  console.log(
    `  fit ${(fitMs / 1000).toFixed(1)} s (${embedder.projection.chunks} chunks, ${embedder.projection.classes.length} classes, ${embedder.dimensions} dims), projection ${projectMs.toFixed(3)} ms/message`,
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
  const base = embedder();
  const unfitted = await measure(name, tree, base, testSet);
  const fit = await fitted(tree, base);
  const row = await measure(`${name}, fitted`, tree, fit.embedder, testSet);
  rows.push({ unfitted, fitted: { ...row, fitMs: fit.fitMs, projectMs: fit.projectMs } });
}

// Italian: the bike-shop demo tree and its labelled utterances.
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

mkdirSync(fileURLToPath(new URL('../.cache', import.meta.url)), { recursive: true });
const out = fileURLToPath(
  new URL(quick || hashedOnly ? '../.cache/fit-partial.json' : './fit-results.json', import.meta.url),
);
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), quick, fitOptions, chunks: tree.chunks.length, rows, italian: { unfitted: italianUnfitted, fitted: italianFitted } }, null, 2)}\n`,
);
console.log(`\nwritten ${out}`);
