import { approximateRows, candidatesNear } from '../quantized-rows.js';
import type { ChunkStorage } from './chunk-storage.js';
import { SignPass } from './sign-pass.js';

/** Scratch arrays of `ChunkScan.bestAmong`. */
export interface BestAmongScratch {
  scores: Float32Array;
  approximate: Float64Array;
  bounds: Float64Array;
}

/**
 * How a `ChunkIndex` scores a direction against its chunks: the dense block through its row source
 * (`RowSource`, wherever the rows live), the sparse block column by column, and, when the index
 * keeps sign bits, the sign-bit pass (`SignPass`, with its worker thread). Messages name
 * `ChunkIndex`, the class users see.
 */
export class ChunkScan {
  readonly #storage: ChunkStorage;
  /** For each dimension, its column among the sparse ones, or -1. */
  readonly #sparseSlot: Int32Array;
  /** The direction's dense coordinates, gathered (mixed layout). */
  readonly #denseDirection: Float32Array;
  readonly #signs: SignPass | null;
  #postings: Postings | null = null;

  /** `signBits`: keep one sign bit per dense dimension of each chunk (dense rows only; codes to fill with `signCodes`). */
  constructor(storage: ChunkStorage, options: { signBits: boolean }) {
    this.#storage = storage;
    this.#sparseSlot = new Int32Array(storage.dimensions).fill(-1);
    storage.sparseDimensions.forEach((j, slot) => {
      this.#sparseSlot[j] = slot;
    });
    this.#denseDirection = new Float32Array(storage.denseDimensions.length);
    this.#signs =
      options.signBits && storage.layout === 'rows' && storage.rows.simd
        ? SignPass.create(storage.count, storage.stride)
        : null;
  }

  /** Whether this scan ranks chunks by sign bits (see `ExploreScan`). */
  get signBits(): boolean {
    return this.#signs !== null;
  }

  /** The sign codes (`chunks × codeBytes`), when the scan keeps sign bits. */
  get signCodes(): Uint8Array | null {
    return this.#signs?.codes ?? null;
  }

  /** Bits per chunk code, the largest possible Hamming distance; 0 without sign bits. */
  get codeBits(): number {
    return this.#signs?.codeBits ?? 0;
  }

