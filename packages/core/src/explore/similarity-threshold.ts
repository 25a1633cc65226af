/**
 * How much a similarity must exceed a threshold to count as above it. Chunk vectors are stored in
 * float32, so a cosine of exactly 0.6 is computed as 0.6000000238 by one back-end and 0.5999999 by
 * another (float32 sums, pgvector, a float64 re-normalisation). Deciding `similarity > threshold`
 * with this margin makes every back-end agree on thresholds that users write (0.6, 0.8, 0.25…):
 * a similarity within 1e-6 of the threshold counts as equal to it, hence not above
 * (docs/concepts.md §5 and §10).
 */
export const SIMILARITY_TOLERANCE = 1e-6;

/**
 * `similarity > threshold`, decided the same way everywhere exploration compares a chunk with a
 * node's `similarityThreshold`: a similarity within `SIMILARITY_TOLERANCE` of the threshold is not
 * above it.
 *
 * @example
 * isAboveThreshold(Math.fround(0.6), 0.6); // false: 0.6000000238 is 0.6 stored in float32
 * isAboveThreshold(0.61, 0.6); // true
 */
export function isAboveThreshold(similarity: number, threshold: number): boolean {
  return similarity - threshold > SIMILARITY_TOLERANCE;
}
