/**
 * The best offline configuration: USE-lite + hashed, fitted (shrinkage 0.35, chosen on a split of
 * train), concatenated with the unfitted base at weights 0, 0.1, 0.2 and 0.35 (the weight is
 * compared on val). Run with `npx tsx bench/routing/fit-concat.ts`; it reuses the embedding cache
 * of `bench/routing/run.ts`.
 */
import { fileURLToPath } from 'node:url';
import {
  ConcatEmbedder,
  evaluateRouting,
  FileEmbeddingCache,
  HashedEmbedder,
  TreeAgent,
} from '../../packages/core/src/index.js';
import { UseEmbedder } from '../../packages/embedder-use/src/index.js';
import { FittedEmbedder } from '../../packages/fit/src/index.js';
import { clincTestSet, clincTree, loadClinc150 } from './clinc150.js';

const data = loadClinc150();
const tree = clincTree(data);
const testSet = clincTestSet(data);
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));
const base = new ConcatEmbedder([new UseEmbedder(), new HashedEmbedder()]);
const started = performance.now();
const fitted = await FittedEmbedder.fit(tree, base, { shrinkage: 0.35, embeddingCache: cache });
console.log(`fit: ${((performance.now() - started) / 1000).toFixed(1)} s`);
for (const weight of [0, 0.1, 0.2, 0.35]) {
  const embedder = weight === 0 ? fitted : new ConcatEmbedder([fitted, { embedder: base, weight }]);
  const agent = new TreeAgent({ tree, embedder, embeddingCache: cache });
  await agent.ready();
  const report = await evaluateRouting(tree, (text) => agent.route(text), testSet);
  console.log(
    `fitted ⊕ base×${weight}: in-scope accuracy ${report.accuracy.toFixed(4)}, out-of-scope recall ${report.operatingPoint.outOfScopeRecall.toFixed(3)} at 90% in-scope kept`,
  );
}
