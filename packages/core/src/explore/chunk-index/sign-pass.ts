import { createSignKernel, type SignKernel } from '../sign-kernel.js';

/**
 * The sign-bit pass of a `ChunkScan`: one sign bit per dense dimension of each chunk in WebAssembly
 * memory (`sign-kernel.ts`), the Hamming distance of a direction's code to all of them, and the
 * worker thread that may take part in each pass (`sign-worker.ts`), which this pass owns: started
 * by `startWorker`, stopped by `close` or when the pass is collected.
 */
export class SignPass {
  readonly #kernel: SignKernel;
  /** Floats per row of the rows the codes are made from. */
  readonly #stride: number;
  /** The direction's code (scratch). */
  readonly #query: Uint8Array;

  /**
   * Codes for `count` rows of `stride` floats, in shared memory when it is available (so that a
   * worker can take part), or `null` when the kernel cannot run here.
   */
  static create(count: number, stride: number): SignPass | null {
    const kernel = createSignKernel(count, stride, { shared: true });
    return kernel ? new SignPass(kernel, stride) : null;
  }

  private constructor(kernel: SignKernel, stride: number) {
    this.#kernel = kernel;
    this.#stride = stride;
    this.#query = new Uint8Array(kernel.codeBytes);
  }

  /** The codes (`count × codeBytes`), to fill from a file or with `pack`. */
  get codes(): Uint8Array {
    return this.#kernel.codes;
  }

  /** Bits per code: the row length in floats, rounded up; the largest possible Hamming distance. */
  get codeBits(): number {
    return this.#kernel.codeBytes * 8;
  }

  /** Sets the code of `row` from its float32 coordinates (`values[from..from + stride)`). */
  pack(row: number, values: Float32Array, from: number): void {
    packSigns(values, from, this.#stride, this.#kernel.codes, row * this.#kernel.codeBytes);
  }

  /** The distances of `direction` to every code copied into `out`, their histogram into `histogram`. */
  distances(direction: Float32Array, out: Uint16Array, histogram: Int32Array): void {
    this.#kernel.distances(this.#code(direction), out, histogram);
  }

  /** The distances of `direction` to every code as a view of WebAssembly memory (valid while `valid(pass)`). */
  run(direction: Float32Array, histogram: Int32Array): { distances: Uint16Array; pass: number } {
    const distances = this.#kernel.run(this.#code(direction), histogram);
    return { distances, pass: this.#kernel.pass };
  }

  /** Whether the distances of pass `pass` are still the ones in WebAssembly memory. */
  valid(pass: number): boolean {
    return this.#kernel.pass === pass;
  }

  /** The positions in `[from, to)` whose distance is at most `cut`, ascending, into `positions`; how many. */
  within(distances: Uint16Array, from: number, to: number, cut: number, positions: Int32Array): number {
    return this.#kernel.within(distances, from, to, cut, positions);
  }

  /**
   * Starts the worker thread (never keeping the process alive; stopped with this pass when it is
   * collected); false when none can run here. A later failure is reported through `warn`.
   */
  startWorker(warn: (message: string) => void): boolean {
    if (!this.#kernel.startWorker(warn)) return false;
    stopWhenCollected.register(this, this.#kernel);
    return true;
  }

  /** 2 while a worker thread takes part in the passes, else 1. */
  get threads(): 1 | 2 {
    return this.#kernel.threads;
  }

  /** Stops the worker thread, if any (the pass still works, on one thread). */
  close(): void {
    this.#kernel.close();
  }

  #code(direction: Float32Array): Uint8Array {
    this.#query.fill(0);
    packSigns(direction, 0, Math.min(direction.length, this.#stride), this.#query, 0);
    return this.#query;
  }
}

/** Stops the worker thread of a sign-bit pass when the pass is collected (an agent dropped). */
const stopWhenCollected = new FinalizationRegistry<SignKernel>((kernel) => kernel.close());

/** Sets bit `k` of `codes` (from byte `at`) for each `values[from + k] > 0`, `k < length`. */
function packSigns(values: Float32Array, from: number, length: number, codes: Uint8Array, at: number): void {
  for (let k = 0; k < length; k += 8) {
    let byte = 0;
    const end = Math.min(8, length - k);
    for (let b = 0; b < end; b++) if (values[from + k + b]! > 0) byte |= 1 << b;
    codes[at + (k >> 3)] = byte;
  }
}
