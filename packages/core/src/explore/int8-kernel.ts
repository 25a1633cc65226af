import { compiledKernel, instantiateKernel, kernelModuleBytes, unsigned, vector } from './wasm-bytes.js';

/**
 * A tiny WebAssembly SIMD kernel (hand-assembled, no toolchain): the dot product of a float64
 * direction with int8 rows picked by position, the arithmetic of `candidatesNear`'s JavaScript loop
 * (each int8 × float64 product is exact in float64, the sums are float64), eight coordinates per
 * `f64x2` pair of lanes.
 *
 * ```wat
 * (func (export "dots") (param $v i32) (param $d i32) (param $p i32) (param $o i32) (param $n i32) (param $stride i32)
 *   (local $base i32) (local $j i32) (local $dp i32) (local $x v128) (local $lo v128) (local $hi v128)
 *   (local $t v128) (local $a0 v128) … (local $a3 v128)
 *   block  (br_if 0 (i32.eqz $n))
 *     loop $rows
 *       $base = $v + i32.load($p) · $stride; $a0..$a3 = 0; $j = 0; $dp = $d
 *       loop $cols                                   ;; 16 coordinates
 *         $x = load($base + $j); $lo, $hi = i16x8.extend_{low,high}_i8x16_s($x)
 *         $t = i32x4.extend_{low,high}_i16x8_s($lo or $hi)       ;; four times, t = 0..3
 *           $a(2t mod 4)     += f64x2.convert_low_i32x4_s($t) · load($dp + 32t)
 *           $a(2t + 1 mod 4) += f64x2.convert_low_i32x4_s(lanes 2, 3 of $t) · load($dp + 32t + 16)
 *         $j += 16; $dp += 128; br_if $cols ($j < $stride)
 *       end
 *       f64.store($o, lanes of ($a0 + $a1) + ($a2 + $a3) added)
 *       $o += 8; $p += 4; br_if $rows (--$n)
 *     end
 *   end)
 * ```
 *
 * `$stride` (the row length in bytes) is a multiple of 16.
 */

const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_CONST = [SIMD, 0x0c];
const I8X16_SHUFFLE = [SIMD, 0x0d];
const F64X2_EXTRACT_LANE = [SIMD, 0x21];
const I16X8_EXTEND_LOW_I8X16_S = [SIMD, 0x87, 0x01];
const I16X8_EXTEND_HIGH_I8X16_S = [SIMD, 0x88, 0x01];
const I32X4_EXTEND_LOW_I16X8_S = [SIMD, 0xa7, 0x01];
const I32X4_EXTEND_HIGH_I16X8_S = [SIMD, 0xa8, 0x01];
const F64X2_ADD = [SIMD, 0xf0, 0x01];
const F64X2_MUL = [SIMD, 0xf2, 0x01];
const F64X2_CONVERT_LOW_I32X4_S = [SIMD, 0xfe, 0x01];
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_CONST = 0x41;
const I32_LOAD = 0x28;
const F64_STORE = 0x39;
const I32_EQZ = 0x45;
const I32_LT_U = 0x49;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_MUL = 0x6c;
const F64_ADD = 0xa0;
const I32 = 0x7f;
const V128 = 0x7b;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const BR_IF = 0x0d;
/** Lanes 2 and 3 of an i32x4 moved to lanes 0 and 1. */
const HIGH_HALF = [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15];

