import type { Embedder } from '../embedding/embedder.js';
import { InMemoryEmbeddingCache } from '../embedding/embedding-cache.js';
import {
  type CalibrationOptions,
  calibrateThresholds,
  type ThresholdCalibration,
  withCalibratedThresholds,
} from '../explore/calibrate-thresholds.js';
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
 * `ChunkIndex.similarities` in its all-sparse layout: the direction's dimensions ascending, in
 * groups of four whose products are added in double precision and then to the row's float, then
 * the rest one by one. Products with a zero add nothing, so only the entries are visited. The
 * returned array is reused by the next call.
 */
export function invertedSimilarities(rows: SparseRows): SimilaritiesOf {
  const { count, dimensions, starts, indices, values } = rows;
  const postingStart = new Uint32Array(dimensions + 1);
  for (let k = 0; k < indices.length; k++) postingStart[indices[k]! + 1]!++;
  for (let j = 0; j < dimensions; j++) postingStart[j + 1]! += postingStart[j]!;
  const fill = postingStart.slice(0, dimensions);
  const postingRow = new Uint32Array(indices.length);
  const postingValue = new Float32Array(indices.length);
  for (let row = 0; row < count; row++) {
    for (let k = starts[row]!; k < starts[row + 1]!; k++) {
      const at = fill[indices[k]!]!++;
      postingRow[at] = row;
      postingValue[at] = values[k]!;
    }
  }
  const out = new Float32Array(count);
  const partial = new Float64Array(count);
  // A row may be listed again in a group (see below), at most once per product: four per row.
  const touched = new Uint32Array(4 * count);
  /** First posting of dimension `j` at a row ≥ `row`. */
  const firstAt = (j: number, row: number) => {
    let low = postingStart[j]!;
    let high = postingStart[j + 1]!;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (postingRow[middle]! < row) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return (position, from, to) => {
    out.fill(0, from, to);
    const first = starts[position]!;
    const entries = starts[position + 1]! - first;
    const grouped = entries - (entries % 4);
    let size = 0;
    for (let k = 0; k < entries; k++) {
      const j = indices[first + k]!;
      const weight = values[first + k]!;
      const start = from === 0 ? postingStart[j]! : firstAt(j, from);
      const end = to === count ? postingStart[j + 1]! : firstAt(j, to);
      for (let p = start; p < end; p++) {
        const row = postingRow[p]!;
        // A row's first product in the group (a sum that came back to exactly zero is listed
        // again: its later flush adds zero).
        if (partial[row] === 0) touched[size++] = row;
        partial[row]! += weight * postingValue[p]!;
      }
      // A group ends after every fourth dimension, then after each of the rest.
      if (k >= grouped || k % 4 === 3) {
        for (let t = 0; t < size; t++) {
          const row = touched[t]!;
          out[row]! += partial[row]!;
          partial[row] = 0;
        }
        size = 0;
      }
    }
    return out;
  };
}
