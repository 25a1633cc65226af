import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Embedder, EmbeddingVector } from '../embedding/embedder.js';
import { cosineSimilarity } from '../embedding/vector-math.js';
import { rejectionReason } from '../test/rejection.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/**
 * Creates the embedder under test, once for the whole suite (models are slow to load), and
 * disposes of it afterwards.
 */
export type EmbedderFactory = () => Promise<{ embedder: Embedder; dispose?: () => Promise<void> }>;

/** Options of `describeEmbedder`: the skip list and a time limit. */
export interface EmbedderConformanceOptions extends ConformanceOptions {
  /** Time limit of each test, in ms (default vitest's). Local models on small machines need more. */
  timeout?: number;
}

/**
 * The `Embedder` conformance suite: every embedding model runs it (hashed, concatenated, fitted,
 * USE-lite, transformers.js, AI SDK providers). It checks what the engine relies on: one vector per
 * text in order, of one length, finite; a text's vector does not depend on its batch (the
 * embedding cache stores vectors per text); different texts are told apart. Call it inside a test
 * file: `describeEmbedder('HashedEmbedder', async () => ({ embedder: new HashedEmbedder() }))`.
 */
export function describeEmbedder(
  name: string,
  factory: EmbedderFactory,
  options: EmbedderConformanceOptions = {},
): void {
  describe(`Embedder conformance: ${name}`, () => {
    let embedder: Embedder;
    let dispose: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ embedder, dispose } = await factory());
    }, options.timeout);
    afterAll(async () => {
      await dispose?.();
    }, options.timeout);

    const cases = conformanceCases(`Embedder conformance of ${name}`, options);
    const test = (title: string, body: () => Promise<void>) => cases.test(title, body, options.timeout);

    test('describes itself: a stable, non-empty id; dimensions, when given, a positive integer', async () => {
      const id = embedder.id;
      expect(typeof id).toBe('string');
      expect(id.length).toBeGreaterThan(0);
      // The id keys the embedding cache: loading the model must not change it.
      await embed(TEXTS);
      expect(embedder.id).toBe(id);
      if (embedder.dimensions !== undefined) {
        expect(Number.isInteger(embedder.dimensions) && embedder.dimensions > 0).toBe(true);
      }
    });

    test('one finite vector per text, in order, all of one length (its dimensions)', async () => {
      const vectors = await embed(TEXTS);
      expect(vectors).toHaveLength(TEXTS.length);
      const length = vectors[0]!.length;
      expect(length).toBeGreaterThan(0);
      for (const vector of vectors) {
        expect(vector.length).toBe(length);
        expect(Array.from(vector).every(Number.isFinite)).toBe(true);
        expect(Array.from(vector).some((value) => value !== 0)).toBe(true);
      }
      if (embedder.dimensions !== undefined) expect(embedder.dimensions).toBe(length);
      // In order: each vector is the one of its own text.
      for (const [i, text] of TEXTS.entries())
        expect(similarity((await embed([text]))[0]!, vectors[i]!)).toBeGreaterThan(0.9999);
    });

    test('an empty batch gives no vectors', async () => {
      expect(await embed([])).toEqual([]);
    });

    test('a text gets the same vector alone, repeated, and anywhere in a larger batch', async () => {
      const [alone] = await embed([TEXTS[0]!]);
      const batch = await embed([
        TEXTS[2]!,
        TEXTS[0]!,
        TEXTS[1]!,
        TEXTS[0]!,
        ...Array.from({ length: 12 }, (_, i) => `filler ${i}`),
      ]);
      const again = await embed([TEXTS[0]!]);
      for (const vector of [batch[1]!, batch[3]!, again[0]!]) {
        expect(vector.length).toBe(alone!.length);
        expect(similarity(vector, alone!)).toBeGreaterThan(0.9999);
      }
    });

    test('different texts get different vectors', async () => {
      const vectors = await embed(TEXTS);
      for (let i = 0; i < vectors.length; i++)
        for (let j = i + 1; j < vectors.length; j++)
          expect(similarity(vectors[i]!, vectors[j]!)).toBeLessThan(0.99);
    });

    test('a reworded text is closer than an unrelated one', async () => {
      const [question, reworded, unrelated] = await embed([
        'how much does shipping to Milan cost',
        'shipping cost to Milan, how much is it?',
        'I forgot the password of my account',
      ]);
      expect(similarity(question!, reworded!)).toBeGreaterThan(similarity(question!, unrelated!));
    });

    test('accents, emoji, line breaks and a very long text embed to finite vectors', async () => {
      const odd = [
        'perché è così caro?',
        'bici 🚲 elettrica',
        'riga uno\nriga due\ttab',
        'parola '.repeat(3000),
      ];
      const vectors = await embed(odd);
      const length = (await embed([TEXTS[0]!]))[0]!.length;
      expect(vectors).toHaveLength(odd.length);
      for (const vector of vectors) {
        expect(vector.length).toBe(length);
        expect(Array.from(vector).every(Number.isFinite)).toBe(true);
        expect(Array.from(vector).some((value) => value !== 0)).toBe(true);
      }
    });

    test('an aborted signal rejects the call with its reason', async () => {
      const controller = new AbortController();
      const reason = new Error('the turn was cancelled');
      controller.abort(reason);
      const error = await rejectionReason(
        Promise.resolve().then(() => embedder.embed(TEXTS, { signal: controller.signal })),
      );
      expect([error, (error as { cause?: unknown } | null)?.cause]).toContain(reason);
    });

    cases.done();

    async function embed(texts: readonly string[]): Promise<EmbeddingVector[]> {
      return embedder.embed(texts);
    }
  });
}

/** Sentences of different topics, with few words in common. */
const TEXTS = [
  'how much does shipping cost',
  'I want to return a broken helmet',
  'opening hours of the shop on Sunday',
];

function similarity(a: EmbeddingVector, b: EmbeddingVector): number {
  return cosineSimilarity(a, b);
}
