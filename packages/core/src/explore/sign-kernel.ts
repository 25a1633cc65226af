import { section, unsigned, vector, type WasmMemory, wasm, wasmName } from './wasm-bytes.js';

/**
 * A tiny WebAssembly SIMD kernel (hand-assembled, no toolchain): the Hamming distance of one code
 * (one bit per dimension) to every row of a matrix of codes, 16 bytes per iteration.
 *
 * ```wat
 * (func (export "hamming") (param $c i32) (param $q i32) (param $o i32) (param $n i32) (param $bytes i32)
 *   (local $j i32) (local $acc v128)
 *   block  (br_if 0 (i32.eqz $n))
 *     loop $rows
 *       $acc = 0; $j = 0
 *       loop $cols
 *         $acc = i8x16.add($acc, i8x16.popcnt(v128.xor(load($c + $j), load($q + $j))))
 *         $j += 16; br_if $cols ($j < $bytes)
 *       end
 *       $acc = i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u($acc))
 *       i32.store16($o, lane 0 + lane 1 + lane 2 + lane 3)
 *       $o += 2; $c += $bytes; br_if $rows (--$n)
 *     end
 *   end)
 * ```
 *
 * `$bytes` is the code length in bytes, a multiple of 16; the per-byte counts add up in 8 bits, so a
 * code has at most `MAX_CODE_BYTES` bytes (31 iterations of at most 8 differing bits per lane).
 */

const SIMD = 0xfd;
const V128_LOAD = [SIMD, 0x00];
const V128_CONST = [SIMD, 0x0c];
const V128_XOR = [SIMD, 0x51];
const I8X16_POPCNT = [SIMD, 0x62];
const I8X16_ADD = [SIMD, 0x6e];
const I16X8_EXTADD_PAIRWISE_I8X16_U = [SIMD, 0x7d];
const I32X4_EXTADD_PAIRWISE_I16X8_U = [SIMD, 0x7f];
const I32X4_EXTRACT_LANE = [SIMD, 0x1b];
const LOCAL_GET = 0x20;
const LOCAL_SET = 0x21;
const LOCAL_TEE = 0x22;
const I32_ADD = 0x6a;

/** The longest code the kernel handles: 31 blocks of 16 bytes (3,968 dimensions). */
export const MAX_CODE_BYTES = 31 * 16;

function kernelBytes(): Uint8Array {
  const [C, Q, O, N, BYTES, J, ACC] = [0, 1, 2, 3, 4, 5, 6];
  const body: number[] = [];
  body.push(0x02, 0x40); // block
  body.push(LOCAL_GET, N, 0x45, 0x0d, 0x00); // br_if 0 (n == 0)
  body.push(0x03, 0x40); // loop $rows
  body.push(...V128_CONST, ...new Array(16).fill(0), LOCAL_SET, ACC);
  body.push(0x41, 0x00, LOCAL_SET, J); // j = 0
  body.push(0x03, 0x40); // loop $cols
  body.push(LOCAL_GET, ACC);
  body.push(LOCAL_GET, C, LOCAL_GET, J, I32_ADD, ...V128_LOAD, 0x04, 0x00);
  body.push(LOCAL_GET, Q, LOCAL_GET, J, I32_ADD, ...V128_LOAD, 0x04, 0x00);
  body.push(...V128_XOR, ...I8X16_POPCNT, ...I8X16_ADD, LOCAL_SET, ACC);
  body.push(LOCAL_GET, J, 0x41, 0x10, I32_ADD, LOCAL_TEE, J); // j += 16
  body.push(LOCAL_GET, BYTES, 0x49, 0x0d, 0x00); // br_if $cols (j < bytes)
  body.push(0x0b); // end $cols
  body.push(LOCAL_GET, O);
  body.push(
    LOCAL_GET,
    ACC,
    ...I16X8_EXTADD_PAIRWISE_I8X16_U,
    ...I32X4_EXTADD_PAIRWISE_I16X8_U,
    LOCAL_TEE,
    ACC,
  );
  body.push(...I32X4_EXTRACT_LANE, 0, LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE, 1, I32_ADD);
  body.push(LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE, 2, LOCAL_GET, ACC, ...I32X4_EXTRACT_LANE, 3, I32_ADD);
  body.push(I32_ADD, 0x3b, 0x01, 0x00); // i32.add; i32.store16 align=2 offset=0
  body.push(LOCAL_GET, O, 0x41, 0x02, I32_ADD, LOCAL_SET, O); // o += 2
  body.push(LOCAL_GET, C, LOCAL_GET, BYTES, I32_ADD, LOCAL_SET, C); // c += bytes
  body.push(LOCAL_GET, N, 0x41, 0x01, 0x6b, LOCAL_TEE, N, 0x0d, 0x00); // br_if $rows (--n)
  body.push(0x0b, 0x0b); // end $rows, end block
  body.push(0x0b); // end func
  const locals = [
    [1, 0x7f],
    [1, 0x7b],
  ];
  const func = [...vector(locals.map(([count, type]) => [...unsigned(count!), type!])), ...body];
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vector([[0x60, 5, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0]])),
    ...section(2, vector([[...wasmName('env'), ...wasmName('memory'), 0x02, 0x00, 0x01]])),
    ...section(3, vector([[0]])),
    ...section(7, vector([[...wasmName('hamming'), 0x00, 0x00]])),
    ...section(10, vector([[...unsigned(func.length), ...func]])),
  ]);
}