  /** Sets every chunk's sign bits from its float32 row (rows in memory). */
  packSigns(): void {
    const signs = this.#signs;
    const memory = this.#storage.rows.memory;
    if (!signs || !memory) return;
    const stride = this.#storage.stride;
    for (let row = 0; row < this.#storage.count; row++) signs.pack(row, memory, row * stride);
  }

  /** See `ChunkIndex.similarities`. */
  similarities(direction: Float32Array, from: number, to: number, into?: Float32Array): Float32Array {
    const storage = this.#storage;
    const count = storage.count;
    if (into && into.length !== count)
      throw new Error(`ChunkIndex.similarities: into has ${into.length} slots, the index ${count} chunks`);
    const out = into ? into.fill(0) : new Float32Array(count);
    if (direction.length !== storage.dimensions) return out;
    const dense = storage.denseDimensions;
    if (dense.length) {
      // All dense: the direction as is; mixed: its dense coordinates gathered.
      let denseDirection = direction;
      if (storage.layout === 'mixed') {
        denseDirection = this.#denseDirection;
        for (let k = 0; k < dense.length; k++) denseDirection[k] = direction[dense[k]!]!;
      }
      storage.rows.dotsRange(denseDirection, from, to, out.subarray(from, to));
    }
    if (storage.sparseDimensions.length) {
      const slots: number[] = [];
      const weights: number[] = [];
      for (let j = 0; j < storage.dimensions; j++) {
        const slot = this.#sparseSlot[j]!;
        if (slot >= 0 && direction[j] !== 0) {
          slots.push(slot);
          weights.push(direction[j]!);
        }
      }
      postingSimilarities(this.#postingsOf(storage), slots, weights, out, from, to);
    }
    return out;
  }

  /** The sparse block's postings, made from its columns on first use and again after they change. */
  #postingsOf(storage: ChunkStorage): Postings {
    if (this.#postings?.version !== storage.version) this.#postings = postingsOf(storage);
    return this.#postings;
  }

  /** See `ChunkIndex.similaritiesRange`. */
  similaritiesRange(direction: Float32Array, from: number, to: number, out: Float32Array): void {
    if (this.#rowsOnly(direction)) this.#storage.rows.dotsRange(direction, from, to, out);
    else out.set(this.similarities(direction, from, to).subarray(from, to));
  }

  /** See `ChunkIndex.similaritiesAt`. */
  similaritiesAt(direction: Float32Array, positions: Int32Array, length: number, out: Float32Array): void {
    if (this.#rowsOnly(direction)) {
      this.#storage.rows.dotsAt(direction, positions, length, out);
      return;
    }
    for (let k = 0; k < length; k++) {
      const position = positions[k]!;
      out[k] = this.similarities(direction, position, position + 1)[position]!;
    }
  }

  /** See `ChunkIndex.bestAmong`. */
  bestAmong(
    direction: Float32Array,
    positions: Int32Array,
    length: number,
    scratch: BestAmongScratch,
  ): { position: number; similarity: number } | null {
    if (length === 0) return null;
    let kept = length;
    const quantized = this.#storage.rows.quantized;
    if (quantized && direction.length === this.#storage.dimensions)
      kept = candidatesNear(
        quantized,
        direction,
        this.#storage.dimensions,
        positions,
        length,
        scratch.approximate,
        scratch.bounds,
      );
    this.similaritiesAt(direction, positions, kept, scratch.scores);
    let best = 0;
    for (let k = 1; k < kept; k++) if (scratch.scores[k]! > scratch.scores[best]!) best = k;
    return { position: positions[best]!, similarity: scratch.scores[best]! };
  }

  /** See `ChunkIndex.approximateAt`. */
  approximateAt(
    direction: Float32Array,
    positions: Int32Array,
    length: number,
    approximate: Float64Array,
    bounds: Float64Array,
  ): boolean {
    const quantized = this.#storage.rows.quantized;
    if (!quantized || direction.length !== this.#storage.dimensions) return false;
    approximateRows(quantized, direction, this.#storage.dimensions, positions, length, approximate, bounds);
    return true;
  }

  /** See `ChunkIndex.hammingDistances`. */
  hammingDistances(direction: Float32Array, out: Uint16Array, histogram: Int32Array): void {
    this.#signPass('hammingDistances').distances(direction, out, histogram);
  }

  /** See `ChunkIndex.signPass`. */
  signPass(direction: Float32Array, histogram: Int32Array): { distances: Uint16Array; pass: number } {
    return this.#signPass('signPass').run(direction, histogram);
  }

  /** See `ChunkIndex.signPassValid`. */
  signPassValid(pass: number): boolean {
    return this.#signs?.valid(pass) === true;
  }

  /** See `ChunkIndex.positionsWithin`. */
  positionsWithin(
    distances: Uint16Array,
    from: number,
    to: number,
    cut: number,
    positions: Int32Array,
  ): number {
    return this.#signPass('positionsWithin').within(distances, from, to, cut, positions);
  }

  /** See `ChunkIndex.useSignWorker`. */
  useSignWorker(warn: (message: string) => void): boolean {
    return this.#signs?.startWorker(warn) ?? false;
  }

  /** Threads of the sign-bit pass now: 2 with a worker thread, else 1. */
  get signThreads(): 1 | 2 {
    return this.#signs?.threads ?? 1;
  }

  /** Stops the sign pass's worker thread, if any. */
  close(): void {
    this.#signs?.close();
  }

  /** Whether `direction` is scored by the row source alone: every dimension dense, and the direction as long as the vectors. */
  #rowsOnly(direction: Float32Array): boolean {
    return this.#storage.layout === 'rows' && direction.length === this.#storage.dimensions;
  }

  #signPass(method: string): SignPass {
    if (!this.#signs)
      throw new Error(`ChunkIndex.${method}: this index keeps no sign bits (signBits is false)`);
    return this.#signs;
  }
}

/**
 * The sparse block's columns as postings: column `slot`'s non-zero chunks (ascending) and values are
 * `[starts[slot], starts[slot + 1])` of `rows` and `values`. A hashed n-gram is in a few hundred of
 * 15,000 chunks: a pass reads those instead of every chunk. `version`: the storage's, when made.
 * `partial` and `touched` are the pass's scratch (a double per chunk, and the chunks a group added to).
 */
interface Postings {
  version: number;
  starts: Int32Array;
  rows: Int32Array;
  values: Float32Array;
  partial: Float64Array;
  touched: Int32Array;
}

function postingsOf(storage: ChunkStorage): Postings {
  const { count, columns } = storage;
  const slots = storage.sparseDimensions.length;
  const starts = new Int32Array(slots + 1);
  for (let slot = 0; slot < slots; slot++) {
    const base = slot * count;
    let n = 0;
    for (let row = 0; row < count; row++) if (columns[base + row] !== 0) n++;
    starts[slot + 1] = starts[slot]! + n;
  }
  const rows = new Int32Array(starts[slots]!);
  const values = new Float32Array(starts[slots]!);
  for (let slot = 0, at = 0; slot < slots; slot++) {
    const base = slot * count;
    for (let row = 0; row < count; row++) {
      const value = columns[base + row]!;
      if (value === 0) continue;
      rows[at] = row;
      values[at++] = value;
    }
  }
  return {
    version: storage.version,
    starts,
    rows,
    values,
    partial: new Float64Array(count),
    touched: new Int32Array(4 * count),
  };
}

/** The first posting of `[start, end)` at a chunk ≥ `row` (postings are in chunk order). */
function firstAt(rows: Int32Array, start: number, end: number, row: number): number {
  let low = start;
  let high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rows[middle]! < row) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * `columnSimilarities` from the postings, to the last bit: the direction's slots in groups of four
 * whose products are added in double precision, then to the chunk's float; the rest one by one.
 * Products with a zero add nothing, so only the postings are visited (as `invertedSimilarities` of
 * lint-thresholds.ts does for a chunk's own vector).
 */
function postingSimilarities(
  postings: Postings,
  slots: readonly number[],
  weights: readonly number[],
  out: Float32Array,
  from: number,
  to: number,
): void {
  const { starts, rows, values, partial, touched } = postings;
  const count = partial.length;
  const grouped = slots.length - (slots.length % 4);
  let size = 0;
  for (let k = 0; k < slots.length; k++) {
    const slot = slots[k]!;
    const weight = weights[k]!;
    const start = from === 0 ? starts[slot]! : firstAt(rows, starts[slot]!, starts[slot + 1]!, from);
    const end = to === count ? starts[slot + 1]! : firstAt(rows, start, starts[slot + 1]!, to);
    for (let p = start; p < end; p++) {
      const row = rows[p]!;
      // A chunk's first product in the group (a sum back to exactly zero is listed again: its
      // later flush adds zero).
      if (partial[row] === 0) touched[size++] = row;
      partial[row]! += weight * values[p]!;
    }
    if (k >= grouped || k % 4 === 3) {
      for (let t = 0; t < size; t++) {
        const row = touched[t]!;
        out[row]! += partial[row]!;
        partial[row] = 0;
      }
      size = 0;
    }
  }
}
