import { compiledKernel, instantiateKernel, kernelModuleBytes, unsigned, vector } from './wasm-bytes.js';

/**
 * A tiny WebAssembly SIMD kernel (hand-assembled, no toolchain): the dot product of one direction
 * with every row of a row-major matrix, four `f32x4` accumulators per row (16 floats per iteration).
 *
 * ```wat
 * (func (export "dots") (param $m i32) (param $d i32) (param $o i32) (param $n i32) (param $stride i32)
 *   (local $j i32) (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
 *   block  (br_if 0 (i32.eqz $n))
 *     loop $rows
 *       $a0..$a3 = 0; $j = 0
 *       loop $cols
 *         $ak += load($m + $j + 16k) * load($d + $j + 16k)   ;; k = 0..3
 *         $j += 64; br_if $cols ($j < $stride)
 *       end
 *       f32.store($o, horizontal sum of $a0 + $a1 + $a2 + $a3)
 *       $o += 4; $m += $stride; br_if $rows (--$n)
 *     end
 *   end)
 * ```
 *
 * `$stride` is the row length in bytes, a multiple of 64 (rows are padded with zeros).
 */

const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_CONST = [SIMD, 0x0c];
const F32X4_EXTRACT_LANE = [SIMD, 0x1f];
const F32X4_ADD = [SIMD, 0xe4, 0x01];
const F32X4_MUL = [SIMD, 0xe6, 0x01];
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;

function kernelBytes(): Uint8Array {
  const [M, D, O, N, STRIDE, J, A0] = [0, 1, 2, 3, 4, 5, 6];
  const body: number[] = [];
  body.push(0x02, 0x40); // block
  body.push(LOCAL_GET, N, 0x45, 0x0d, 0x00); // br_if 0 (n == 0)
  body.push(0x03, 0x40); // loop $rows
  body.push(...V128_CONST, ...new Array(16).fill(0));
  body.push(LOCAL_TEE, A0, LOCAL_TEE, A0 + 1, LOCAL_TEE, A0 + 2, LOCAL_SET, A0 + 3);
  body.push(0x41, 0x00, LOCAL_SET, J); // j = 0
  body.push(0x03, 0x40); // loop $cols
  for (let k = 0; k < 4; k++) {
    body.push(LOCAL_GET, A0 + k);
    body.push(LOCAL_GET, M, LOCAL_GET, J, 0x6a, ...V128_LOAD, 0x04, ...unsigned(16 * k));
    body.push(LOCAL_GET, D, LOCAL_GET, J, 0x6a, ...V128_LOAD, 0x04, ...unsigned(16 * k));
    body.push(...F32X4_MUL, ...F32X4_ADD, LOCAL_SET, A0 + k);
  }
  body.push(LOCAL_GET, J, 0x41, 0xc0, 0x00, 0x6a, LOCAL_TEE, J); // j += 64
  body.push(LOCAL_GET, STRIDE, 0x49, 0x0d, 0x00); // br_if $cols (j < stride)
  body.push(0x0b); // end $cols
  body.push(LOCAL_GET, O);
  body.push(LOCAL_GET, A0, LOCAL_GET, A0 + 1, ...F32X4_ADD);
  body.push(LOCAL_GET, A0 + 2, LOCAL_GET, A0 + 3, ...F32X4_ADD, ...F32X4_ADD, LOCAL_TEE, A0);
  body.push(...F32X4_EXTRACT_LANE, 0, LOCAL_GET, A0, ...F32X4_EXTRACT_LANE, 1, 0x92);
  body.push(LOCAL_GET, A0, ...F32X4_EXTRACT_LANE, 2, LOCAL_GET, A0, ...F32X4_EXTRACT_LANE, 3, 0x92);
  body.push(0x92, 0x38, 0x02, 0x00); // f32.add; f32.store align=4 offset=0
  body.push(LOCAL_GET, O, 0x41, 0x04, 0x6a, LOCAL_SET, O); // o += 4
  body.push(LOCAL_GET, M, LOCAL_GET, STRIDE, 0x6a, LOCAL_SET, M); // m += stride
  body.push(LOCAL_GET, N, 0x41, 0x01, 0x6b, LOCAL_TEE, N, 0x0d, 0x00); // br_if $rows (--n)
  body.push(0x0b, 0x0b); // end $rows, end block
  body.push(0x0b); // end func
  const locals = [
    [1, 0x7f],
    [4, 0x7b],
  ];
  const func = [...vector(locals.map(([count, type]) => [...unsigned(count!), type!])), ...body];
  return kernelModuleBytes([{ name: 'dots', type: [0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0], body: func }]);
}

/** Rows are padded to a multiple of this many floats (one iteration of the kernel). */
export const ROW_BLOCK = 16;

/**
 * A row-major matrix of `count` rows of `stride` floats (zero-padded) living in WebAssembly memory,
 * with the kernel bound to it. `rows` is the matrix itself, to fill before calling `dots`.
 */
export interface RowKernel {
  readonly rows: Float32Array;
  readonly stride: number;
  /** Dot product of `direction` (its first `dimensions` coordinates; the rest are 0) with every row. */
  dots(direction: Float32Array, out: Float32Array): void;
  /**
   * Dot product of `direction` with each row of `positions[0..length)`, into `out[0..length)`: the
   * same kernel on one row at a time, so each value is bit for bit the one `dots` gives that row.
   */
  dotsAt(direction: Float32Array, positions: Int32Array, length: number, out: Float32Array): void;
  /** Dot product of `direction` with the rows `[from, to)`, into `out[0..to - from)`: the same values as `dots`. */
  dotsRange(direction: Float32Array, from: number, to: number, out: Float32Array): void;
}

/** A `RowKernel` for `count × dimensions`, or `null` (no SIMD, or too large for 32-bit memory). */
export function createRowKernel(count: number, dimensions: number): RowKernel | null {
  const module = compiledKernel('dots', kernelBytes);
  if (!module || count === 0 || dimensions === 0) return null;
  const stride = Math.ceil(dimensions / ROW_BLOCK) * ROW_BLOCK;
  const matrixBytes = count * stride * 4;
  const directionAt = matrixBytes;
  const outAt = directionAt + stride * 4;
  const instance = instantiateKernel(module, outAt + count * 4);
  if (!instance) return null;
  const run = instance.exports.dots as (m: number, d: number, o: number, n: number, stride: number) => void;
  const buffer = instance.buffer;
  const rows = new Float32Array(buffer, 0, count * stride);
  const directionView = new Float32Array(buffer, directionAt, stride);
  const outView = new Float32Array(buffer, outAt, count);
  return {
    rows,
    stride,
    dots(direction, out) {
      const n = Math.min(direction.length, dimensions);
      directionView.set(n === direction.length ? direction : direction.subarray(0, n));
      run(0, directionAt, outAt, count, stride * 4);
      out.set(outView);
    },
    dotsRange(direction, from, to, out) {
      const n = Math.min(direction.length, dimensions);
      directionView.set(n === direction.length ? direction : direction.subarray(0, n));
      if (to <= from) return;
      run(from * stride * 4, directionAt, outAt, to - from, stride * 4);
      out.set(outView.subarray(0, to - from));
    },
    dotsAt(direction, positions, length, out) {
      const n = Math.min(direction.length, dimensions);
      directionView.set(n === direction.length ? direction : direction.subarray(0, n));
      const rowBytes = stride * 4;
      for (let k = 0; k < length; k++) {
        run(positions[k]! * rowBytes, directionAt, outAt, 1, rowBytes);
        out[k] = outView[0]!;
      }
    },
  };
}
