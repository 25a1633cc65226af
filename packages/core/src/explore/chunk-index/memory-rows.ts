import { createRowKernel, type RowKernel } from '../dot-kernel.js';
import type { RowSource } from './row-source.js';

/**
 * Rows held in memory: in WebAssembly memory scored by the SIMD kernel when it can run here, else
 * in a plain `Float32Array` scored in JavaScript (four coordinates per step).
 */
export class MemoryRows implements RowSource {
  readonly count: number;
  readonly stride: number;
  readonly memory: Float32Array;
  readonly quantized = null;
  readonly description = 'memory';
  readonly #dimensions: number;
  readonly #kernel: RowKernel | null;

  /** `count` rows of `dimensions` floats, zero; `simd: false` keeps them out of WebAssembly (tests). */
  constructor(count: number, dimensions: number, options: { simd?: boolean } = {}) {
    this.count = count;
    this.#dimensions = dimensions;
    this.#kernel = options.simd === false ? null : createRowKernel(count, dimensions);
    this.stride = this.#kernel ? this.#kernel.stride : dimensions;
    this.memory = this.#kernel ? this.#kernel.rows : new Float32Array(count * this.stride);
  }

  get simd(): boolean {
    return this.#kernel !== null;
  }

  dotsRange(direction: Float32Array, from: number, to: number, out: Float32Array): void {
    if (this.#kernel) this.#kernel.dotsRange(direction, from, to, out);
    else
      rowSimilarities(
        this.memory.subarray(from * this.stride),
        this.stride,
        this.#dimensions,
        direction,
        out.subarray(0, to - from),
      );
  }

  dotsAt(direction: Float32Array, positions: Int32Array, length: number, out: Float32Array): void {
    if (this.#kernel) {
      this.#kernel.dotsAt(direction, positions, length, out);
      return;
    }
    for (let k = 0; k < length; k++) {
      const position = positions[k]!;
      this.dotsRange(direction, position, position + 1, out.subarray(k, k + 1));
    }
  }

  row(position: number): Float32Array {
    return this.memory.subarray(position * this.stride, (position + 1) * this.stride);
  }

  close(): void {}
}

/** Row-major pass without WebAssembly: one dot product per row, four coordinates per step. */
function rowSimilarities(
  rows: Float32Array,
  stride: number,
  dimensions: number,
  direction: Float32Array,
  out: Float32Array,
): void {
  const count = out.length;
  const end4 = dimensions - (dimensions % 4);
  for (let row = 0, base = 0; row < count; row++, base += stride) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j < end4; j += 4) {
      s0 += rows[base + j]! * direction[j]!;
      s1 += rows[base + j + 1]! * direction[j + 1]!;
      s2 += rows[base + j + 2]! * direction[j + 2]!;
      s3 += rows[base + j + 3]! * direction[j + 3]!;
    }
    for (; j < dimensions; j++) s0 += rows[base + j]! * direction[j]!;
    out[row] = s0 + s1 + (s2 + s3);
  }
}
