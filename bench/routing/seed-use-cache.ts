import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FileEmbeddingCache } from '../../packages/core/src/index.js';
import { UseEmbedder } from '../../packages/embedder-use/src/index.js';

/**
 * Seeds the benchmarks' embedding cache (`bench/.cache/embeddings`) with USE-lite vectors of CLINC150
 * computed earlier by `bench/explore-agreement.ts` (`bench/.cache/clinc-use.{json,f32}`, or the files
 * named by `--from <prefix>`), so experiments on `train` do not embed 18,000 texts again. Vectors
 * are stored under the `UseEmbedder`'s id, as the agent would store them. Cold-load figures are never
 * measured on a seeded cache.
 *
 * npx tsx bench/routing/seed-use-cache.ts [--from /path/to/bench/.cache/clinc-use]
 */
const index = process.argv.indexOf('--from');
const prefix =
  index < 0 ? fileURLToPath(new URL('../.cache/clinc-use', import.meta.url)) : process.argv[index + 1]!;
if (!existsSync(`${prefix}.json`))
  throw new Error(`No ${prefix}.json: run bench/explore-agreement.ts first.`);
const names: string[] = JSON.parse(readFileSync(`${prefix}.json`, 'utf8'));
const buffer = readFileSync(`${prefix}.f32`);
const all = new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4);
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));
const id = new UseEmbedder().id;
const entries = names.map((text, i) => {
  const vector = all.slice(i * 512, (i + 1) * 512);
  let norm = 0;
  for (const value of vector) norm += value * value;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return { text, vector: vector.map((value) => value * scale) };
});
await cache.setMany(id, entries);
console.log(`seeded ${entries.length} USE-lite vectors under ${id}`);
