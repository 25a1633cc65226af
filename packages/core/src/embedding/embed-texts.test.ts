import { describe, expect, test } from 'vitest';
import { embedTexts } from './embed-texts.js';
import type { Embedder } from './embedder.js';
import { InMemoryEmbeddingCache } from './embedding-cache.js';

function counting(options: { cacheable?: boolean } = {}): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    id: 'counting',
    ...options,
    calls,
    embed(texts) {
      calls.push([...texts]);
      return texts.map((text) => [text.length, 1]);
    },
  };
}

describe('embedTexts', () => {
  test('asks the embedder only for texts missing from the cache, once each, and returns unit vectors', async () => {
    const cache = new InMemoryEmbeddingCache();
    const embedder = counting();
    await embedTexts(embedder, ['a', 'bb'], cache);
    const vectors = await embedTexts(embedder, ['a', 'bb', 'ccc', 'ccc'], cache);
    expect(embedder.calls).toEqual([['a', 'bb'], ['ccc']]);
    for (const vector of vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 6);
    expect(await cache.getMany('counting', ['ccc'])).toEqual([vectors[2]]);
  });

  test('an embedder with cacheable: false is always asked and its vectors are not stored', async () => {
    const cache = new InMemoryEmbeddingCache();
    const embedder = counting({ cacheable: false });
    await embedTexts(embedder, ['a'], cache);
    await embedTexts(embedder, ['a'], cache);
    expect(embedder.calls).toEqual([['a'], ['a']]);
    expect(await cache.getMany('counting', ['a'])).toEqual([undefined]);
  });
});
