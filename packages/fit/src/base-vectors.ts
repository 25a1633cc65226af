import type { Embedder } from '@treeagent/core/adapter';
import { embedTexts } from '@treeagent/core/adapter';
import type { FitOptions } from './fit-settings.js';
import { type SparseRow, toSparse } from './linear-algebra.js';

/** Texts embedded per call (one progress step each). */
export const EMBEDDING_BATCH = 500;

/** The base vectors of the training chunks (unit length, kept sparse) and their mean. */
export interface BaseVectors {
  rows: SparseRow[];
  /** Dimensions of the base space. */
  dimensions: number;
  mean: Float64Array;
}

/** Step 1: embeds `texts` with the base embedder in batches (through the cache), sparse, with their mean. */
export async function baseVectors(
  texts: readonly string[],
  base: Embedder,
  options: Pick<FitOptions, 'embeddingCache' | 'signal'>,
  onBatch: () => void,
): Promise<BaseVectors> {
  const rows: SparseRow[] = [];
  let d = 0;
  const batchAt = (start: number) => {
    const batch = embedTexts(
      base,
      texts.slice(start, start + EMBEDDING_BATCH),
      options.embeddingCache,
      options.signal,
    );
    // Its failure is thrown where it is awaited, below.
    batch.catch(() => {});
    return batch;
  };
  let next = texts.length > 0 ? batchAt(0) : null;
  for (let start = 0; start < texts.length; start += EMBEDDING_BATCH) {
    options.signal?.throwIfAborted();
    const current = next!;
    // The next batch starts before this one is awaited: its neural part (USE-lite in its worker
    // threads) queues behind this one's, so the workers keep computing while this thread computes
    // this batch's other parts (the hashed n-grams) and converts it. About 2 s sooner on a
    // 15,000-chunk fit at load.
    next = start + EMBEDDING_BATCH < texts.length ? batchAt(start + EMBEDDING_BATCH) : null;
    const vectors = await current;
    for (const vector of vectors) {
      d = vector.length;
      rows.push(toSparse(vector));
    }
    onBatch();
  }
  const n = rows.length;
  const mean = new Float64Array(d);
  for (const row of rows)
    for (let j = 0; j < row.indices.length; j++) mean[row.indices[j]!]! += row.values[j]!;
  for (let i = 0; i < d; i++) mean[i]! /= n;
  return { rows, dimensions: d, mean };
}
