import type { EmbeddingCache } from './embedding-cache.js';

/**
 * The contract every embedding model implements. Vectors are compared by cosine similarity,
 * so they need not be normalised; the engine normalises them once when it stores them.
 *
 * @example
 * const embedder: Embedder = { id: 'my-model@1', dimensions: 3, embed: async (texts) => texts.map(() => [1, 0, 0]) };
 */
export interface Embedder {
  /** Stable identifier of the model and its configuration; keys the embedding cache. */
  readonly id: string;
  /** Length of the vectors, when known before the first call. */
  readonly dimensions?: number | undefined;
  /**
   * `false`: the engine does not keep this embedder's vectors in the embedding cache, because they
   * are cheap to derive from vectors cached elsewhere (a fitted embedder over a cached base).
   * Default: cached.
   */
  readonly cacheable?: boolean;
  /** Embeds a batch of texts, one vector per text, in order. */
  embed(texts: readonly string[], options?: EmbedOptions): Promise<EmbeddingVector[]> | EmbeddingVector[];
}

/** A vector as an embedder returns it. */
export type EmbeddingVector = Float32Array | readonly number[];

export interface EmbedOptions {
  /** Aborts a long embedding call (remote models). */
  signal?: AbortSignal;
  /**
   * The cache the caller embeds through, given to an embedder with `cacheable: false` (by
   * `embedTexts`): one that derives its vectors from another embedder's (a fitted embedder over its
   * base) keeps those vectors there and nowhere else, so that what the caller does not persist — a
   * turn's message, with `messageEmbeddings: 'memory'` — is not persisted.
   */
  cache?: EmbeddingCache;
}