let compiled: object | null | undefined;

/** The compiled kernel, or `null` where WebAssembly SIMD is not available. */
function kernelModule(): object | null {
  if (compiled === undefined) {
    try {
      compiled = wasm ? new wasm.Module(kernelBytes()) : null;
    } catch {
      compiled = null;
    }
  }
  return compiled;
}

const PAGE = 65_536;
const MAX_BYTES = 4 * 2 ** 30 - PAGE;

/**
 * A matrix of `count` codes of `codeBytes` bytes each (one bit per dimension, zero-padded to a
 * multiple of 16 bytes) living in WebAssembly memory, with the kernel bound to it. `codes` is the
 * matrix itself, to fill before calling `distances`.
 */
export interface SignKernel {
  readonly codes: Uint8Array;
  readonly codeBytes: number;
  /** Writes the Hamming distance of `query` (a code of `codeBytes` bytes) to every row into `out`, in row order. */
  distances(query: Uint8Array, out: Uint16Array): void;
}

/** A `SignKernel` for `count` codes of `bits` bits, or `null` (no SIMD, too long, too large). */
export function createSignKernel(count: number, bits: number): SignKernel | null {
  const module = kernelModule();
  const codeBytes = Math.ceil(bits / 128) * 16;
  if (!module || !wasm || count === 0 || bits === 0 || codeBytes > MAX_CODE_BYTES) return null;
  const queryAt = count * codeBytes;
  const outAt = queryAt + codeBytes;
  const total = outAt + count * 2;
  if (total > MAX_BYTES) return null;
  const pages = Math.ceil(total / PAGE);
  let memory: WasmMemory;
  try {
    memory = new wasm.Memory({ initial: pages, maximum: pages });
  } catch {
    return null;
  }
  const instance = new wasm.Instance(module, { env: { memory } });
  const run = instance.exports['hamming'] as (
    c: number,
    q: number,
    o: number,
    n: number,
    bytes: number,
  ) => void;
  const buffer = memory.buffer;
  const codes = new Uint8Array(buffer, 0, count * codeBytes);
  const queryView = new Uint8Array(buffer, queryAt, codeBytes);
  const outView = new Uint16Array(buffer, outAt, count);
  return {
    codes,
    codeBytes,
    distances(query, out) {
      queryView.set(query.subarray(0, codeBytes));
      run(0, queryAt, outAt, count, codeBytes);
      out.set(outView);
    },
  };
}
