import { Worker } from 'node:worker_threads';
import type { WasmMemory, WasmModule } from './wasm-bytes.js';

/**
 * A second thread for the sign-bit pass (`sign-kernel.ts`): a worker thread that runs the same
 * Hamming kernel on the same shared WebAssembly memory (the sign bits are not copied), woken with
 * `Atomics.notify` for each pass. The rows are cut into blocks of `BLOCK_ROWS`; both threads take
 * the next block from a shared counter until none is left, each counting distances in a histogram
 * of its own, so a worker that wakes late (a busy machine) only takes fewer blocks: the pass is
 * never slower than on one thread by more than the block the worker is finishing. The main thread
 * then waits (`Atomics.wait`) for the blocks the worker took, and adds the two histograms.
 *
 * A worker that fails (an error, an exit, no answer within `WAIT_MS`) is stopped; the pass that
 * noticed runs again on the main thread, every later pass too, and the failure is reported once
 * through `warn`: never a pass with missing rows.
 */

/** Rows per block (16,384 rows of 48 bytes: 768 KB, about 0.1 ms). */
export const BLOCK_ROWS = 16_384;
/** How long a pass waits for the worker's blocks before running them itself, for good. */
const WAIT_MS = 2000;

/** Slots of the control array (`Int32Array` over a `SharedArrayBuffer`). */
const SEQUENCE = 0;
const STOP = 1;
const NEXT = 2;
const FINISHED = 3;
const READY = 4;
const BLOCKS = 5;
const COUNT = 6;
const CODE_BYTES = 7;
const QUERY_AT = 8;
const OUT_AT = 9;
const HISTOGRAM_AT = 10;
const SLOTS = 16;

/** The worker's program (plain JavaScript, run with `eval`: the same in the sources and the build). */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { module, memory, control } = workerData;
const hamming = new WebAssembly.Instance(module, { env: { memory } }).exports.hamming;
const [SEQUENCE, STOP, NEXT, FINISHED, READY, BLOCKS, COUNT, CODE_BYTES, QUERY_AT, OUT_AT, HISTOGRAM_AT, ROWS] =
  [${SEQUENCE}, ${STOP}, ${NEXT}, ${FINISHED}, ${READY}, ${BLOCKS}, ${COUNT}, ${CODE_BYTES}, ${QUERY_AT}, ${OUT_AT}, ${HISTOGRAM_AT}, ${BLOCK_ROWS}];
let seen = Atomics.load(control, SEQUENCE);
Atomics.store(control, READY, 1);
Atomics.notify(control, READY);
for (;;) {
  Atomics.wait(control, SEQUENCE, seen);
  if (Atomics.load(control, STOP) !== 0) break;
  seen = Atomics.load(control, SEQUENCE);
  const blocks = Atomics.load(control, BLOCKS);
  const count = control[COUNT], codeBytes = control[CODE_BYTES];
  for (let block = Atomics.add(control, NEXT, 1); block < blocks; block = Atomics.add(control, NEXT, 1)) {
    const from = block * ROWS;
    hamming(from * codeBytes, control[QUERY_AT], control[OUT_AT] + 2 * from, Math.min(ROWS, count - from), control[HISTOGRAM_AT]);
    Atomics.add(control, FINISHED, 1);
    Atomics.notify(control, FINISHED);
  }
}
`;

/** The worker threads running now (diagnostics and tests: a test stops one from outside, as a crash would). */
export const liveSignWorkers = new Set<Worker>();

/** The main thread's side of the worker. */
export interface SignWorker {
  /**
   * One pass over `count` rows with the worker's help: `hamming(row, rows)` runs the kernel on the
   * main thread for rows `[row, row + rows)` into the main histogram; the worker's histogram (at
   * `workerHistogram`, zeroed here) receives its rows' counts. Returns false, having done nothing
   * the caller can use, when the worker is not (or no longer) available: the caller then runs the
   * whole pass itself.
   */
  run(count: number, hamming: (row: number, rows: number) => void, workerHistogram: Int32Array): boolean;
  /** Stops the worker (idempotent). */
  close(): void;
}

/**
 * Starts the worker on `module` and the shared `memory` (the kernel's layout: codes of `codeBytes`
 * bytes from 0, the query at `queryAt`, distances at `outAt`, the worker's histogram at
 * `histogramAt`); `null` when a worker thread cannot be started here.
 */
export function startSignWorker(
  module: WasmModule,
  memory: WasmMemory,
  layout: { count: number; codeBytes: number; queryAt: number; outAt: number; histogramAt: number },
  warn: (message: string) => void,
): SignWorker | null {
  if (typeof SharedArrayBuffer === 'undefined' || !(memory.buffer instanceof SharedArrayBuffer)) return null;
  const control = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  control[COUNT] = layout.count;
  control[CODE_BYTES] = layout.codeBytes;
  control[QUERY_AT] = layout.queryAt;
  control[OUT_AT] = layout.outAt;
  control[HISTOGRAM_AT] = layout.histogramAt;
  let worker: Worker;
  try {
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, memory, control } });
  } catch (error) {
    warn(
      `Tree Agent: the sign-bit pass runs on one thread (the worker thread could not start: ${(error as Error).message}).`,
    );
    return null;
  }
  // Never what keeps the process alive.
  worker.unref();
  liveSignWorkers.add(worker);
  let state: 'running' | 'failed' | 'closed' = 'running';
  const fail = (reason: string) => {
    if (state !== 'running') return;
    state = 'failed';
    Atomics.store(control, STOP, 1);
    Atomics.add(control, SEQUENCE, 1);
    Atomics.notify(control, SEQUENCE);
    void worker.terminate().catch(() => {});
    warn(
      `Tree Agent: the sign-bit pass's worker thread ${reason}; exploration goes on with the pass on one thread (same results, slower on large trees). Set exploreThreads: 1 to not start it.`,
    );
  };
  worker.on('error', (error) => fail(`failed (${error.message})`));
  worker.on('exit', (code) => {
    liveSignWorkers.delete(worker);
    fail(`exited (code ${code})`);
  });
  return {
    run(count, hamming, workerHistogram) {
      if (state !== 'running' || Atomics.load(control, READY) !== 1) return false;
      const blocks = Math.ceil(count / BLOCK_ROWS);
      workerHistogram.fill(0);
      Atomics.store(control, BLOCKS, blocks);
      Atomics.store(control, FINISHED, 0);
      Atomics.store(control, NEXT, 0);
      Atomics.add(control, SEQUENCE, 1);
      Atomics.notify(control, SEQUENCE);
      let mine = 0;
      for (let block = Atomics.add(control, NEXT, 1); block < blocks; block = Atomics.add(control, NEXT, 1)) {
        const from = block * BLOCK_ROWS;
        hamming(from, Math.min(BLOCK_ROWS, count - from));
        mine++;
      }
      // The blocks the worker took: wait until it has finished them.
      const expected = blocks - mine;
      const deadline = performance.now() + WAIT_MS;
      for (;;) {
        const finished = Atomics.load(control, FINISHED);
        if (finished === expected) return true;
        const left = deadline - performance.now();
        if (left <= 0 || state !== 'running') break;
        Atomics.wait(control, FINISHED, finished, left);
      }
      fail(`did not finish its part of a pass within ${WAIT_MS} ms`);
      return false;
    },
    close() {
      if (state === 'closed') return;
      const running = state === 'running';
      state = 'closed';
      if (!running) return;
      Atomics.store(control, STOP, 1);
      Atomics.add(control, SEQUENCE, 1);
      Atomics.notify(control, SEQUENCE);
      void worker.terminate().catch(() => {});
    },
  };
}
