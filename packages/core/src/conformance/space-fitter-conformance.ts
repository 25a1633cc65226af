import { describe, expect } from 'vitest';
import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import { InMemoryEmbeddingCache } from '../embedding/embedding-cache.js';
import type { SpaceFitRequest, SpaceFitter } from '../engine/runtime/space-fitter.js';
import type { Tree } from '../tree/tree.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A `SpaceFitter` under test, with a tree it can fit and the base embedder to fit it over. */
export interface SpaceFitterFixture {
  fitter: SpaceFitter;
  /** A tree the fitter fits (its `skip` returns `null` for it). */
  tree: Tree;
  base: Embedder;
  dispose(): Promise<void>;
}

function request(fixture: SpaceFitterFixture, signal = new AbortController().signal): SpaceFitRequest {
  return {
    tree: fixture.tree,
    base: fixture.base,
    embeddingCache: new InMemoryEmbeddingCache(),
    signal,
  };
}

/** The unit vectors of the tree's chunks in `embedder`'s space, through the request's cache. */
async function chunkVectors(fixture: SpaceFitterFixture, embedder: Embedder, fit: SpaceFitRequest) {
  const texts = fixture.tree.chunks.slice(0, 20).map((chunk) => chunk.text);
  return embedTexts(embedder, texts, fit.embeddingCache);
}

/**
 * The behaviour every `SpaceFitter` (`TreeAgentOptions.spaceFitter`) shares: `fit` returns a space
 * that embeds every chunk of the tree into its own dimensions, the same text always to the same
 * vector; a fitter that caches returns the same space from `cached` afterwards (and `null` before);
 * an aborted fit rejects; and a space it fitted is not fitted again (`skip`).
 */
export function describeSpaceFitter(
  name: string,
  open: () => Promise<SpaceFitterFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (SpaceFitter conformance)`, () => {
    const cases = conformanceCases(`SpaceFitter conformance of ${name}`, options);

    cases.test(
      'fit returns a space that embeds every chunk into its dimensions, the same text to the same vector',
      async () => {
        const fixture = await open();
        try {
          expect(fixture.fitter.skip?.(fixture.tree, fixture.base) ?? null).toBeNull();
          const fit = request(fixture);
          const space = await fixture.fitter.fit(fit);
          expect(space.cached).toBe(false);
          expect(space.embedder.id).not.toBe(fixture.base.id);
          expect(space.fitMilliseconds).toBeGreaterThanOrEqual(0);
          const first = await chunkVectors(fixture, space.embedder, fit);
          const again = await chunkVectors(fixture, space.embedder, fit);
          for (const [index, vector] of first.entries()) {
            expect(vector).toHaveLength(space.embedder.dimensions ?? first[0]!.length);
            expect(vector.every(Number.isFinite)).toBe(true);
            expect(vector.some((value) => value !== 0)).toBe(true);
            expect([...again[index]!]).toEqual([...vector]);
          }
        } finally {
          await fixture.dispose();
        }
      },
    );

    cases.test(
      'cached is null before a fit and, after it, the same space read back (cached: true)',
      async () => {
        const fixture = await open();
        try {
          const fit = request(fixture);
          expect(await fixture.fitter.cached(fit)).toBeNull();
          const space = await fixture.fitter.fit(fit);
          const read = await fixture.fitter.cached(request(fixture));
          expect(read).not.toBeNull();
          expect(read!.cached).toBe(true);
          expect(read!.embedder.id).toBe(space.embedder.id);
          expect((await chunkVectors(fixture, read!.embedder, fit)).map((vector) => [...vector])).toEqual(
            (await chunkVectors(fixture, space.embedder, fit)).map((vector) => [...vector]),
          );
        } finally {
          await fixture.dispose();
        }
      },
    );

    cases.test('a fit whose signal is aborted rejects', async () => {
      const fixture = await open();
      try {
        const controller = new AbortController();
        controller.abort(new Error('the tree was replaced'));
        await expect(fixture.fitter.fit(request(fixture, controller.signal))).rejects.toBeDefined();
      } finally {
        await fixture.dispose();
      }
    });

    cases.test('a space it fitted is not fitted again: skip names why', async () => {
      const fixture = await open();
      try {
        if (!fixture.fitter.skip)
          throw new Error(`${name}: implement skip(), or skip this test with a reason.`);
        const space = await fixture.fitter.fit(request(fixture));
        const reason = fixture.fitter.skip(fixture.tree, space.embedder);
        expect(typeof reason).toBe('string');
        expect(reason!.length).toBeGreaterThan(0);
      } finally {
        await fixture.dispose();
      }
    });

    cases.done();
  });
}
