import type { EmbeddingCache } from './embedding-cache.js';

/** Vectors a `RecentEmbeddingCache` keeps by default. 10,000 vectors of 384 floats: about 15 MB. */
export const RECENT_EMBEDDINGS_DEFAULT = 10_000;

/**
 * The cache of what turns embed (messages, directions, retrieval queries) when they are not
 * persisted (`TreeAgentOptions.messageEmbeddings: 'memory'`, the default): the most recently used
 * vectors in process memory, at most `capacity` of them, reading through to the agent's embedding
 * cache (so that a message equal to a chunk's text, or a vector persisted earlier, is found) but
 * never writing to it. A turn then writes nothing for its embedding, and a user's messages leave no
 * vector behind in the embedding cache's file or table.
 */
export class RecentEmbeddingCache implements EmbeddingCache {
  readonly capacity: number;
  readonly #backing: EmbeddingCache;
  /** Insertion order is recency: a hit is moved to the end, the first entry is the oldest. */
  readonly #recent = new Map<string, Float32Array>();

  constructor(backing: EmbeddingCache, capacity = RECENT_EMBEDDINGS_DEFAULT) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new RangeError(`RecentEmbeddingCache: capacity must be a whole number ≥ 0, got ${capacity}.`);
    this.#backing = backing;
    this.capacity = capacity;
  }

  async getMany(modelId: string, texts: readonly string[]): Promise<(Float32Array | undefined)[]> {
    const found = texts.map((text) => this.#touch(key(modelId, text)));
    const missing: number[] = [];
    found.forEach((vector, index) => {
      if (!vector) missing.push(index);
    });
    if (!missing.length) return found;
    const stored = await this.#backing.getMany(
      modelId,
      missing.map((index) => texts[index]!),
    );
    missing.forEach((index, k) => {
      const vector = stored[k];
      if (vector) {
        found[index] = vector;
        this.#remember(key(modelId, texts[index]!), vector);
      }
    });
    return found;
  }

  async setMany(modelId: string, entries: readonly { text: string; vector: Float32Array }[]): Promise<void> {
    for (const entry of entries) this.#remember(key(modelId, entry.text), entry.vector);
  }

  /** Vectors held now. */
  get size(): number {
    return this.#recent.size;
  }

  #touch(k: string): Float32Array | undefined {
    const vector = this.#recent.get(k);
    if (vector) {
      this.#recent.delete(k);
      this.#recent.set(k, vector);
    }
    return vector;
  }

  #remember(k: string, vector: Float32Array): void {
    if (this.capacity === 0) return;
    this.#recent.delete(k);
    this.#recent.set(k, vector);
    if (this.#recent.size > this.capacity) this.#recent.delete(this.#recent.keys().next().value!);
  }
}

function key(modelId: string, text: string): string {
  return `${modelId}\u0000${text}`;
}
