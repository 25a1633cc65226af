import { fileURLToPath } from 'node:url';
import { embedTexts } from '../../packages/core/src/embedding/embed-texts.js';
import { FileEmbeddingCache } from '../../packages/core/src/index.js';
import { UseEmbedder } from '../../packages/embedder-use/src/index.js';
import { loadClinc150 } from './clinc150.js';

/**
 * Fills the benchmarks' embedding cache (`bench/.cache/embeddings`) with the USE-lite vectors of every
 * CLINC150 text (`train`, `val`, `oos_train`, `oos_val`), under the `UseEmbedder`'s id as the agent
 * stores them, so the cross-validations of `out-of-the-box.ts --select` do not embed 18,000 texts
 * per run. Cold-load figures are never measured on this cache.
 *
 * npx tsx bench/routing/embed-use-cache.ts
 */
const data = loadClinc150();
const texts = [
  ...new Set([...data.train, ...data.val, ...data.oosTrain, ...data.oosVal].map(([text]) => text)),
];
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));
const use = new UseEmbedder({ batchSize: 64 });
const known = await cache.getMany(use.id, texts);
const missing = texts.filter((_, i) => !known[i]).length;
const started = performance.now();
// Through the agent's own path: unit-length vectors stored under the embedder's id.
await embedTexts(use, texts, cache);
console.log(
  `${missing} of ${texts.length} texts embedded with ${use.id} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);
