/** Helpers shared by the hand-assembled WebAssembly kernels (`dot-kernel.ts`, `sign-kernel.ts`). */

/** `value` as an unsigned LEB128 integer. */
export function unsigned(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}

/** A name: its length, then its (ASCII) bytes. */
export function wasmName(text: string): number[] {
  return [...unsigned(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
}

/** A module section: its id, its length, its content. */
export function section(id: number, content: number[]): number[] {
  return [id, ...unsigned(content.length), ...content];
}

/** A vector: its length, then its items. */
export function vector(items: number[][]): number[] {
  return [...unsigned(items.length), ...items.flat()];
}

/** The few WebAssembly APIs used here (the core's compiler settings include no WebAssembly types). */
export type WasmModule = object;
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
export interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number; maximum: number; shared?: boolean }) => WasmMemory;
  Instance: new (
    module: WasmModule,
    imports: { env: { memory: WasmMemory } },
  ) => { exports: Record<string, unknown> };
}
// Through `unknown`: with the DOM library (the web app's tests) `WebAssembly` has its own, wider types.
export const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

const PAGE = 65_536;
/** WebAssembly memory is 32-bit: at most 4 GiB (one page kept free). */
export const MAX_WASM_BYTES = 4 * 2 ** 30 - PAGE;

const compiledModules = new Map<string, WasmModule | null>();

/**
 * The module assembled by `bytes()`, compiled once per `key`, or `null` where WebAssembly (SIMD) is
 * not available: both kernels compile through here.
 */
export function compiledKernel(key: string, bytes: () => Uint8Array): WasmModule | null {
  let module = compiledModules.get(key);
  if (module === undefined) {
    try {
      module = wasm ? new wasm.Module(bytes()) : null;
    } catch {
      module = null;
    }
    compiledModules.set(key, module);
  }
  return module;
}

/**
 * An instance of `module` over a fresh memory of at least `bytes` bytes (fixed size), or `null`
 * when that is more than 32-bit memory holds or the allocation fails.
 */
export function instantiateKernel(
  module: WasmModule,
  bytes: number,
  options: { shared?: boolean } = {},
): { buffer: ArrayBuffer; memory: WasmMemory; exports: Record<string, unknown> } | null {
  if (!wasm || bytes > MAX_WASM_BYTES) return null;
  const pages = Math.max(1, Math.ceil(bytes / PAGE));
  let memory: WasmMemory;
  try {
    memory = new wasm.Memory({ initial: pages, maximum: pages, ...(options.shared ? { shared: true } : {}) });
  } catch {
    return null;
  }
  const instance = new wasm.Instance(module, { env: { memory } });
  return { buffer: memory.buffer, memory, exports: instance.exports };
}

/** One exported function of a kernel module: its name, its type (`0x60 …`), its body (locals first). */
export interface KernelFunction {
  name: string;
  type: number[];
  body: number[];
}

/**
 * A module importing its memory as `env.memory` (`sharedMemory`: a shared memory, which worker
 * threads can run the same kernel on) and exporting `functions` (each with a type of its own): the
 * frame the hand-assembled kernels share.
 */
export function kernelModuleBytes(
  functions: readonly KernelFunction[],
  options: { sharedMemory?: boolean } = {},
): Uint8Array {
  // The imported memory's limits: at least one page; shared memory must declare a maximum (4 GiB).
  const limits = options.sharedMemory ? [0x03, 0x01, ...unsigned(65_536)] : [0x00, 0x01];
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vector(functions.map((fn) => fn.type))),
    ...section(2, vector([[...wasmName('env'), ...wasmName('memory'), 0x02, ...limits]])),
    ...section(3, vector(functions.map((_, k) => unsigned(k)))),
    ...section(7, vector(functions.map((fn, k) => [...wasmName(fn.name), 0x00, ...unsigned(k)]))),
    ...section(10, vector(functions.map((fn) => [...unsigned(fn.body.length), ...fn.body]))),
  ]);
}
