import type { Worker } from 'node:worker_threads';
import type { TreeAgentError } from '@treeagent/core';
import { startUseWorker } from './start-use-worker.js';
import {
  batchFailed,
  closedWhileEmbedding,
  workerCannotLoad,
  workerCannotStart,
  workerExited,
  workerFailed,
} from './worker-errors.js';
import { USE_DIMENSIONS, type WorkerAnswer, type WorkerRequest } from './worker-protocol.js';

/** One `embed` call: its batches, the vectors received so far, and how it ends. */
interface Job {
  readonly batches: readonly string[][];
  readonly texts: number;
  /** The next batch to post. */
  next: number;
  readonly vectors: number[][];
  settled: boolean;
  resolve(vectors: number[][]): void;
  reject(error: unknown): void;
}

/** One call's share of a batch in flight: how many of the batch's rows are its, in order. */
interface Part {
  readonly job: Job;
  readonly count: number;
}

/** A started worker and the one batch it is computing. */
interface Running {
  readonly worker: Worker;
  /** The batch posted, made of the next batch of one call or more (`#pump` joins small ones). */
  inFlight: { id: number; parts: Part[] } | null;
  /** Whether it has answered once (a failure before that is a failure to start). */
  answered: boolean;
}

/**
 * How long `close()` waits for the worker to end itself (the model loading or the batch being
 * computed let finish, then released) before it terminates the thread anyway.
 */
const CLOSE_WAIT_MS = 30_000;

/** Resolves true once `worker` has exited, false after `ms` if it has not. */
function exitWithin(worker: Worker, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (exited: boolean) => {
      clearTimeout(timer);
      worker.off('exit', onExit);
      resolve(exited);
    };
    const onExit = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    worker.once('exit', onExit);
  });
}

/** The worker threads in use, until they exit or are closed (tests stop one from outside, as a crash would). */
export const liveUseWorkers = new Set<Worker>();

/**
 * USE-lite in a worker thread, the main thread's side: started on the first `embed`, one worker per
 * instance. Each call is split into batches; one batch at a time is posted (texts) and answered
 * (the vectors, transferred), and calls take turns batch by batch, so a message waits for at most
 * the batch being computed, not for a whole load. Calls waiting together share one batch while
 * their next batches fit in `batchSize`: concurrent messages (one text each) are embedded in one
 * model call, which costs USE-lite far less per text than one call each. The worker keeps the process alive only while a
 * call waits for it or a batch is being computed. A worker that cannot start, crashes or exits rejects every call it held with
 * an `EMBEDDER` error; the next call starts a new one.
 */
export class WorkerEmbedding {
  readonly #batchSize: number;
  readonly #start: () => Worker;
  readonly #closeWaitMs: number;
  #running: Running | null = null;
  /** Calls with batches left to post, in turn (the one in flight rejoins the end once answered). */
  #waiting: Job[] = [];
  #lastId = 0;
  /** Workers `close()` is ending (a second `close()` waits for them too). */
  readonly #ending = new Set<Promise<void>>();

  /**
   * `start`: how the worker thread is started (tests start fake ones); `closeWaitMs`: how long
   * `close()` waits for the worker to end itself before terminating it.
   */
  constructor(batchSize: number, start: () => Worker = startUseWorker, closeWaitMs = CLOSE_WAIT_MS) {
    this.#batchSize = batchSize;
    this.#start = start;
    this.#closeWaitMs = closeWaitMs;
  }

