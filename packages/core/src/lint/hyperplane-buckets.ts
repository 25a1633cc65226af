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
/** Signature words kept per row to estimate the angle of a candidate pair before verifying it. */
const SKETCH_WORDS = 4;
/** Largest chance that the sketch check turns away a pair exactly at the limit. */
export const SKETCH_MISS = 1e-9;

/**
 * The most sketch bits a pair at similarity `limit` differs in but with probability below
 * `SKETCH_MISS`: the binomial tail of `SKETCH_WORDS · 32` bits that each differ with probability
 * θ/π.
 */
export function sketchLimit(limit: number): number {
  const n = SKETCH_WORDS * 32;
  const q = Math.acos(Math.min(1, Math.max(-1, limit))) / Math.PI;
  if (q <= 0) return 0;
  if (q >= 1) return n;
  // P(X = k) in logs, summed from the top until the tail exceeds the allowed miss.
  const logChoose = (k: number) => {
    let sum = 0;
    for (let i = 1; i <= k; i++) sum += Math.log((n - k + i) / i);
    return sum;
  };
  let tail = 0;
  for (let k = n; k >= 0; k--) {
    tail += Math.exp(logChoose(k) + k * Math.log(q) + (n - k) * Math.log(1 - q));
    if (tail > SKETCH_MISS) return k;
  }
  return n;
}

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

/** In-place fast Walsh–Hadamard transform of a power-of-two-long array, three stages per sweep. */
function hadamard(a: Float32Array): void {
  const n = a.length;
  let h = 1;
  for (; h * 8 <= n; h *= 8) {
    for (let start = 0; start < n; start += h * 8) {
      for (let i = start; i < start + h; i++) {
        const a0 = a[i]!;
        const a1 = a[i + h]!;
        const a2 = a[i + 2 * h]!;
        const a3 = a[i + 3 * h]!;
        const a4 = a[i + 4 * h]!;
        const a5 = a[i + 5 * h]!;
        const a6 = a[i + 6 * h]!;
        const a7 = a[i + 7 * h]!;
        const b0 = a0 + a1;
        const b1 = a0 - a1;
        const b2 = a2 + a3;
        const b3 = a2 - a3;
        const b4 = a4 + a5;
        const b5 = a4 - a5;
        const b6 = a6 + a7;
        const b7 = a6 - a7;
        const c0 = b0 + b2;
        const c1 = b1 + b3;
        const c2 = b0 - b2;
        const c3 = b1 - b3;
        const c4 = b4 + b6;
        const c5 = b5 + b7;
        const c6 = b4 - b6;
        const c7 = b5 - b7;
        a[i] = c0 + c4;
        a[i + h] = c1 + c5;
        a[i + 2 * h] = c2 + c6;
        a[i + 3 * h] = c3 + c7;
        a[i + 4 * h] = c0 - c4;
        a[i + 5 * h] = c1 - c5;
        a[i + 6 * h] = c2 - c6;
        a[i + 7 * h] = c3 - c7;
      }
    }
  }
  for (; h < n; h *= 2) {
    for (let start = 0; start < n; start += h * 2) {
      for (let i = start; i < start + h; i++) {
        const x = a[i]!;
        const y = a[i + h]!;
        a[i] = x + y;
        a[i + h] = x - y;
      }
    }
  }
}

/**
 * The bucket keys of the given rows, table by table (`keys[t · which.length + w]`): the signs of each
 * row projected on `tables · KEY_BITS` orthogonal random directions — rows of a Hadamard matrix
 * after random sign flips, one O(D log D) transform per round of D = the dimensions rounded up to a
 * power of two instead of a dot product per direction — `KEY_BITS` of them per table. Rows are
 * hashed in blocks whose keys are then written table by table, so each table reads its keys in
 * one sequential pass.
 */
