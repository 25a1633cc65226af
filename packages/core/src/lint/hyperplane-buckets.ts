import type { SparseRows } from './sparse-rows.js';

/**
 * Candidate pairs for the close-pair search of lint: random-hyperplane locality-sensitive hashing.
 * Each table keys a row by `KEY_BITS` signature bits (the signs of its projections on random
 * directions); rows that share a key in some table are candidates. Two unit vectors at angle θ
 * agree on one bit with probability 1 − θ/π, so a close pair shares a key far more often than a
 * random one.
 */

/** Signature bits per table: rows share a bucket when these bits agree. */
export const KEY_BITS = 20;
const KEY_MASK = (1 << KEY_BITS) - 1;
/** Most buckets of the counting sort of each table (on the key's low bits). */
const MAX_SORT_BUCKETS = 1 << 16;
/** Largest chance that a pair exactly at the limit shares no bucket (pairs above it are missed less). */
export const MISS_AT_LIMIT = 1e-4;
/** Above this many tables (a low limit) the search scans every pair instead. */
export const MAX_TABLES = 1000;

/**
 * Tables needed so that a pair at similarity `limit` (angle θ; one bit agrees with probability
 * 1 − θ/π) shares a bucket in at least one table with probability ≥ 1 − `MISS_AT_LIMIT`.
 */
export function tablesFor(limit: number): number {
  const agree = 1 - Math.acos(Math.min(1, Math.max(-1, limit))) / Math.PI;
  const sameBucket = agree ** KEY_BITS;
  return Math.ceil(Math.log(MISS_AT_LIMIT) / Math.log(1 - sameBucket));
}

/** Mulberry32: a small seeded generator, so the hashing (and the result) is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** In-place fast Walsh–Hadamard transform of a power-of-two-long array, two stages per sweep. */
function hadamard(a: Float64Array): void {
  const n = a.length;
  let h = 1;
  for (; h * 4 <= n; h *= 4) {
    const h2 = h * 2;
    const h3 = h * 3;
    for (let start = 0; start < n; start += h * 4) {
      for (let i = start; i < start + h; i++) {
        const a0 = a[i]!;
        const a1 = a[i + h]!;
        const a2 = a[i + h2]!;
        const a3 = a[i + h3]!;
        const s0 = a0 + a1;
        const d0 = a0 - a1;
        const s1 = a2 + a3;
        const d1 = a2 - a3;
        a[i] = s0 + s1;
        a[i + h] = d0 + d1;
        a[i + h2] = s0 - s1;
        a[i + h3] = d0 - d1;
      }
    }
  }
  if (h < n) {
    for (let i = 0; i < h; i++) {
      const x = a[i]!;
      const y = a[i + h]!;
      a[i] = x + y;
      a[i + h] = x - y;
    }
  }
}

/**
 * Random-hyperplane signatures of the given rows, packed 32 bits a word: the signs of each row
 * projected on `bits` orthogonal random directions, rows of a Hadamard matrix after random sign
 * flips (one O(D log D) transform per round of D = the dimensions rounded up to a power of two,
 * instead of `bits` dot products).
 */
function signatures(rows: SparseRows, which: Uint32Array, bits: number, random: () => number): Uint32Array {
  // At least 32, so that each round's bits fill whole words.
  let size = 32;
  while (size < rows.dimensions) size *= 2;
  const rounds = Math.ceil(bits / size);
  const words = Math.ceil(bits / 32);
  const flips = Array.from({ length: rounds }, () => {
    const signs = new Float64Array(size);
    for (let i = 0; i < size; i++) signs[i] = random() < 0.5 ? -1 : 1;
    return signs;
  });
  const work = new Float64Array(size);
  // The high 32 bits of each double (little-endian: the odd words) hold its sign bit.
  const high = new Int32Array(work.buffer);
  const out = new Uint32Array(which.length * words);
  const { starts, indices, values } = rows;
  for (let w = 0; w < which.length; w++) {
    const row = which[w]!;
    const base = w * words;
    for (let round = 0; round < rounds; round++) {
      work.fill(0);
      const signs = flips[round]!;
      for (let k = starts[row]!; k < starts[row + 1]!; k++) {
        const at = indices[k]!;
        work[at] = values[k]! * signs[at]!;
      }
      hadamard(work);
      // Bit set where the projection's sign bit is clear (≥ +0), 32 at a time, without branches.
      const offset = round * size;
      const end = Math.min(size, bits - offset);
      for (let i = 0; i < end; i += 32) {
        let word = 0;
        const last = Math.min(32, end - i);
        for (let b = 0; b < last; b++) word |= (high[(i + b) * 2 + 1]! >>> 31) << b;
        const bit = offset + i;
        const mask = last === 32 ? 0xffffffff : (1 << last) - 1;
        out[base + (bit >>> 5)]! |= ~word & mask;
      }
    }
  }
  return out;
}

/** `KEY_BITS` bits of a packed signature starting at bit `first`. */
function keyAt(signatures: Uint32Array, base: number, first: number): number {
  const word = first >>> 5;
  const shift = first & 31;
  const low = signatures[base + word]! >>> shift;
  const high = shift + KEY_BITS > 32 ? signatures[base + word + 1]! << (32 - shift) : 0;
  return ((low | high) & KEY_MASK) >>> 0;
}

/**
 * Calls `visit(r, s)` for every pair of the rows `which` that share a bucket in one of the tables
 * (table `t` keys each row by signature bits `[t·KEY_BITS, (t+1)·KEY_BITS)`); a pair that shares
 * several buckets is visited once per bucket.
 */
export function forEachCandidate(
  rows: SparseRows,
  which: Uint32Array,
  tables: number,
  visit: (r: number, s: number) => void,
): void {
  const count = which.length;
  const words = Math.ceil((tables * KEY_BITS) / 32);
  const packed = signatures(rows, which, tables * KEY_BITS, seeded(0x7ee));
  const keys = new Uint32Array(count);
  // Counting sort on the key's low bits (about one bucket per row, at most 2^16); pairs are
  // visited only when the whole key agrees.
  let sortBuckets = 16;
  while (sortBuckets < count && sortBuckets < MAX_SORT_BUCKETS) sortBuckets *= 2;
  const starts = new Uint32Array(sortBuckets + 1);
  const fill = new Uint32Array(sortBuckets);
  const order = new Uint32Array(count);
  for (let table = 0; table < tables; table++) {
    const first = table * KEY_BITS;
    starts.fill(0);
    for (let index = 0; index < count; index++) {
      const key = keyAt(packed, index * words, first);
      keys[index] = key;
      starts[(key & (sortBuckets - 1)) + 1]!++;
    }
    for (let bucket = 0; bucket < sortBuckets; bucket++) starts[bucket + 1]! += starts[bucket]!;
    fill.set(starts.subarray(0, sortBuckets));
    for (let index = 0; index < count; index++) order[fill[keys[index]! & (sortBuckets - 1)]!++] = index;
    for (let bucket = 0; bucket < sortBuckets; bucket++) {
      const end = starts[bucket + 1]!;
      for (let x = starts[bucket]!; x < end; x++) {
        const i = order[x]!;
        const key = keys[i]!;
        for (let y = x + 1; y < end; y++) {
          const j = order[y]!;
          if (keys[j] === key) visit(which[i]!, which[j]!);
        }
      }
    }
  }
}
