import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { TreeAgentError } from '@treeagent/core';

/** When and where the WAL is copied back into the database file. */
export interface CheckpointOptions {
  /**
   * `background` (default for files): a worker thread with its own connection checkpoints the WAL,
   * so no turn pays for copying pages and the checkpoint's fsyncs. `inline`: SQLite's automatic
   * checkpoint, run by whichever write crosses 1,000 pages of WAL.
   */
  mode?: 'background' | 'inline';
  /**
   * How often the background thread looks at this connection's writes. It checkpoints once a whole
   * interval has passed without a write (the writers paused), or under writes that never pause,
   * every `writesPerCheckpoint` writes. Default 50 ms.
   */
  intervalMs?: number;
  /**
   * Writes after which the thread checkpoints even though the writers have not paused. Default
   * 1,000 (a turn makes two: its lock and its commit; ≈ 4,500 WAL frames, 18 MB with 4 KiB pages).
   */
  writesPerCheckpoint?: number;
  /**
   * WAL frames above which the background thread also waits for a moment without writers
   * (`RESTART`) so the WAL starts over instead of growing under sustained load. Default 4,000
   * (≈ 16 MB with 4 KiB pages).
   */
  restartFrames?: number;
}

/** What the worker reports after each checkpoint (for tests and diagnostics). */
export interface CheckpointReport {
  /** Frames in the WAL when the checkpoint ran. */
  log: number;
  /** Frames copied into the database file so far. */
  checkpointed: number;
  /** Whether the `RESTART` step ran. */
  restarted: boolean;
}

const DEFAULT_INTERVAL_MS = 50;
const DEFAULT_WRITES_PER_CHECKPOINT = 1000;
const DEFAULT_RESTART_FRAMES = 4000;
/** Writes before the thread starts: a database opened for a handful of writes never spawns it. */
export const WRITES_BEFORE_START = 32;

/** What the checkpoint thread remembers between two looks at the count of writes. */
export interface CheckpointLookState {
  /** The count at the previous look. */
  seen: number;
  /** The count at the last checkpoint (-1 before the first: the WAL may hold earlier writes). */
  checkpointedAt: number;
}

/**
 * One look of the checkpoint thread: checkpoint when there are writes since the last checkpoint and
 * either none came since the previous look (the writers paused) or `writesPerCheckpoint` did.
 * Self-contained: the thread runs its source text.
 */
export function decideCheckpoint(
  state: CheckpointLookState,
  count: number,
  writesPerCheckpoint: number,
): { checkpoint: boolean; state: CheckpointLookState } {
  const paused = count === state.seen;
  const pending = count !== state.checkpointedAt;
  const checkpoint = pending && (paused || count - state.checkpointedAt >= writesPerCheckpoint);
  return { checkpoint, state: { seen: count, checkpointedAt: checkpoint ? count : state.checkpointedAt } };
}

