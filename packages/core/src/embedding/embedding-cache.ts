/**
 * Stores embeddings by model id and text, so chunks are embedded once, not on every load.
 * Persistent implementations (SQLite, files) let restarts and re-deploys skip re-embedding.
 */
export interface EmbeddingCache {
  /** Cached vectors for `texts` under `modelId`, `undefined` where missing. */
  getMany(modelId: string, texts: readonly string[]): Promise<(Float32Array | undefined)[]>;
  /**
   * Stores vectors under `modelId`. The last vector stored for a text is the one `getMany` answers,
   * within a batch and across batches and restarts: an embedder updated without a new id replaces
   * its old vectors instead of serving them (every implementation passes `describeEmbeddingCache`).
   */
  setMany(modelId: string, entries: readonly { text: string; vector: Float32Array }[]): Promise<void>;
  /**
   * A directory beside the cache's own storage where the agent may keep packed index files
   * (`TreeAgentOptions.indexDirectory`): persistent caches name one, in-memory ones none.
   */
  readonly indexDirectory?: string | undefined;
}

/** An embedding cache in process memory. */
export class InMemoryEmbeddingCache implements EmbeddingCache {
  readonly #vectors = new Map<string, Float32Array>();

  async getMany(modelId: string, texts: readonly string[]): Promise<(Float32Array | undefined)[]> {
    return texts.map((text) => this.#vectors.get(key(modelId, text)));
  }

  async setMany(modelId: string, entries: readonly { text: string; vector: Float32Array }[]): Promise<void> {
    for (const entry of entries) this.#vectors.set(key(modelId, entry.text), entry.vector);
  }

  get size(): number {
    return this.#vectors.size;
  }
}

function key(modelId: string, text: string): string {
  return `${modelId}\u0000${text}`;
}
