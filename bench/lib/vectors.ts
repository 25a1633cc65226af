import type { Embedder, EmbeddingCache } from '../../packages/core/src/adapter/index.js';

/** Deterministic 32-bit PRNG (mulberry32): the same seed gives the same vectors on every run. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Scales `vector` to unit length in place and returns it. */
export function normalizeInPlace(vector: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

/** Fills `out` with a random unit vector (coordinates uniform in [-1, 1], then normalised). */
export function randomUnitInto(out: Float32Array, next: () => number): Float32Array {
  for (let i = 0; i < out.length; i++) out[i] = next() * 2 - 1;
  return normalizeInPlace(out);
}

/** The unit vector of `base + noise · r`, r a random unit vector: a "paraphrase" of `base` (cosine ≈ 1/√(1+noise²)). */
export function nearby(base: Float32Array, noise: number, next: () => number): Float32Array {
  const r = randomUnitInto(new Float32Array(base.length), next);
  const out = new Float32Array(base.length);
  for (let i = 0; i < base.length; i++) out[i] = base[i]! + noise * r[i]!;
  return normalizeInPlace(out);
}

/** Dot product (= cosine for unit vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/**
 * The embedder of the suite: no model, every vector computed beforehand. It returns the vector stored
 * for a text (a Map lookup) or, for texts it has no entry for, asks `generate` (used for the
 * million-chunk trees, whose vectors are derived from the chunk's number instead of being stored
 * twice). Both frameworks embed through the same instance.
 */
export class PrecomputedEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly vectors: Map<string, Float32Array>;
  readonly #generate: ((texts: readonly string[]) => Float32Array[]) | undefined;
  calls = 0;

  constructor(options: {
    dimensions: number;
    vectors?: Map<string, Float32Array>;
    generate?: (texts: readonly string[]) => Float32Array[];
    id?: string;
  }) {
    this.dimensions = options.dimensions;
    this.vectors = options.vectors ?? new Map();
    this.#generate = options.generate;
    this.id = options.id ?? `bench-precomputed:d=${options.dimensions}`;
  }

  embed(texts: readonly string[]): Float32Array[] {
    this.calls++;
    const found = texts.map((text) => this.vectors.get(text));
    if (found.every((vector) => vector !== undefined)) return found as Float32Array[];
    if (!this.#generate) {
      const missing = texts.find((text) => !this.vectors.has(text));
      throw new Error(`no precomputed vector for ${JSON.stringify(missing)}`);
    }
    const missingTexts = texts.filter((_, index) => found[index] === undefined);
    const generated = this.#generate(missingTexts);
    let next = 0;
    return found.map((vector) => vector ?? generated[next++]!);
  }

  /** The stored vector of `text` (throws when there is none). */
  vector(text: string): Float32Array {
    const vector = this.vectors.get(text) ?? this.#generate?.([text])[0];
    if (!vector) throw new Error(`no precomputed vector for ${JSON.stringify(text)}`);
    return vector;
  }
}

/** An embedding cache that keeps nothing: every load embeds again (cheap here, and it halves the memory of the million-chunk tree). */
export class NullEmbeddingCache implements EmbeddingCache {
  async getMany(_modelId: string, texts: readonly string[]): Promise<(Float32Array | undefined)[]> {
    return texts.map(() => undefined);
  }

  async setMany(): Promise<void> {}
}

/**
 * `base` for messages that are new texts every turn: `m3#run-17` gets the vector of `m3`, so the
 * routing work stays the same while every message is a text neither framework saw before.
 */
export function newTextEachTurn(base: PrecomputedEmbedder): PrecomputedEmbedder {
  return new PrecomputedEmbedder({
    dimensions: base.dimensions,
    vectors: base.vectors,
    generate: (texts) => texts.map((text) => base.vector(text.slice(0, text.indexOf('#')))),
  });
}