function kernelBytes(): Uint8Array {
  const [V, D, P, O, N, STRIDE, BASE, J, DP, X, LO, HI, T, A0] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
  ];
  const body: number[] = [];
  body.push(...BLOCK, LOCAL_GET, N, I32_EQZ, BR_IF, 0x00);
  body.push(...LOOP);
  // base = v + positions[k] · stride
  body.push(LOCAL_GET, V, LOCAL_GET, P, I32_LOAD, 0x02, 0x00, LOCAL_GET, STRIDE, I32_MUL, I32_ADD);
  body.push(LOCAL_SET, BASE);
  body.push(...V128_CONST, ...new Array(16).fill(0));
  body.push(LOCAL_TEE, A0, LOCAL_TEE, A0 + 1, LOCAL_TEE, A0 + 2, LOCAL_SET, A0 + 3);
  body.push(I32_CONST, 0, LOCAL_SET, J, LOCAL_GET, D, LOCAL_SET, DP);
  body.push(...LOOP);
  body.push(LOCAL_GET, BASE, LOCAL_GET, J, I32_ADD, ...V128_LOAD, 0x00, 0x00, LOCAL_TEE, X);
  body.push(...I16X8_EXTEND_LOW_I8X16_S, LOCAL_SET, LO);
  body.push(LOCAL_GET, X, ...I16X8_EXTEND_HIGH_I8X16_S, LOCAL_SET, HI);
  for (let t = 0; t < 4; t++) {
    body.push(LOCAL_GET, t < 2 ? LO : HI);
    body.push(...(t % 2 === 0 ? I32X4_EXTEND_LOW_I16X8_S : I32X4_EXTEND_HIGH_I16X8_S), LOCAL_SET, T);
    for (let half = 0; half < 2; half++) {
      const a = A0 + ((2 * t + half) % 4);
      body.push(LOCAL_GET, a, LOCAL_GET, T);
      if (half === 1) body.push(LOCAL_GET, T, ...I8X16_SHUFFLE, ...HIGH_HALF);
      body.push(...F64X2_CONVERT_LOW_I32X4_S);
      body.push(LOCAL_GET, DP, ...V128_LOAD, 0x03, ...unsigned(32 * t + 16 * half));
      body.push(...F64X2_MUL, ...F64X2_ADD, LOCAL_SET, a);
    }
  }
  body.push(LOCAL_GET, DP, I32_CONST, ...signedByte(128), I32_ADD, LOCAL_SET, DP);
  body.push(LOCAL_GET, J, I32_CONST, 16, I32_ADD, LOCAL_TEE, J, LOCAL_GET, STRIDE, I32_LT_U, BR_IF, 0x00);
  body.push(END); // cols
  body.push(LOCAL_GET, O);
  body.push(LOCAL_GET, A0, LOCAL_GET, A0 + 1, ...F64X2_ADD);
  body.push(LOCAL_GET, A0 + 2, LOCAL_GET, A0 + 3, ...F64X2_ADD, ...F64X2_ADD, LOCAL_TEE, A0);
  body.push(...F64X2_EXTRACT_LANE, 0, LOCAL_GET, A0, ...F64X2_EXTRACT_LANE, 1, F64_ADD);
  body.push(F64_STORE, 0x03, 0x00);
  body.push(LOCAL_GET, O, I32_CONST, 8, I32_ADD, LOCAL_SET, O);
  body.push(LOCAL_GET, P, I32_CONST, 4, I32_ADD, LOCAL_SET, P);
  body.push(LOCAL_GET, N, I32_CONST, 1, I32_SUB, LOCAL_TEE, N, BR_IF, 0x00);
  body.push(END, END, END); // rows, block, func
  const locals = [
    [3, I32],
    [8, V128],
  ];
  return kernelModuleBytes([
    {
      name: 'dots',
      type: [0x60, 6, I32, I32, I32, I32, I32, I32, 0],
      body: [...vector(locals.map(([count, type]) => [...unsigned(count!), type!])), ...body],
    },
  ]);
}

/** `value` (0 ≤ value < 8192) as a signed LEB128 `i32.const` immediate. */
function signedByte(value: number): number[] {
  return value < 64 ? [value] : [(value & 0x7f) | 0x80, value >> 7];
}

/** Positions scored per kernel call (the scratch in WebAssembly memory holds this many). */
const BATCH = 4096;

/**
 * `count` int8 rows of `stride` bytes in WebAssembly memory (`values`, to fill), with the kernel
 * bound to them.
 */
export interface Int8Kernel {
  readonly values: Int8Array;
  /**
   * `out[k] = Σj values[positions[k] · stride + j] · direction[j]` for `k < length`, in float64
   * (`direction` has at most `stride` coordinates; the others count as 0).
   */
  dots(direction: Float32Array, positions: Int32Array, length: number, out: Float64Array): void;
}

/** An `Int8Kernel` for `count` rows of `stride` bytes (a multiple of 16), or `null` (no SIMD, too large). */
export function createInt8Kernel(count: number, stride: number): Int8Kernel | null {
  if (count === 0 || stride === 0 || stride % 16 !== 0) return null;
  const module = compiledKernel('int8-dots', kernelBytes);
  if (!module) return null;
  const align = (bytes: number) => Math.ceil(bytes / 16) * 16;
  const directionAt = align(count * stride);
  const positionsAt = directionAt + stride * 8;
  const outAt = positionsAt + BATCH * 4;
  const instance = instantiateKernel(module, outAt + BATCH * 8);
  if (!instance) return null;
  const kernel = instance.exports.dots as (
    v: number,
    d: number,
    p: number,
    o: number,
    n: number,
    stride: number,
  ) => void;
  const buffer = instance.buffer;
  const values = new Int8Array(buffer, 0, count * stride);
  const directionView = new Float64Array(buffer, directionAt, stride);
  const positionsView = new Int32Array(buffer, positionsAt, BATCH);
  const outView = new Float64Array(buffer, outAt, BATCH);
  return {
    values,
    dots(direction, positions, length, out) {
      directionView.fill(0);
      const dimensions = Math.min(direction.length, stride);
      for (let j = 0; j < dimensions; j++) directionView[j] = direction[j]!;
      for (let start = 0; start < length; start += BATCH) {
        const n = Math.min(BATCH, length - start);
        positionsView.set(positions.subarray(start, start + n));
        kernel(0, directionAt, positionsAt, outAt, n, stride);
        out.set(outView.subarray(0, n), start);
      }
    },
  };
}
