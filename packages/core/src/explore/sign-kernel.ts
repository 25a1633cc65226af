import { type SignWorker, startSignWorker } from './sign-worker.js';
import { compiledKernel, instantiateKernel, kernelModuleBytes, unsigned, vector } from './wasm-bytes.js';

/**
 * Two tiny WebAssembly kernels (hand-assembled, no toolchain), generated for one code length of
 * `B` blocks of 16 bytes (one bit per dimension, `W = 2B` words of 64 bits):
 *
 * ```wat
 * ;; Hamming distance of the query code to every row, and how many rows have each distance.
 * (func (export "hamming") (param $c i32) (param $q i32) (param $o i32) (param $n i32) (param $hist i32)
 *   (local $d i32) (local $q0 i64) … (local $qW-1 i64)
 *   $qk = i64.load($q + 8k)                                   ;; k = 0..W-1
 *   loop, four rows per iteration while $n ≥ 4, then one by one:
 *     $d = i32.wrap(Σk i64.popcnt(i64.load($c + 8k) ^ $qk))  ;; each row u at $c + 8 W u
 *     i32.store16($o + 2u, $d); $hist[$d] += 1
 *     $o += 2 rows; $c += 8 W rows; $n -= rows
 * )
 *
 * ;; Positions i in [from, to) with distance ≤ cut, ascending, into $dest; returns how many.
 * (func (export "within") (param $o i32) (param $from i32) (param $to i32) (param $cut i32) (param $dest i32) (result i32)
 *   eight distances at a time: skipped when v128.any_true(i16x8.le_u(load($o + 2i), splat($cut))) is false,
 *   else checked one by one; the last (to - from) mod 8 one by one)
 * ```
 *
 * `i64.popcnt` is one instruction on current x86-64 and ARM processors; four rows per iteration
 * keep four independent chains of them in flight (about twice the speed of the earlier SIMD
 * byte-count kernel, `bench/BEFORE-AFTER.md` §9). Distances are 16-bit, so a code has at most
 * `MAX_CODE_BYTES` bytes.
 */

const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_ANY_TRUE = [SIMD, 0x53];
const I16X8_SPLAT = [SIMD, 0x10];
const I16X8_LE_U = [SIMD, 0x34];
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_CONST = 0x41;
const I32_EQZ = 0x45;
const I32_ADD = 0x6a;
const I32_SUB = 0x6b;
const I32_SHL = 0x74;
const I32_LOAD = 0x28;
const I64_LOAD = 0x29;
const I32_LOAD16_U = 0x2f;
const I32_STORE = 0x36;
const I32_STORE16 = 0x3b;
const I32_LT_U = 0x49;
const I32_LE_U = 0x4d;
const I32_GT_U = 0x4b;
const I32_GE_U = 0x4f;
const I64_POPCNT = 0x7b;
const I64_ADD = 0x7c;
const I64_XOR = 0x85;
const I32_WRAP_I64 = 0xa7;
const I32 = 0x7f;
const I64 = 0x7e;
const V128 = 0x7b;
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

/** Rows per iteration of the Hamming loop: independent popcount chains the processor overlaps. */
const HAMMING_UNROLL = 4;

/**
 * The distance of row `u` of an iteration (at `$c + u · 8 W`) to the query words in locals
 * `Q0..Q0 + W - 1`, stored at `$o + 2u` and counted in the histogram.
 */
function hammingRow(body: number[], words: number, u: number): void {
  const [C, O, HIST, D, Q0] = [0, 2, 4, 5, 6];
  for (let k = 0; k < words; k++) {
    body.push(LOCAL_GET, C, I64_LOAD, 0x03, ...unsigned(8 * (u * words + k)), LOCAL_GET, Q0 + k);
    body.push(I64_XOR, I64_POPCNT);
    if (k > 0) body.push(I64_ADD);
  }
  body.push(I32_WRAP_I64, LOCAL_SET, D);
  body.push(LOCAL_GET, O, LOCAL_GET, D, I32_STORE16, 0x01, ...unsigned(2 * u)); // store16 align=2
  // hist[d] += 1
  body.push(LOCAL_GET, HIST, LOCAL_GET, D, I32_CONST, 2, I32_SHL, I32_ADD, LOCAL_TEE, D);
  body.push(LOCAL_GET, D, I32_LOAD, 0x02, 0x00, I32_CONST, 1, I32_ADD, I32_STORE, 0x02, 0x00);
}

