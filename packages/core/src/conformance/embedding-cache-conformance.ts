import { describe, expect } from 'vitest';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/**
 * Creates a fresh, empty cache for one test, and disposes of it afterwards. `reopen`, when the
 * cache keeps its vectors outside the process, opens a second cache object on the same storage
 * (after the first has written).
 */
export type EmbeddingCacheFactory = () => Promise<{
  cache: EmbeddingCache;
  reopen?: () => Promise<EmbeddingCache>;
  dispose?: () => Promise<void>;
}>;

/**
 * The `EmbeddingCache` conformance suite: every implementation runs it (in memory, files, SQLite).
 * Call it inside a test file: `describeEmbeddingCache('SqliteEmbeddingCache', factory)`.
 */
export function describeEmbeddingCache(
  name: string,
  factory: EmbeddingCacheFactory,
  options: ConformanceOptions = {},
): void {
  const withCache =
    (body: (cache: EmbeddingCache, reopen: (() => Promise<EmbeddingCache>) | undefined) => Promise<void>) =>
    async () => {
      const { cache, reopen, dispose } = await factory();
      try {
        await body(cache, reopen);
      } finally {
        await dispose?.();
      }
    };

  describe(`EmbeddingCache conformance: ${name}`, () => {
    const cases = conformanceCases(`EmbeddingCache conformance of ${name}`, options);

    cases.test(
      'an empty cache answers undefined for every text, one answer per text',
      withCache(async (cache) => {
        expect(await cache.getMany('model@1', ['a', 'b', 'a'])).toEqual([undefined, undefined, undefined]);
        expect(await cache.getMany('model@1', [])).toEqual([]);
      }),
    );

    cases.test(
      'stored vectors come back exactly as float32, in the order asked, with gaps for the missing',
      withCache(async (cache) => {
        await cache.setMany('model@1', [
          { text: 'spedizione', vector: f32([0.1, -0.25, 1 / 3]) },
          { text: 'reso', vector: f32([1e-8, 3.4e38, -0]) },
        ]);
        const got = await cache.getMany('model@1', ['reso', 'nuovo', 'spedizione', 'reso']);
        expect(got).toHaveLength(4);
        expect(got[1]).toBeUndefined();
        for (const vector of [got[0], got[2], got[3]]) expect(vector).toBeInstanceOf(Float32Array);
        expect(Array.from(got[0]!)).toEqual(Array.from(f32([1e-8, 3.4e38, -0])));
        expect(Array.from(got[2]!)).toEqual(Array.from(f32([0.1, -0.25, 1 / 3])));
        expect(Array.from(got[3]!)).toEqual(Array.from(got[0]!));
      }),
    );

    cases.test(
      'vectors are kept per model id: the same text under another model is missing',
      withCache(async (cache) => {
        await cache.setMany('hashed-256@1', [{ text: 'ciao', vector: f32([1, 0]) }]);
        await cache.setMany('use-lite@1', [{ text: 'ciao', vector: f32([0, 1, 0]) }]);
        expect(Array.from((await cache.getMany('hashed-256@1', ['ciao']))[0]!)).toEqual([1, 0]);
        expect(Array.from((await cache.getMany('use-lite@1', ['ciao']))[0]!)).toEqual([0, 1, 0]);
        expect(await cache.getMany('hashed-256@2', ['ciao'])).toEqual([undefined]);
      }),
    );

    cases.test(
      'texts are matched exactly: case, spaces, accents, emoji, empty and very long texts',
      withCache(async (cache) => {
        const texts = [
          'Ciao',
          'ciao',
          'ciao ',
          'perché',
          'perche',
          '🚲 bici',
          '',
          'x'.repeat(20_000),
          'a\nb',
          'a\u0000b',
        ];
        await cache.setMany(
          'model@1',
          texts.map((text, i) => ({ text, vector: f32([i, -i]) })),
        );
        const got = await cache.getMany('model@1', texts);
        expect(got.map((vector) => (vector ? Array.from(vector) : undefined))).toEqual(
          texts.map((_, i) => [i, -i]),
        );
        expect(await cache.getMany('model@1', ['CIAO', 'a b', 'x'.repeat(19_999)])).toEqual([
          undefined,
          undefined,
          undefined,
        ]);
      }),
    );

    cases.test(
      'a large batch (3,000 texts) is stored and answered in order',
      withCache(async (cache) => {
        const texts = Array.from({ length: 3000 }, (_, i) => `chunk number ${i}`);
        await cache.setMany(
          'model@1',
          texts.map((text, i) => ({ text, vector: f32([i, i / 2, 1]) })),
        );
        const asked = [...texts].reverse();
        const got = await cache.getMany('model@1', asked);
        expect(got.every((vector, i) => vector?.[0] === 2999 - i && vector[1] === (2999 - i) / 2)).toBe(true);
      }),
    );

    cases.test(
      'storing a text again with a new vector replaces it',
      withCache(async (cache) => {
        await cache.setMany('model@1', [{ text: 'ciao', vector: f32([1, 0]) }]);
        await cache.setMany('model@1', [{ text: 'ciao', vector: f32([0, 1]) }]);
        expect(Array.from((await cache.getMany('model@1', ['ciao']))[0]!)).toEqual([0, 1]);
      }),
    );

    cases.test(
      'the last vector stored for a text wins, within a batch and across batches, also after reopening',
      withCache(async (cache, reopen) => {
        // An embedder updated without a new id: its new vectors replace the old ones everywhere.
        await cache.setMany('model@1', [
          { text: 'ciao', vector: f32([1, 0]) },
          { text: 'ciao', vector: f32([0, 1]) },
          { text: 'reso', vector: f32([2, 2]) },
        ]);
        expect(Array.from((await cache.getMany('model@1', ['ciao']))[0]!)).toEqual([0, 1]);
        await cache.setMany('model@1', [{ text: 'ciao', vector: f32([0.5, -0.5]) }]);
        await cache.setMany('model@1', [{ text: 'ciao', vector: f32([0.5, -0.5]) }]);
        expect(Array.from((await cache.getMany('model@1', ['ciao']))[0]!)).toEqual([0.5, -0.5]);
        if (!reopen) return;
        const again = await reopen();
        const got = await again.getMany('model@1', ['ciao', 'reso']);
        expect(got.map((vector) => (vector ? Array.from(vector) : undefined))).toEqual([
          [0.5, -0.5],
          [2, 2],
        ]);
      }),
    );

    cases.test(
      'setMany with no entries is a no-op',
      withCache(async (cache) => {
        await cache.setMany('model@1', []);
        expect(await cache.getMany('model@1', ['anything'])).toEqual([undefined]);
      }),
    );

    cases.test(
      'vectors outlive the cache object: a reopened cache answers them',
      withCache(async (cache, reopen) => {
        if (!reopen)
          throw new Error(`${name}: give the factory a reopen function, or skip this test with a reason.`);
        await cache.setMany('model@1', [
          { text: 'spedizione', vector: f32([0.5, 0.25]) },
          { text: 'reso', vector: f32([-1, 2]) },
        ]);
        const again = await reopen();
        const got = await again.getMany('model@1', ['reso', 'spedizione', 'nuovo']);
        expect(got.map((vector) => (vector ? Array.from(vector) : undefined))).toEqual([
          [-1, 2],
          [0.5, 0.25],
          undefined,
        ]);
      }),
    );

    cases.done();
  });
}

function f32(values: number[]): Float32Array {
  return Float32Array.from(values);
}
