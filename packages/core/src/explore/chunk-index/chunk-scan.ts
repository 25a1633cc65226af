import { approximateRows, candidatesNear } from '../quantized-rows.js';
import type { ChunkStorage } from './chunk-storage.js';
import { addPostingProducts, type Postings, postingsOfColumns } from './postings.js';
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
  /** The sparse block's postings, and the storage's version they were made at. */
  #postings: { version: number; postings: Postings } | null = null;

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
      addPostingProducts(this.#postingsOf(storage), slots, weights, out, from, to);
    }
    return out;
  }

  /** The sparse block's postings, made from its columns on first use and again after they change. */
  #postingsOf(storage: ChunkStorage): Postings {
    if (this.#postings?.version !== storage.version) {
      const postings = postingsOfColumns(storage.columns, storage.count, storage.sparseDimensions.length);
      this.#postings = { version: storage.version, postings };
    }
    return this.#postings.postings;
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