function hammingBody(blocks: number): number[] {
  const [C, Q, O, N, Q0] = [0, 1, 2, 3, 6];
  const words = 2 * blocks;
  const body: number[] = [];
  for (let k = 0; k < words; k++)
    body.push(LOCAL_GET, Q, I64_LOAD, 0x03, ...unsigned(8 * k), LOCAL_SET, Q0 + k);
  /** `$o += 2 r; $c += 8 W r; $n -= r`. */
  const advance = (rows: number) => {
    body.push(LOCAL_GET, O, I32_CONST, ...signed(2 * rows), I32_ADD, LOCAL_SET, O);
    body.push(LOCAL_GET, C, I32_CONST, ...signed(8 * words * rows), I32_ADD, LOCAL_SET, C);
    body.push(LOCAL_GET, N, I32_CONST, ...signed(rows), I32_SUB, LOCAL_SET, N);
  };
  // HAMMING_UNROLL rows at a time while that many are left.
  body.push(...BLOCK, ...LOOP);
  body.push(LOCAL_GET, N, I32_CONST, HAMMING_UNROLL, I32_LT_U, BR_IF, 0x01);
  for (let u = 0; u < HAMMING_UNROLL; u++) hammingRow(body, words, u);
  advance(HAMMING_UNROLL);
  body.push(BR, 0x00, END, END);
  // The rest one by one.
  body.push(...BLOCK, ...LOOP);
  body.push(LOCAL_GET, N, I32_EQZ, BR_IF, 0x01);
  hammingRow(body, words, 0);
  advance(1);
  body.push(BR, 0x00, END, END);
  body.push(END); // func
  const locals = [
    [1, I32],
    [words, I64],
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
    [2, I32],
    [1, V128],
  ];
  return [...vector(locals.map(([count, type]) => [...unsigned(count!), type!])), ...body];
}

function kernelBytes(blocks: number, sharedMemory: boolean): Uint8Array {
  const hamming = hammingBody(blocks);
  const within = withinBody();
  return kernelModuleBytes(
    [
      { name: 'hamming', type: [0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0], body: hamming },
      { name: 'within', type: [0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 1, 0x7f], body: within },
    ],
    { sharedMemory },
  );
}

/**
 * A matrix of `count` codes of `codeBytes` bytes each (one bit per dimension, zero-padded to a
 * multiple of 16 bytes) living in WebAssembly memory, with the kernels bound to it. `codes` is the
 * matrix itself, to fill before the first pass.
 */
export interface SignKernel {
  readonly codes: Uint8Array;
  readonly codeBytes: number;
  /**
   * Computes the Hamming distance of `query` (a code of `codeBytes` bytes) to every row and returns
   * them, in row order, as a view of WebAssembly memory (no copy): valid until the next pass, that is
   * while `pass` is the value it had right after this call. Writes into `histogram` how many rows
   * have each distance (`codeBytes × 8 + 1` slots).
   */
  run(query: Uint8Array, histogram: Int32Array): Uint16Array;
  /** How many passes have replaced the distances in WebAssembly memory so far. */
  readonly pass: number;
  /** `run`, with the distances copied into `out` (which then stays valid). */
  distances(query: Uint8Array, out: Uint16Array, histogram: Int32Array): void;
  /**
   * The positions `i` in `[from, to)` with `distances[i] ≤ cut`, ascending, into `positions` (which
   * must have room for them); returns how many. `distances` is the view `run` returned (still
   * valid) or an `out` of `distances` (copied into WebAssembly memory first, which ends the
   * validity of the last `run`).
   */
  within(distances: Uint16Array, from: number, to: number, cut: number, positions: Int32Array): number;
  /**
   * Starts a worker thread that takes part in every later pass (`sign-worker.ts`); only for a kernel
   * created `shared`. Returns false (nothing started) when that is not possible here; a worker that
   * fails later is reported through `warn` and the passes go on on one thread.
   */
  startWorker(warn: (message: string) => void): boolean;
  /** Whether a worker thread takes part in the passes now. */
  readonly threads: 1 | 2;
  /** Passes the worker thread took part in so far. */
  readonly workerPasses: number;
  /** Stops the worker thread, if any (the kernel still works, on one thread). */
  close(): void;
}

