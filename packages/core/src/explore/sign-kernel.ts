import { compiledKernel, instantiateKernel, kernelModuleBytes, unsigned, vector } from './wasm-bytes.js';

/**
 * Two tiny WebAssembly SIMD kernels (hand-assembled, no toolchain), generated for one code length
 * of `B` blocks of 16 bytes (one bit per dimension):
 *
 * ```wat
 * ;; Hamming distance of the query code to every row, and how many rows have each distance.
 * (func (export "hamming") (param $c i32) (param $q i32) (param $o i32) (param $n i32) (param $hist i32)
 *   (local $d i32) (local $acc v128) (local $q0 v128) … (local $qB-1 v128)
 *   $qk = load($q + 16k)                                      ;; k = 0..B-1
 *   block  (br_if 0 (i32.eqz $n))
 *     loop $rows
 *       $acc = i8x16.popcnt(v128.xor(load($c), $q0))
 *       $acc = i8x16.add($acc, i8x16.popcnt(v128.xor(load($c + 16k), $qk)))   ;; k = 1..B-1
 *       $acc = i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u($acc))
 *       $d = lane 0 + lane 1 + lane 2 + lane 3
 *       i32.store16($o, $d); $hist[$d] += 1
 *       $o += 2; $c += 16 B; br_if $rows (--$n)
 *     end
 *   end)
 *
 * ;; Positions i in [from, to) with distance ≤ cut, ascending, into $dest; returns how many.
 * (func (export "within") (param $o i32) (param $from i32) (param $to i32) (param $cut i32) (param $dest i32) (result i32)
 *   eight distances at a time: skipped when v128.any_true(i16x8.le_u(load($o + 2i), splat($cut))) is false,
 *   else checked one by one; the last (to - from) mod 8 one by one)
 * ```
 *
 * The per-byte counts add up in 8 bits, so a code has at most `MAX_CODE_BYTES` bytes (31 blocks of
 * at most 8 differing bits per lane).
 */

const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_XOR = [SIMD, 0x51];
const V128_ANY_TRUE = [SIMD, 0x53];
const I16X8_SPLAT = [SIMD, 0x10];
const I16X8_LE_U = [SIMD, 0x34];
const I8X16_POPCNT = [SIMD, 0x62];
const I8X16_ADD = [SIMD, 0x6e];
const I16X8_EXTADD_PAIRWISE_I8X16_U = [SIMD, 0x7d];
const I32X4_EXTADD_PAIRWISE_I16X8_U = [SIMD, 0x7f];
const I32X4_EXTRACT_LANE = [SIMD, 0x1b];
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_CONST = 0x41;
const I32_ADD = 0x6a;
const I32_SHL = 0x74;
const I32_LOAD = 0x28;
const I32_LOAD16_U = 0x2f;
const I32_STORE = 0x36;
const I32_STORE16 = 0x3b;
const I32_LE_U = 0x4d;
const I32_GT_U = 0x4b;
const I32_GE_U = 0x4f;
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const IF = [0x04, 0x40];
const END = 0x0b;
const BR = 0x0c;
const BR_IF = 0x0d;

/** The longest code the kernel handles: 31 blocks of 16 bytes (3,968 dimensions). */
export const MAX_CODE_BYTES = 31 * 16;