/**
 * The worker: its own connection on the file (same `synchronous`), and a PASSIVE checkpoint (copies
 * what no reader needs and never blocks writers) when the writing thread paused for a whole
 * `intervalMs`, or after `writesPerCheckpoint` writes of writers that never pause; then RESTART
 * when the WAL has grown past `restartFrames` because it could not start over by itself.
 *
 * Why at the pauses: a checkpoint's two fsyncs slow the turns that run beside it on a small machine
 * (bench/BEFORE-AFTER.md §13: the SQLite p99 of the engine-overhead benchmark fell from 0.82 ms to
 * 0.47 ms at 200 nodes with the fsyncs off). A checkpoint at a pause is paid by no turn, and one
 * that completes lets the next write start the WAL over, so it stays short.
 *
 * The count of writes is a shared `Int32Array` slot the writing thread increments (no message per
 * write).
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs });
db.pragma('synchronous = ' + workerData.synchronous);
const writes = new Int32Array(workerData.writes);
let closed = false;
let report = workerData.report;
const decide = ${decideCheckpoint.toString()};
// The count at the previous look and at the last checkpoint (-1: the WAL may hold earlier writes).
let state = { seen: Atomics.load(writes, 0), checkpointedAt: -1 };
function checkpoint() {
  try {
    const passive = db.pragma('wal_checkpoint(PASSIVE)')[0];
    let restarted = false;
    if (passive.log >= workerData.restartFrames) {
      db.pragma('wal_checkpoint(RESTART)');
      restarted = true;
    }
    if (report) parentPort.postMessage({ type: 'report', log: passive.log, checkpointed: passive.checkpointed, restarted });
  } catch (error) {
    parentPort.postMessage({ type: 'warning', message: String(error && error.message || error) });
  }
}
function look() {
  if (closed) return;
  const next = decide(state, Atomics.load(writes, 0), workerData.writesPerCheckpoint);
  state = next.state;
  if (next.checkpoint) checkpoint();
}
const timer = setInterval(look, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (typeof message === 'object' && message !== null && 'report' in message) report = message.report;
  if (message === 'close') {
    closed = true;
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
parentPort.postMessage({ type: 'ready' });
`;

export interface WalCheckpointerOptions extends CheckpointOptions {
  file: string;
  synchronous: string;
  busyTimeoutMs: number;
  /** Receives each checkpoint's report while `reporting` is on (tests, diagnostics). */
  onReport?: (report: CheckpointReport) => void;
  /** Whether the thread reports from the start (it posts nothing otherwise). Default false. */
  report?: boolean;
  /** Called when the thread fails: the caller turns SQLite's automatic checkpoint back on. */
  onFailure: (error: Error) => void;
}

/**
 * Runs the WAL checkpoint of one database file on a worker thread. The thread is unref'd (it never
 * keeps the process alive) and stopped by `close`; if it dies, `onFailure` lets the owner fall back
 * to SQLite's automatic checkpoint, so the WAL never grows without bound.
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #writes = new Int32Array(new SharedArrayBuffer(4));
  #closed = false;

  constructor(options: WalCheckpointerOptions) {
    const require = createRequire(import.meta.url);
    this.#worker = new Worker(workerSource, {
      eval: true,
      workerData: {
        driver: require.resolve('better-sqlite3'),
        file: options.file,
        synchronous: options.synchronous,
        busyTimeoutMs: options.busyTimeoutMs,
        intervalMs: options.intervalMs ?? DEFAULT_INTERVAL_MS,
        writesPerCheckpoint: options.writesPerCheckpoint ?? DEFAULT_WRITES_PER_CHECKPOINT,
        writes: this.#writes.buffer,
        restartFrames: options.restartFrames ?? DEFAULT_RESTART_FRAMES,
        report: options.report ?? false,
      },
    });
    this.#worker.unref();
    this.#worker.on('message', (message: { type: string } & CheckpointReport & { message?: string }) => {
      if (message.type === 'report') {
        options.onReport?.({
          log: message.log,
          checkpointed: message.checkpointed,
          restarted: message.restarted,
        });
      }
    });
    const fail = (error: Error) => {
      if (this.#closed) return;
      this.#closed = true;
      options.onFailure(error);
    };
    this.#worker.on('error', fail);
    this.#worker.on('exit', (code) => fail(new Error(`the checkpoint thread exited with code ${code}`)));
  }

  /** Turns the thread's reports on or off (no message per checkpoint when nobody listens). */
  set reporting(on: boolean) {
    if (!this.#closed) this.#worker.postMessage({ report: on });
  }

  /** Counts one write transaction of the writing connection (the thread reads the count). */
  wrote(): void {
    Atomics.add(this.#writes, 0, 1);
  }

  /** Stops the thread; its connection closes. Resolves when the thread has exited. */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    return new Promise((resolve) => {
      this.#worker.once('exit', () => resolve());
      this.#worker.postMessage('close');
    });
  }
}

/** Throws `INVALID_INPUT` naming the option when a number of `options` is not positive. */
export function checkCheckpointOptions(options: CheckpointOptions): void {
  for (const name of ['intervalMs', 'writesPerCheckpoint', 'restartFrames'] as const) {
    const value = options[name];
    if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `checkpoint.${name} must be a positive number; got ${JSON.stringify(value)}.`,
      );
    }
  }
}
