import type { Embedder, EmbeddingVector } from '../embedding/embedder.js';

export interface ExactEmbedderOptions {
  /** The vector of each known text. */
  vectors: Record<string, readonly number[]>;
  /** Vector of texts not in `vectors`. Default: a zero vector (similarity 0 to everything). */
  fallback?: readonly number[] | ((text: string) => readonly number[]);
  id?: string;
}

/**
 * An embedder for tests (mock, labelled as such) that returns exact vectors per text, so that
 * similarities, and therefore routing, are chosen by the test. Records every batch in `calls`.
 *
 * @example
 * const embedder = new ExactEmbedder({ vectors: { pizza: [1, 0], 'vorrei una pizza': [0.9, 0.1] } });
 */
export class ExactEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly calls: string[][] = [];
  readonly #options: ExactEmbedderOptions;

  constructor(options: ExactEmbedderOptions) {
    this.#options = options;
    this.id = options.id ?? 'exact-test-embedder';
    const first = Object.values(options.vectors)[0];
    this.dimensions = first?.length ?? (Array.isArray(options.fallback) ? options.fallback.length : 0);
  }

  embed(texts: readonly string[]): EmbeddingVector[] {
    this.calls.push([...texts]);
    return texts.map((text) => {
      const known = this.#options.vectors[text];
      if (known) return known;
      const { fallback } = this.#options;
      if (typeof fallback === 'function') return fallback(text);
      return fallback ?? new Array<number>(this.dimensions).fill(0);
    });
  }
}