function bucketKeys(
  rows: SparseRows,
  which: Uint32Array,
  tables: number,
  random: () => number,
): { keys: Uint32Array; sketches: Uint32Array } {
  const bits = Math.max(tables * KEY_BITS, SKETCH_WORDS * 32);
  // At least 32, so that each round's bits fill whole words.
  let size = 32;
  while (size < rows.dimensions) size *= 2;
  const rounds = Math.ceil(bits / size);
  const words = Math.ceil(bits / 32);
  const flips = Array.from({ length: rounds }, () => {
    const signs = new Float32Array(size);
    for (let i = 0; i < size; i++) signs[i] = random() < 0.5 ? -1 : 1;
    return signs;
  });
  const work = new Float32Array(size);
  const signBits = new Int32Array(work.buffer);
  const signature = new Uint32Array(words);
  const count = which.length;
  const keys = new Uint32Array(tables * count);
  const sketches = new Uint32Array(SKETCH_WORDS * count);
  const BLOCK = 256;
  const block = new Uint32Array(BLOCK * tables);
  const { starts, indices, values } = rows;
  for (let first = 0; first < count; first += BLOCK) {
    const last = Math.min(count, first + BLOCK);
    for (let w = first; w < last; w++) {
      const row = which[w]!;
      signature.fill(0);
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
          const length = Math.min(32, end - i);
          for (let b = 0; b < length; b++) word |= (signBits[i + b]! >>> 31) << b;
          const mask = length === 32 ? 0xffffffff : (1 << length) - 1;
          signature[(offset + i) >>> 5] = ~word & mask;
        }
      }
      const base = (w - first) * tables;
      for (let table = 0; table < tables; table++) block[base + table] = keyAt(signature, table * KEY_BITS);
      sketches.set(signature.subarray(0, SKETCH_WORDS), w * SKETCH_WORDS);
    }
    for (let table = 0; table < tables; table++) {
      const out = table * count;
      for (let w = first; w < last; w++) keys[out + w] = block[(w - first) * tables + table]!;
    }
  }
  return { keys, sketches };
}

/** `KEY_BITS` bits of a packed signature starting at bit `first`. */
function keyAt(signature: Uint32Array, first: number): number {
  const word = first >>> 5;
  const shift = first & 31;
  const low = signature[word]! >>> shift;
  const high = shift + KEY_BITS > 32 ? signature[word + 1]! << (32 - shift) : 0;
  return ((low | high) & KEY_MASK) >>> 0;
}

/**
 * Calls `visit(r, s)` for the pairs of the rows `which` that share a bucket in one of the
 * `tablesFor(limit)` tables (table `t` keys each row by signature bits `[t·KEY_BITS, (t+1)·KEY_BITS)`)
 * and whose first `SKETCH_WORDS · 32` signature bits differ in at most `sketchLimit(limit)` places (a
 * pair at the limit differs in more with probability below `SKETCH_MISS`: the check only spares
 * verifying pairs that are clearly apart). A pair that shares several buckets is visited once per
 * bucket.
 */
export function forEachCandidate(
  rows: SparseRows,
  which: Uint32Array,
  limit: number,
  visit: (r: number, s: number) => void,
): void {
  const tables = tablesFor(limit);
  const count = which.length;
  const { keys: allKeys, sketches } = bucketKeys(rows, which, tables, seeded(0x7ee));
  const most = sketchLimit(limit);
  /** Whether the sketches of rows `i` and `j` differ in at most `most` bits. */
  const near = (i: number, j: number) => {
    let differ = 0;
    for (let k = 0; k < SKETCH_WORDS; k++) {
      let v = sketches[i * SKETCH_WORDS + k]! ^ sketches[j * SKETCH_WORDS + k]!;
      v -= (v >>> 1) & 0x55555555;
      v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
      differ += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    }
    return differ <= most;
  };
  // Counting sort on the key's low bits (about one bucket per row, at most 2^16); pairs are
  // visited only when the whole key agrees.
  let sortBuckets = 16;
  while (sortBuckets < count && sortBuckets < MAX_SORT_BUCKETS) sortBuckets *= 2;
  const starts = new Uint32Array(sortBuckets + 1);
  const fill = new Uint32Array(sortBuckets);
  const order = new Uint32Array(count);
  for (let table = 0; table < tables; table++) {
    const keys = allKeys.subarray(table * count, (table + 1) * count);
    starts.fill(0);
    for (let index = 0; index < count; index++) starts[(keys[index]! & (sortBuckets - 1)) + 1]!++;
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
          if (keys[j] === key && near(i, j)) visit(which[i]!, which[j]!);
        }
      }
    }
  }
}
