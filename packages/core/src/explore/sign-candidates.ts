/**
 * The candidates of a sign-bit scan: among the allowed chunks at positions `[from, to)`, those whose
 * Hamming distance is at most the `count`-th smallest (all of them when ties straddle the cut), in
 * ascending position order. Two passes over the range: a histogram of the distances, then the
 * positions under the cut. Returns how many positions were written to `scratch.positions` (which
 * grows when needed).
 */
export function signCandidates(
  distances: Uint16Array,
  mask: Uint8Array | null,
  from: number,
  to: number,
  count: number,
  scratch: SignScratch,
): number {
  const histogram = scratch.histogram;
  histogram.fill(0);
  let allowed = 0;
  if (mask === null) {
    for (let i = from; i < to; i++) histogram[distances[i]!]!++;
    allowed = to - from;
  } else {
    for (let i = from; i < to; i++) {
      if (mask[i] === 0) continue;
      histogram[distances[i]!]!++;
      allowed++;
    }
  }
  if (allowed === 0) return 0;
  let cut = 0;
  for (let seen = histogram[0]!; seen < Math.min(count, allowed); ) seen += histogram[++cut]!;
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
    if (length === scratch.positions.length) scratch.grow();
    scratch.positions[length++] = i;
  }
  return length;
}

/** Reusable buffers of `signCandidates`: a histogram of distances, the candidate positions and their scores. */
export class SignScratch {
  readonly histogram: Int32Array;
  positions = new Int32Array(1024);
  scores = new Float32Array(1024);

  /** @param bits The longest code, in bits (the largest distance). */
  constructor(bits: number) {
    this.histogram = new Int32Array(bits + 1);
  }

  grow(): void {
    const positions = new Int32Array(this.positions.length * 2);
    positions.set(this.positions);
    this.positions = positions;
    this.scores = new Float32Array(positions.length);
  }
}
