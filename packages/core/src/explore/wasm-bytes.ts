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
  Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
  Instance: new (
    module: WasmModule,
    imports: { env: { memory: WasmMemory } },
  ) => { exports: Record<string, unknown> };
}
// Through `unknown`: with the DOM library (the web app's tests) `WebAssembly` has its own, wider types.
export const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