/**
 * A `SignKernel` for `count` codes of `bits` bits, or `null` (no SIMD, too long, too large).
 * `shared`: in shared WebAssembly memory, so that a worker thread can take part in the passes
 * (`startWorker`); falls back to unshared memory where shared memory is not available.
 */
export function createSignKernel(
  count: number,
  bits: number,
  options: { shared?: boolean } = {},
): SignKernel | null {
  const blocks = Math.ceil(bits / 128);
  const codeBytes = blocks * 16;
  if (count === 0 || bits === 0 || codeBytes > MAX_CODE_BYTES) return null;
  const align = (bytes: number) => Math.ceil(bytes / 16) * 16;
  const queryAt = count * codeBytes;
  const outAt = queryAt + codeBytes;
  const histogramAt = outAt + align(count * 2);
  const slots = codeBytes * 8 + 1;
  // The worker's histogram after the main thread's.
  const workerHistogramAt = histogramAt + align(slots * 4);
  const destAt = workerHistogramAt + align(slots * 4);
  const instantiate = (shared: boolean) => {
    const module = compiledKernel(`signs:${blocks}${shared ? ':shared' : ''}`, () =>
      kernelBytes(blocks, shared),
    );
    const instance = module && instantiateKernel(module, destAt + count * 4, { shared });
    return instance ? { module, instance } : null;
  };
  const made = (options.shared ? instantiate(true) : null) ?? instantiate(false);
  if (!made) return null;
  const { module, instance } = made;
  const hamming = instance.exports.hamming as (
    c: number,
    q: number,
    o: number,
    n: number,
    hist: number,
  ) => void;
  const within = instance.exports.within as (
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
  const workerHistogramView = new Int32Array(buffer, workerHistogramAt, slots);
  const destView = new Int32Array(buffer, destAt, count);
  /** The distances in WebAssembly memory now: `outView` after a `run`, or an `out` copied in. */
  let loaded: Uint16Array | null = null;
  let pass = 0;
  let worker: SignWorker | null = null;
  let workerPasses = 0;
  const rows = (row: number, rows: number) =>
    hamming(row * codeBytes, queryAt, outAt + 2 * row, rows, histogramAt);
  const run = (query: Uint8Array, histogram: Int32Array): Uint16Array => {
    queryView.set(query.subarray(0, codeBytes));
    histogramView.fill(0);
    if (worker?.run(count, rows, workerHistogramView)) {
      workerPasses++;
      for (let d = 0; d < slots; d++) histogram[d] = histogramView[d]! + workerHistogramView[d]!;
    } else {
      // One thread (or the worker failed during this pass: every row again, here).
      histogramView.fill(0);
      hamming(0, queryAt, outAt, count, histogramAt);
      histogram.set(histogramView);
    }
    pass++;
    loaded = outView;
    return outView;
  };
  return {
    codes,
    codeBytes,
    run,
    get pass() {
      return pass;
    },
    get threads() {
      return worker ? 2 : 1;
    },
    get workerPasses() {
      return workerPasses;
    },
    startWorker(warn) {
      if (worker) return true;
      worker = startSignWorker(
        module,
        instance.memory,
        { count, codeBytes, queryAt, outAt, histogramAt: workerHistogramAt },
        (message) => {
          worker = null;
          warn(message);
        },
      );
      return worker !== null;
    },
    close() {
      worker?.close();
      worker = null;
    },
    distances(query, out, histogram) {
      out.set(run(query, histogram));
      loaded = out;
    },
    within(distances, from, to, cut, positions) {
      if (distances !== outView && loaded !== distances) {
        outView.set(distances);
        loaded = distances;
        pass++;
      }
      const found = within(outAt, from, to, cut, destAt);
      positions.set(destView.subarray(0, found));
      return found;
    },
  };
}