  /** The vectors of `texts` in order; `signal` rejects the call with its reason (a late answer is dropped). */
  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted();
    if (texts.length === 0) return [];
    const running = this.#ensureWorker();
    const batches: string[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize)
      batches.push(texts.slice(start, start + this.#batchSize));
    return new Promise<number[][]>((resolve, reject) => {
      const abort = () => this.#finish(job, () => reject(signal!.reason));
      const job: Job = {
        batches,
        texts: texts.length,
        next: 0,
        vectors: [],
        settled: false,
        resolve: (vectors) => {
          signal?.removeEventListener('abort', abort);
          resolve(vectors);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', abort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.#waiting.push(job);
      this.#pump(running);
    });
  }

  /**
   * Ends the worker; calls still waiting reject. A later `embed` starts a new worker. The worker is
   * asked to end itself (`CloseRequest`) and waited for: the model loading or the batch being
   * computed finishes first, since ONNX Runtime aborts the whole process when its thread is
   * terminated during a native call. Only a worker that has not ended after `closeWaitMs` is
   * terminated.
   */
  async close(): Promise<void> {
    const running = this.#running;
    if (running) {
      this.#running = null;
      this.#rejectAll(running, closedWhileEmbedding);
      const ending = this.#end(running.worker);
      this.#ending.add(ending);
      void ending.finally(() => this.#ending.delete(ending));
    }
    await Promise.all(this.#ending);
  }

  async #end(worker: Worker): Promise<void> {
    // Held until it has ended: the process must not exit (terminating it) in a native call.
    worker.ref();
    const exited = exitWithin(worker, this.#closeWaitMs);
    worker.postMessage({ type: 'close' } satisfies WorkerRequest);
    if (!(await exited)) await worker.terminate();
    liveUseWorkers.delete(worker);
  }

  #ensureWorker(): Running {
    if (this.#running) return this.#running;
    let worker: Worker;
    try {
      worker = this.#start();
    } catch (error) {
      throw workerCannotStart(error);
    }
    const running: Running = { worker, inFlight: null, answered: false };
    this.#running = running;
    liveUseWorkers.add(worker);
    worker.on('message', (answer: WorkerAnswer) => this.#receive(running, answer));
    worker.on('error', (error: Error) =>
      this.#fail(running, running.answered ? workerFailed(error) : () => workerCannotStart(error)),
    );
    worker.on('exit', (code: number) => {
      liveUseWorkers.delete(worker);
      this.#fail(running, workerExited(code));
    });
    return running;
  }

  /** Posts the next batch (of the call whose turn it is) when the worker is free. */
  #pump(running: Running): void {
    if (this.#running !== running) return;
    if (!running.inFlight && this.#waiting.length) {
      const texts: string[] = [];
      const parts: Part[] = [];
      // The head call's next batch, then those of the calls behind it while the batch has room.
      while (this.#waiting.length) {
        const job = this.#waiting[0]!;
        const batch = job.batches[job.next]!;
        if (parts.length && texts.length + batch.length > this.#batchSize) break;
        this.#waiting.shift();
        job.next++;
        texts.push(...batch);
        parts.push({ job, count: batch.length });
      }
      const id = ++this.#lastId;
      running.inFlight = { id, parts };
      running.worker.postMessage({ type: 'batch', id, texts } satisfies WorkerRequest);
    }
    this.#holdProcess(running);
  }

  #receive(running: Running, answer: WorkerAnswer): void {
    if (this.#running !== running) return;
    running.answered = true;
    const inFlight = running.inFlight;
    if (!inFlight || inFlight.id !== answer.id) return;
    if (answer.type === 'error' && answer.stage === 'load') {
      this.#fail(running, () => workerCannotLoad(answer.message));
      return;
    }
    running.inFlight = null;
    let row = 0;
    for (const { job, count } of inFlight.parts) {
      const first = row;
      row += count;
      // An aborted call's answer is dropped.
      if (job.settled) continue;
      if (answer.type === 'error') {
        this.#finish(job, () => job.reject(batchFailed(answer.message, job.texts)));
        continue;
      }
      for (let index = first; index < row; index++)
        job.vectors.push(
          Array.from(answer.vectors.subarray(index * USE_DIMENSIONS, (index + 1) * USE_DIMENSIONS)),
        );
      if (job.vectors.length === job.texts) this.#finish(job, () => job.resolve(job.vectors));
      // Its next batch after the calls that came meanwhile: a message waits for one batch of a load.
      else this.#waiting.push(job);
    }
    this.#pump(running);
  }

  /** The worker is of no use: every call it held rejects, and the next `embed` starts another. */
  #fail(running: Running, error: (texts: number) => TreeAgentError<'EMBEDDER'>): void {
    if (this.#running !== running) return;
    this.#running = null;
    this.#rejectAll(running, error);
    liveUseWorkers.delete(running.worker);
    // Safe to terminate: the thread is ending already, or idle after its answer that it cannot load.
    void running.worker.terminate().catch(() => {});
  }

  #rejectAll(running: Running, error: (texts: number) => TreeAgentError<'EMBEDDER'>): void {
    const jobs = new Set(this.#waiting);
    for (const part of running.inFlight?.parts ?? []) jobs.add(part.job);
    running.inFlight = null;
    this.#waiting = [];
    for (const job of jobs) this.#finish(job, () => job.reject(error(job.texts)));
  }

  #finish(job: Job, outcome: () => void): void {
    if (job.settled) return;
    job.settled = true;
    this.#waiting = this.#waiting.filter((waiting) => waiting !== job);
    outcome();
    if (this.#running) this.#holdProcess(this.#running);
  }

  /**
   * Refs the worker while a call waits for it, so that `await embed(…)` in a script gets its answer,
   * and while it computes a batch even if every call of it was aborted: a process that exited then
   * would terminate the worker in the middle of ONNX Runtime's call, which aborts the process.
   */
  #holdProcess(running: Running): void {
    if (this.#waiting.length > 0 || running.inFlight !== null) running.worker.ref();
    else running.worker.unref();
  }
}
