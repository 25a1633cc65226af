/** The sign-bit pass of one direction: its Hamming distance to every chunk, and how many chunks have each distance. */
export interface SignPass {
  distances: Uint16Array;
  /** `histogram[d]`: how many chunks (of the whole index) are at distance `d`. */
  histogram: Int32Array;
}

/**
 * The candidates of a sign-bit scan: among the allowed chunks at positions `[from, to)`, those whose
 * Hamming distance is at most the `count`-th smallest (all of them when ties straddle the cut), in
 * ascending position order, written to `scratch.positions` (which grows when needed); returns how
 * many. The distances' histogram over the range gives the cut — from the whole index's histogram
 * minus the chunks outside the range when the range is most of the index — then one pass collects
 * the positions under it (`within`, a SIMD kernel that skips eight distances at a time, when there
 * is no mask).
 */
export function signCandidates(
  pass: SignPass,
  mask: Uint8Array | null,
  from: number,
  to: number,
  count: number,
  scratch: SignScratch,
  within?: (cut: number, positions: Int32Array) => number,
): number {
  const { distances } = pass;
  const histogram = scratch.histogram;
  let allowed = 0;
  if (mask === null && 2 * (to - from) > distances.length) {
    histogram.set(pass.histogram);
    for (let i = 0; i < from; i++) histogram[distances[i]!]!--;
    for (let i = to; i < distances.length; i++) histogram[distances[i]!]!--;
    allowed = to - from;
  } else if (mask === null) {
    histogram.fill(0);
    for (let i = from; i < to; i++) histogram[distances[i]!]!++;
    allowed = to - from;
  } else {
    histogram.fill(0);
    for (let i = from; i < to; i++) {
      if (mask[i] === 0) continue;
      histogram[distances[i]!]!++;
      allowed++;
    }
  }
  if (allowed <= 0) return 0;
  let cut = 0;
  let seen = histogram[0]!;
  while (seen < Math.min(count, allowed)) seen += histogram[++cut]!;
  if (mask === null && within) {
    scratch.ensure(seen);
    return within(cut, scratch.positions);
  }
  return positionsWithin(distances, mask, from, to, cut, scratch);
}

/**
 * The allowed positions in `[from, to)` whose distance is at most `cut`, ascending, into
 * `scratch.positions`; returns how many.
 */
export function positionsWithin(
  distances: Uint16Array,
  mask: Uint8Array | null,
  from: number,
  to: number,
  cut: number,
  scratch: SignScratch,
): number {
  let length = 0;
  for (let i = from; i < to; i++) {
    if (distances[i]! > cut || (mask !== null && mask[i] === 0)) continue;
    if (length === scratch.positions.length) scratch.ensure(length + 1);
    scratch.positions[length++] = i;
  }
  return length;
}

/** Reusable buffers of `signCandidates`: a histogram of distances, the candidate positions, their scores and bounds. */
export class SignScratch {
  readonly histogram: Int32Array;
  positions = new Int32Array(1024);
  scores = new Float32Array(1024);
  /** Int8 scores of the candidates and their error bounds (`ChunkIndex.bestAmong` with rows in a file). */
  approximate = new Float64Array(1024);
  bounds = new Float64Array(1024);
  /** The positions an int8 bound keeps (`keepNear`). */
  kept = new Int32Array(1024);

  /** @param bits The longest code, in bits (the largest distance). */
  constructor(bits: number) {
    this.histogram = new Int32Array(bits + 1);
  }

  /** Room for at least `length` positions and scores (what is written is kept). */
  ensure(length: number): void {
    if (length <= this.positions.length) return;
    let size = this.positions.length;
    while (size < length) size *= 2;
    const positions = new Int32Array(size);
    positions.set(this.positions);
    this.positions = positions;
    this.scores = new Float32Array(size);
    this.approximate = new Float64Array(size);
    this.bounds = new Float64Array(size);
    this.kept = new Int32Array(size);
  }
}
