import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Embedder } from './embedder.js';
import type { EmbeddingCache } from './embedding-cache.js';

/**
 * Embeds texts through the cache: only texts missing from it reach the embedder, in one batch (an
 * embedder with `cacheable: false` is always asked, its vectors are not stored, and it is handed the
 * cache as `EmbedOptions.cache` for the vectors it derives its own from).
 * Returns unit-length vectors (zero vectors stay zero). Embedder failures and wrong shapes
 * become `EMBEDDER` errors naming the model.
 */
export async function embedTexts(
  embedder: Embedder,
  texts: readonly string[],
  cache?: EmbeddingCache,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  // A non-cacheable embedder keeps nothing here itself: it is handed the cache for what it derives from.
  const handed = embedder.cacheable === false ? cache : undefined;
  if (embedder.cacheable === false) cache = undefined;
  const cached = cache ? await cache.getMany(embedder.id, texts) : texts.map(() => undefined);
  const missing: number[] = [];
  cached.forEach((vector, index) => {
    if (!vector) missing.push(index);
  });
  if (missing.length) {
    const unique = [...new Set(missing.map((index) => texts[index]!))];
    let vectors: ArrayLike<number>[];
    try {
      vectors = await embedder.embed(unique, {
        ...(signal ? { signal } : {}),
        ...(handed ? { cache: handed } : {}),
      });
    } catch (error) {
      throw new TreeAgentError(
        'EMBEDDER',
        `Embedder "${embedder.id}" failed on ${unique.length} text(s): ${(error as Error)?.message ?? error}`,
        {
          cause: error,
        },
      );
    }
    if (!Array.isArray(vectors) || vectors.length !== unique.length) {
      throw new TreeAgentError(
        'EMBEDDER',
        `Embedder "${embedder.id}" returned ${Array.isArray(vectors) ? vectors.length : typeof vectors} vectors for ${unique.length} texts; it must return one vector per text, in order.`,
      );
    }
    const byText = new Map<string, Float32Array>();
    unique.forEach((text, index) => {
      byText.set(text, toUnitVector(vectors[index]!, embedder.id));
    });
    for (const index of missing) cached[index] = byText.get(texts[index]!);
    await cache?.setMany(
      embedder.id,
      [...byText].map(([text, vector]) => ({ text, vector })),
    );
  }
  const dimensions = cached[0]?.length;
  for (const vector of cached) {
    if (vector!.length !== dimensions) {
      throw new TreeAgentError(
        'EMBEDDER',
        `Embedder "${embedder.id}" returned vectors of different lengths (${dimensions} and ${vector!.length}).`,
      );
    }
  }
  return cached as Float32Array[];
}

function toUnitVector(vector: ArrayLike<number>, modelId: string): Float32Array {
  const out = Float32Array.from(vector);
  let norm = 0;
  for (let i = 0; i < out.length; i++) {
    const value = out[i]!;
    if (!Number.isFinite(value))
      throw new TreeAgentError('EMBEDDER', `Embedder "${modelId}" returned a vector with ${value}.`);
    norm += value * value;
  }
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < out.length; i++) out[i]! *= scale;
  }
  return out;
}
