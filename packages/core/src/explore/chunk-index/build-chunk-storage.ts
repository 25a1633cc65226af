import { embedTexts } from '../../embedding/embed-texts.js';
import type { Embedder } from '../../embedding/embedder.js';
import type { EmbeddingCache } from '../../embedding/embedding-cache.js';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import type { Tree } from '../../tree/tree.js';
import { ChunkStorage } from './chunk-storage.js';
import { MemoryRows } from './memory-rows.js';

/**
 * A dimension is dense when at least half the chunks (sampled) have a non-zero coordinate there.
 * Dense dimensions are stored row by row in WebAssembly memory and scored by a SIMD kernel
 * (`dot-kernel.ts`): one sequential read per direction, at about the speed of memory.
 */
const DENSE_FRACTION = 0.5;
/** Chunks sampled (evenly spaced) to decide which dimensions are dense. */
const DENSE_SAMPLES = 256;
/** Chunks embedded and stored at a time while building. */
const BUILD_BATCH = 4096;

/**
 * Embeds the tree's chunks (through the cache) and stores them, rows in memory, each dimension in
 * the dense block or the sparse one by how many chunks use it. `layout` forces every dimension into
 * one block (tests, benchmarks). The layout comes from up to 256 evenly spaced chunks, embedded
 * first; then the rest, a batch at a time, stored as they come: no array of a vector per chunk is
 * ever held.
 */
export async function buildChunkStorage(
  tree: Tree,
  embedder: Embedder,
  cache?: EmbeddingCache,
  layout?: 'columns' | 'rows',
): Promise<ChunkStorage> {
  const texts = tree.chunks.map((chunk) => chunk.text);
  const count = texts.length;
  const step = Math.max(1, Math.floor(count / DENSE_SAMPLES));
  const samplePositions: number[] = [];
  for (let row = 0; row < count; row += step) samplePositions.push(row);
  const sample = count
    ? await embedTexts(
        embedder,
        samplePositions.map((row) => texts[row]!),
        cache,
      )
    : [];
  const dimensions = sample[0]?.length ?? embedder.dimensions ?? 0;
  const denseFlags =
    layout === 'rows'
      ? new Array<boolean>(dimensions).fill(true)
      : layout === 'columns'
        ? new Array<boolean>(dimensions).fill(false)
        : denseDimensionFlags(sample, dimensions);
  const dense: number[] = [];
  const sparse: number[] = [];
  denseFlags.forEach((isDense, j) => {
    (isDense ? dense : sparse).push(j);
  });
  const storage = new ChunkStorage({
    count,
    dimensions,
    denseDimensions: Int32Array.from(dense),
    sparseDimensions: Int32Array.from(sparse),
    rows: new MemoryRows(count, dense.length),
  });
  sample.forEach((vector, k) => {
    storage.fill(samplePositions[k]!, vector);
  });
  for (let start = 0; start < count; start += BUILD_BATCH) {
    const rows: number[] = [];
    for (let row = start; row < Math.min(count, start + BUILD_BATCH); row++)
      if (row % step !== 0) rows.push(row);
    if (!rows.length) continue;
    const vectors = await embedTexts(
      embedder,
      rows.map((row) => texts[row]!),
      cache,
    );
    vectors.forEach((vector, k) => {
      if (vector.length !== dimensions)
        throw new TreeAgentError(
          'EMBEDDER',
          `Embedder "${embedder.id}" returned vectors of different lengths (${dimensions} and ${vector.length}).`,
        );
      storage.fill(rows[k]!, vector);
    });
  }
  return storage;
}

/** For each dimension, whether at least half the sampled vectors are non-zero there. */
function denseDimensionFlags(sample: ArrayLike<number>[], dimensions: number): boolean[] {
  const nonZero = new Int32Array(dimensions);
  if (!sample.length) return new Array<boolean>(dimensions).fill(false);
  for (const vector of sample) for (let j = 0; j < dimensions; j++) if (vector[j] !== 0) nonZero[j]!++;
  return Array.from(nonZero, (count) => count >= DENSE_FRACTION * sample.length);
}
