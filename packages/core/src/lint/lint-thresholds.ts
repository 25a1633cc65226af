import type { Embedder } from '../embedding/embedder.js';
import { InMemoryEmbeddingCache } from '../embedding/embedding-cache.js';
import {
  type CalibrationOptions,
  calibrateThresholds,
  type ThresholdCalibration,
  withCalibratedThresholds,
} from '../explore/calibrate-thresholds.js';
import { addPostingProducts, postingsOfRows } from '../explore/chunk-index/postings.js';
import { ChunkIndex } from '../explore/chunk-index.js';
import { routingThresholds } from '../explore/routing-thresholds.js';
import type { ThresholdSource } from '../protocol/events.js';
import type { Tree } from '../tree/tree.js';
import type { SparseRows } from './sparse-rows.js';

/** A routing node's threshold as an agent loading the tree runs it (the shape of `RoutingThreshold`). */
export interface LintThreshold {
  nodeId: number;
  name: string | undefined;
  threshold: number;
  source: ThresholdSource;
  /** For a calibrated threshold: what it was computed from. */
  calibration?: ThresholdCalibration;
}

/**
 * The thresholds `TreeAgent.thresholds()` gives for this tree and embedder (the same calibration,
 * to the last bit), from the chunk vectors lint already has instead of loading an agent.
 *
 * An agent keeps the chunks in a `ChunkIndex`; when every dimension would be in its sparse block
 * (hashed vectors), the calibration's similarities are computed here from an inverted index of the
 * rows, adding the products in the order the index's column pass adds them, so the sums are the
 * same floats — at the cost of the entries that are not zero instead of a pass over every column
 * (50,000 hashed chunks: about a second instead of tens). Otherwise (dense dimensions) the
 * `ChunkIndex` itself is built from the vectors and asked.
 */
export async function lintThresholds(
  tree: Tree,
  rows: SparseRows,
  embedder: Embedder,
  calibration: CalibrationOptions = {},
): Promise<LintThreshold[]> {
  const similaritiesOf = hasDenseDimension(rows)
    ? await indexSimilarities(tree, rows, embedder)
    : invertedSimilarities(rows);
  const calibrations = calibrateThresholds(tree, similaritiesOf, calibration);
  return routingThresholds(withCalibratedThresholds(tree, calibrations), calibrations);
}

export type SimilaritiesOf = (position: number, from: number, to: number) => Float32Array;

/** `ChunkIndex`'s rule: a dimension is dense when at least half the chunks (up to 256 sampled) use it. */
export function hasDenseDimension(rows: SparseRows): boolean {
  if (!rows.count) return false;
  const nonZero = new Int32Array(rows.dimensions);
  const step = Math.max(1, Math.floor(rows.count / 256));
  let sampled = 0;
  for (let row = 0; row < rows.count; row += step) {
    for (let k = rows.starts[row]!; k < rows.starts[row + 1]!; k++) nonZero[rows.indices[k]!]!++;
    sampled++;
  }
  return nonZero.some((count) => count >= 0.5 * sampled);
}

/** The agent's own index, built from these vectors (a cache holding them: the embedder is not asked again). */
async function indexSimilarities(tree: Tree, rows: SparseRows, embedder: Embedder): Promise<SimilaritiesOf> {
  const dense = Array.from({ length: rows.count }, (_, row) => {
    const vector = new Float32Array(rows.dimensions);
    for (let k = rows.starts[row]!; k < rows.starts[row + 1]!; k++)
      vector[rows.indices[k]!] = rows.values[k]!;
    return vector;
  });
  const cache = new InMemoryEmbeddingCache();
  await cache.setMany(
    embedder.id,
    tree.chunks.map((chunk, position) => ({ text: chunk.text, vector: dense[position]! })),
  );
  const index = await ChunkIndex.build(tree, embedder, cache);
  return (position, from, to) => index.similarities(dense[position]!, from, to);
}

/**
 * Similarities through an inverted index (for each dimension, the rows not zero there), equal to
 * `ChunkIndex.similarities` in its all-sparse layout: both add the products through
 * `addPostingProducts`, so only the entries are visited. The returned array is reused by the next
 * call.
 */
export function invertedSimilarities(rows: SparseRows): SimilaritiesOf {
  const { count, dimensions, starts, indices, values } = rows;
  const postings = postingsOfRows(starts, indices, values, count, dimensions);
  const out = new Float32Array(count);
  return (position, from, to) => {
    out.fill(0, from, to);
    const first = starts[position]!;
    const last = starts[position + 1]!;
    const columns = Array.from(indices.subarray(first, last));
    const weights = Array.from(values.subarray(first, last));
    addPostingProducts(postings, columns, weights, out, from, to);
    return out;
  };
}
