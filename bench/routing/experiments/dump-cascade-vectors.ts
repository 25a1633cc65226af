import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { embedTexts } from '../../../packages/core/src/embedding/embed-texts.js';
import { FileEmbeddingCache, HashedEmbedder } from '../../../packages/core/src/index.js';
import { UseEmbedder, UseStudentEmbedder } from '../../../packages/embedder-use/src/index.js';
import { loadClinc150 } from '../clinc150.js';

/**
 * Writes, for the cascade experiment (`cascade.py`), the three bases' vectors of every CLINC150 text
 * (`train`, `val`, `oos_train`, `oos_val`) to `bench/.cache/cascade-vectors/` (not committed):
 *
 * - `<set>.hashed.{indptr,indices}.i32` + `<set>.hashed.values.f32`: the agent's `HashedEmbedder`
 *   (4096 buckets), sparse rows (CSR), unit length;
 * - `<set>.student.f32`: `UseStudentEmbedder`, rows × 512 float32, unit length;
 * - `<set>.use.f32`: `UseEmbedder` (USE-lite), rows × 512 float32, unit length, through the
 *   benchmarks' `FileEmbeddingCache` (`bench/.cache/embeddings`) so a second run is free;
 * - `meta.json`: the sets' texts and labels and CLINC150's domains → intents.
 *
 * npx tsx bench/routing/experiments/dump-cascade-vectors.ts
 */
const outDir = fileURLToPath(new URL('../../.cache/cascade-vectors/', import.meta.url));
mkdirSync(outDir, { recursive: true });
const data = loadClinc150();
const sets: Record<string, [string, string][]> = {
  train: data.train,
  val: data.val,
  oos_train: data.oosTrain,
  oos_val: data.oosVal,
};
const hashed = new HashedEmbedder();
const student = new UseStudentEmbedder();
const use = new UseEmbedder({ batchSize: 64 });
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../../.cache/embeddings', import.meta.url)));

function writeDense(file: string, vectors: Float32Array[]) {
  const dims = vectors[0]!.length;
  const out = new Float32Array(vectors.length * dims);
  for (const [row, vector] of vectors.entries()) out.set(vector, row * dims);
  writeFileSync(`${outDir}${file}`, Buffer.from(out.buffer));
  return dims;
}

const meta: Record<string, unknown> = { domains: data.domains };
const timings: Record<string, number> = {};
for (const [name, items] of Object.entries(sets)) {
  const texts = items.map(([text]) => text);
  let started = performance.now();
  const indptr = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (const text of texts) {
    const vector = hashed.embedSparse(text);
    indices.push(...vector.indices);
    values.push(...vector.values);
    indptr.push(indices.length);
  }
  writeFileSync(`${outDir}${name}.hashed.indptr.i32`, Buffer.from(Int32Array.from(indptr).buffer));
  writeFileSync(`${outDir}${name}.hashed.indices.i32`, Buffer.from(Int32Array.from(indices).buffer));
  writeFileSync(`${outDir}${name}.hashed.values.f32`, Buffer.from(Float32Array.from(values).buffer));
  timings[`${name}.hashed`] = performance.now() - started;
  started = performance.now();
  const studentDims = writeDense(`${name}.student.f32`, await embedTexts(student, texts));
  timings[`${name}.student`] = performance.now() - started;
  started = performance.now();
  const useDims = writeDense(`${name}.use.f32`, await embedTexts(use, texts, cache));
  timings[`${name}.use`] = performance.now() - started;
  meta[name] = {
    rows: texts.length,
    texts,
    labels: items.map(([, label]) => label),
    studentDims,
    useDims,
    hashedDims: hashed.dimensions,
  };
  console.log(
    name,
    texts.length,
    Object.fromEntries(
      Object.entries(timings)
        .filter(([k]) => k.startsWith(name))
        .map(([k, v]) => [k, Math.round(v)]),
    ),
  );
}
meta.timingsMs = timings;
writeFileSync(`${outDir}meta.json`, JSON.stringify(meta));
await use.close?.();
console.log('written to', outDir);
