import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** When and where the WAL is copied back into the database file. */
export interface CheckpointOptions {
  /**
   * `background` (default for files): a worker thread with its own connection checkpoints the WAL,
   * so no turn pays for copying pages and the checkpoint's fsync. `inline`: SQLite's automatic
   * checkpoint, run by whichever write crosses 1,000 pages of WAL.
   */
  mode?: 'background' | 'inline';
  /** How often the background thread checkpoints. Default 200 ms. */
  intervalMs?: number;
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

const DEFAULT_INTERVAL_MS = 200;
const DEFAULT_RESTART_FRAMES = 4000;
/** Writes before the thread starts: a database opened for a handful of writes never spawns it. */
export const WRITES_BEFORE_START = 32;
/** Write transactions between two requested checkpoints (≈ SQLite's 1,000-page threshold for short turns). */
export const WRITES_PER_CHECKPOINT = 100;

/**
 * The worker: its own connection on the file (same `synchronous`), a PASSIVE checkpoint every
 * `intervalMs` (copies what no reader needs and never blocks writers), and RESTART when the WAL has
 * grown past `restartFrames` because writers never paused long enough for it to start over.
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs });
db.pragma('synchronous = ' + workerData.synchronous);
let closed = false;
let report = workerData.report;
function tick() {
  if (closed) return;
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
const timer = setInterval(tick, workerData.intervalMs);
let pending = false;
parentPort.on('message', (message) => {
  if (typeof message === 'object' && message !== null && 'report' in message) report = message.report;
  if (message === 'checkpoint' && !pending) {
    // Requests that arrive during a checkpoint collapse into one.
    pending = true;
    setImmediate(() => { pending = false; tick(); });
  }
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

  /** Asks for a checkpoint now (besides the periodic ones). */
  checkpointSoon(): void {
    if (!this.#closed) this.#worker.postMessage('checkpoint');
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
