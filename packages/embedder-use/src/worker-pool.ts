import type { Worker } from 'node:worker_threads';
import { startUseWorker } from './start-use-worker.js';
import { WorkerEmbedding } from './worker-embedding.js';

/** How long a worker beyond the first stays loaded with nothing to do (its model holds ≈ 200 MB). */
export const EXTRA_WORKER_IDLE_MILLISECONDS = 30_000;

/**
 * Up to `workers` USE-lite worker threads (`UseEmbedderOptions.workers`), each a `WorkerEmbedding`.
 * A call of more than one batch is split batch by batch over all of them, so loading a large tree
 * uses every core. A call of one batch (a message) goes to the first worker, where the messages that
 * arrive together share a model call: spread over two workers they made smaller batches, which cost
 * USE-lite more CPU per message (CLINC150, 16 at once: 11.4 against 8.3 ms on a loaded machine). The
 * first worker stays; the others close after `idleMilliseconds` without work, so that a server idle
 * after its load holds one model.
 */
export class WorkerPool {
  readonly #batchSize: number;
  readonly #start: () => Worker;
  readonly #idleMilliseconds: number;
  readonly #slots: { embedding: WorkerEmbedding | null; waiting: number; idle: NodeJS.Timeout | null }[];
  /** Workers being ended (after their idle time, or by `close()`). */
  readonly #closing = new Set<Promise<void>>();

  constructor(
    batchSize: number,
    workers: number,
    start: () => Worker = startUseWorker,
    idleMilliseconds = EXTRA_WORKER_IDLE_MILLISECONDS,
  ) {
    this.#batchSize = batchSize;
    this.#start = start;
    this.#idleMilliseconds = idleMilliseconds;
    this.#slots = Array.from({ length: workers }, () => ({ embedding: null, waiting: 0, idle: null }));
  }

  /** The vectors of `texts` in order; `signal` rejects the call with its reason. */
  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    signal?.throwIfAborted();
    if (texts.length === 0) return [];
    if (texts.length <= this.#batchSize || this.#slots.length === 1) return this.#on(0, texts, signal);
    // Batch b goes to worker b mod workers: each worker's share splits into the same batches again.
    const shares = this.#slots.map(() => [] as string[]);
    const owners: number[] = [];
    for (let start = 0, batch = 0; start < texts.length; start += this.#batchSize, batch++) {
      const owner = batch % this.#slots.length;
      shares[owner]!.push(...texts.slice(start, start + this.#batchSize));
      owners.push(owner);
    }
    const answers = await Promise.all(
      shares.map((share, slot) => (share.length ? this.#on(slot, share, signal) : Promise.resolve([]))),
    );
    const taken = answers.map(() => 0);
    const out: number[][] = [];
    for (const owner of owners) {
      const from = taken[owner]!;
      const batch = answers[owner]!.slice(from, from + this.#batchSize);
      taken[owner] = from + batch.length;
      out.push(...batch);
    }
    return out;
  }

  /**
   * Ends every worker (`WorkerEmbedding.close`), those closing after their idle time included; calls
   * still waiting reject. A later `embed` starts new ones.
   */
  async close(): Promise<void> {
    await Promise.all([...this.#slots.map((_, slot) => this.#closeSlot(slot)), ...this.#closing]);
  }

  /** Workers started now (tests). */
  get started(): number {
    return this.#slots.filter((slot) => slot.embedding).length;
  }

  async #on(index: number, texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const slot = this.#slots[index]!;
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    slot.embedding ??= new WorkerEmbedding(this.#batchSize, this.#start);
    slot.waiting += texts.length;
    try {
      return await slot.embedding.embed(texts, signal);
    } finally {
      slot.waiting -= texts.length;
      if (index > 0 && slot.waiting === 0 && slot.embedding) {
        slot.idle = setTimeout(() => void this.#closeSlot(index), this.#idleMilliseconds);
        slot.idle.unref();
      }
    }
  }

  async #closeSlot(index: number): Promise<void> {
    const slot = this.#slots[index]!;
    if (slot.idle) clearTimeout(slot.idle);
    slot.idle = null;
    const embedding = slot.embedding;
    slot.embedding = null;
    if (!embedding) return;
    const closing = embedding.close();
    this.#closing.add(closing);
    try {
      await closing;
    } finally {
      this.#closing.delete(closing);
    }
  }
}
