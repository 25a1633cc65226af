import { createRowKernel, type RowKernel } from '../../explore/dot-kernel.js';

/**
 * Unit vectors packed row by row in one buffer — the WebAssembly SIMD kernel's matrix when the
 * runtime has one (`createRowKernel`), a plain `Float32Array` otherwise — for the threshold
 * calibration of `exploreIn: 'vector-store'` (docs/concepts.md §4, "Thresholds out of the box"):
 * one similarity pass of a chunk over a range of chunks at a time.
 *
 * Before this, the path kept a `Float32Array` per chunk and scored pairs with a scalar JavaScript
 * loop: 1.16 µs a pair at 384 dimensions, ≈ 384 million pairs for a million-chunk tree (the agent,
 * its 10 groups and their 1,000 subgroups each sample 128 chunks against everything below them),
 * ≈ 7.4 minutes of CPU before the agent could answer (bench/BEFORE-AFTER.md, section 10).
 */
export class PackedVectors {
  readonly count: number;
  readonly dimensions: number;
  readonly #kernel: RowKernel | null;
  readonly #rows: Float32Array;
  readonly #stride: number;

  /** @param options `simd: false` scores with the JavaScript loop even where the kernel exists (tests). */
  constructor(count: number, dimensions: number, options: { simd?: boolean } = {}) {
    this.count = count;
    this.dimensions = dimensions;
    this.#kernel = options.simd === false ? null : createRowKernel(count, dimensions);
    this.#rows = this.#kernel?.rows ?? new Float32Array(count * dimensions);
    this.#stride = this.#kernel?.stride ?? dimensions;
  }

  /** Whether the WebAssembly SIMD kernel scores the rows (else a JavaScript loop). */
  get simd(): boolean {
    return this.#kernel !== null;
  }

  /** Copies `vector` into row `position`. */
  set(position: number, vector: ArrayLike<number>): void {
    this.#rows.set(vector as ArrayLike<number>, position * this.#stride);
  }

  /** Row `position`: a view into the packed buffer (valid while this object lives; copy to keep it). */
  row(position: number): Float32Array {
    const start = position * this.#stride;
    return this.#rows.subarray(start, start + this.dimensions);
  }

  /** Dot product of row `position` with the rows `[from, to)`, into `out[from..to)` (other slots untouched). */
  similaritiesRange(position: number, from: number, to: number, out: Float32Array): void {
    if (to <= from) return;
    const direction = this.row(position);
    if (this.#kernel) {
      this.#kernel.dotsRange(direction, from, to, out.subarray(from, to));
      return;
    }
    const rows = this.#rows;
    const d = this.dimensions;
    for (let other = from; other < to; other++) {
      let sum = 0;
      const base = other * d;
      for (let j = 0; j < d; j++) sum += direction[j]! * rows[base + j]!;
      out[other] = sum;
    }
  }
}