/** `value` as a signed LEB128 integer (`i32.const`). */
function signed(value: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

function hammingBody(blocks: number): number[] {
  const [C, Q, O, N, HIST, D, ACC, Q0] = [0, 1, 2, 3, 4, 5, 6, 7];
  const body: number[] = [];
  for (let k = 0; k < blocks; k++)
    body.push(LOCAL_GET, Q, ...V128_LOAD, 0x04, ...unsigned(16 * k), LOCAL_SET, Q0 + k);
  body.push(...BLOCK);
  body.push(LOCAL_GET, N, 0x45, BR_IF, 0x00); // br_if 0 (n == 0)
  body.push(...LOOP);
  for (let k = 0; k < blocks; k++) {
    body.push(LOCAL_GET, C, ...V128_LOAD, 0x04, ...unsigned(16 * k), LOCAL_GET, Q0 + k);
    body.push(...V128_XOR, ...I8X16_POPCNT);
    if (k > 0) body.push(...I8X16_ADD);
  }
  body.push(...I16X8_EXTADD_PAIRWISE_I8X16_U, ...I32X4_EXTADD_PAIRWISE_I16X8_U, LOCAL_TEE, ACC);
  body.push(...I32X4_EXTRACT_LANE, 0, LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE, 1, I32_ADD);
  body.push(LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE, 2, LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE, 3, I32_ADD);
  body.push(I32_ADD, LOCAL_SET, D);
  body.push(LOCAL_GET, O, LOCAL_GET, D, I32_STORE16, 0x01, 0x00); // store16 align=2
  // hist[d] += 1
  body.push(LOCAL_GET, HIST, LOCAL_GET, D, I32_CONST, 2, I32_SHL, I32_ADD, LOCAL_TEE, D);
  body.push(LOCAL_GET, D, I32_LOAD, 0x02, 0x00, I32_CONST, 1, I32_ADD, I32_STORE, 0x02, 0x00);
  body.push(LOCAL_GET, O, I32_CONST, 2, I32_ADD, LOCAL_SET, O); // o += 2
  body.push(LOCAL_GET, C, I32_CONST, ...signed(16 * blocks), I32_ADD, LOCAL_SET, C); // c += 16 B
  body.push(LOCAL_GET, N, I32_CONST, 1, 0x6b, LOCAL_TEE, N, BR_IF, 0x00); // br_if $rows (--n)
  body.push(END, END, END); // loop, block, func
  const locals = [
    [1, 0x7f],
    [1 + blocks, 0x7b],
  ];
  return [...vector(locals.map(([count, type]) => [...unsigned(count!), type!])), ...body];
}

function withinBody(): number[] {
  const [O, FROM, TO, CUT, DEST, I, COUNT, CV] = [0, 1, 2, 3, 4, 5, 6, 7];
  const body: number[] = [];
  /** dest[count++] = i + k, when distance(i + k) ≤ cut. */
  const check = (k: number) => {
    body.push(LOCAL_GET, O, LOCAL_GET, I, I32_CONST, 1, I32_SHL, I32_ADD);
    body.push(I32_LOAD16_U, 0x01, ...unsigned(2 * k), LOCAL_GET, CUT, I32_LE_U);
    body.push(...IF);
    body.push(LOCAL_GET, DEST, LOCAL_GET, COUNT, I32_CONST, 2, I32_SHL, I32_ADD);
    body.push(LOCAL_GET, I, I32_CONST, k, I32_ADD, I32_STORE, 0x02, 0x00);
    body.push(LOCAL_GET, COUNT, I32_CONST, 1, I32_ADD, LOCAL_SET, COUNT);
    body.push(END);
  };
  body.push(LOCAL_GET, CUT, ...I16X8_SPLAT, LOCAL_SET, CV);
  body.push(LOCAL_GET, FROM, LOCAL_SET, I);
  // Eight at a time.
  body.push(...BLOCK, ...LOOP);
  body.push(LOCAL_GET, I, I32_CONST, 8, I32_ADD, LOCAL_GET, TO, I32_GT_U, BR_IF, 0x01);
  body.push(LOCAL_GET, O, LOCAL_GET, I, I32_CONST, 1, I32_SHL, I32_ADD, ...V128_LOAD, 0x01, 0x00);
  body.push(LOCAL_GET, CV, ...I16X8_LE_U, ...V128_ANY_TRUE);
  body.push(...IF);
  for (let k = 0; k < 8; k++) check(k);
  body.push(END);
  body.push(LOCAL_GET, I, I32_CONST, 8, I32_ADD, LOCAL_SET, I, BR, 0x00);
  body.push(END, END);
  // The rest one by one.
  body.push(...BLOCK, ...LOOP);
  body.push(LOCAL_GET, I, LOCAL_GET, TO, I32_GE_U, BR_IF, 0x01);
  check(0);
  body.push(LOCAL_GET, I, I32_CONST, 1, I32_ADD, LOCAL_SET, I, BR, 0x00);
  body.push(END, END);
  body.push(LOCAL_GET, COUNT, END);
  const locals = [
    [2, 0x7f],
    [1, 0x7b],
  ];
  return [...vector(locals.map(([count, type]) => [...unsigned(count!), type!])), ...body];
}

function kernelBytes(blocks: number): Uint8Array {
  const hamming = hammingBody(blocks);
  const within = withinBody();
  return kernelModuleBytes([
    { name: 'hamming', type: [0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0], body: hamming },
    { name: 'within', type: [0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f], body: within },
  ]);
}

/**
 * A matrix of `count` codes of `codeBytes` bytes each (one bit per dimension, zero-padded to a
 * multiple of 16 bytes) living in WebAssembly memory, with the kernels bound to it. `codes` is the
 * matrix itself, to fill before calling `distances`.
 */
export interface SignKernel {
  readonly codes: Uint8Array;
  readonly codeBytes: number;
  /**
   * Writes the Hamming distance of `query` (a code of `codeBytes` bytes) to every row into `out`,
   * in row order, and into `histogram` how many rows have each distance (`codeBytes × 8 + 1` slots).
   */
  distances(query: Uint8Array, out: Uint16Array, histogram: Int32Array): void;
  /**
   * The positions `i` in `[from, to)` with `distances[i] ≤ cut`, ascending, into `positions` (which
   * must have room for them); returns how many. `distances` is an `out` of `distances`.
   */
  within(distances: Uint16Array, from: number, to: number, cut: number, positions: Int32Array): number;
}

/** A `SignKernel` for `count` codes of `bits` bits, or `null` (no SIMD, too long, too large). */
export function createSignKernel(count: number, bits: number): SignKernel | null {
  const blocks = Math.ceil(bits / 128);
  const codeBytes = blocks * 16;
  if (count === 0 || bits === 0 || codeBytes > MAX_CODE_BYTES) return null;
  const module = compiledKernel(`signs:${blocks}`, () => kernelBytes(blocks));
  if (!module) return null;
  const align = (bytes: number) => Math.ceil(bytes / 16) * 16;
  const queryAt = count * codeBytes;
  const outAt = queryAt + codeBytes;
  const histogramAt = outAt + align(count * 2);
  const slots = codeBytes * 8 + 1;
  const destAt = histogramAt + align(slots * 4);
  const instance = instantiateKernel(module, destAt + count * 4);
  if (!instance) return null;
  const hamming = instance.exports['hamming'] as (
    c: number,
    q: number,
    o: number,
    n: number,
    hist: number,
  ) => void;
  const within = instance.exports['within'] as (
    o: number,
    from: number,
    to: number,
    cut: number,
    dest: number,
  ) => number;
  const buffer = instance.buffer;
  const codes = new Uint8Array(buffer, 0, count * codeBytes);
  const queryView = new Uint8Array(buffer, queryAt, codeBytes);
  const outView = new Uint16Array(buffer, outAt, count);
  const histogramView = new Int32Array(buffer, histogramAt, slots);
  const destView = new Int32Array(buffer, destAt, count);
  /** The `out` array whose distances are in WebAssembly memory now (another search may have replaced them). */
  let loaded: Uint16Array | null = null;
  return {
    codes,
    codeBytes,
    distances(query, out, histogram) {
      queryView.set(query.subarray(0, codeBytes));
      histogramView.fill(0);
      hamming(0, queryAt, outAt, count, histogramAt);
      out.set(outView);
      histogram.set(histogramView);
      loaded = out;
    },
    within(distances, from, to, cut, positions) {
      if (loaded !== distances) {
        outView.set(distances);
        loaded = distances;
      }
      const found = within(outAt, from, to, cut, destAt);
      positions.set(destView.subarray(0, found));
      return found;
    },
  };
}
