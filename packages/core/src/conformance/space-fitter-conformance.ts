import { describe, expect } from 'vitest';
import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import { InMemoryEmbeddingCache } from '../embedding/embedding-cache.js';
import type { FittedSpace, SpaceFitRequest, SpaceFitter } from '../engine/runtime/space-fitter.js';
import type { Tree } from '../tree/tree.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A `SpaceFitter` under test, with a tree it can fit and the base embedder to fit it over. */
export interface SpaceFitterFixture {
  fitter: SpaceFitter;
  /** A tree the fitter fits (its `skip` returns `null` for it). */
  tree: Tree;
  base: Embedder;
  /** `base` is the library's default embedder (`SpaceFitRequest.baseIsDefault`): a fitter may choose another base. */
  baseIsDefault?: boolean;
  dispose(): Promise<void>;
}

function request(fixture: SpaceFitterFixture, signal = new AbortController().signal): SpaceFitRequest {
  return {
    tree: fixture.tree,
    base: fixture.base,
    ...(fixture.baseIsDefault ? { baseIsDefault: true } : {}),
    embeddingCache: new InMemoryEmbeddingCache(),
    signal,
  };
}

/** Every chunk embedded into `embedder`'s dimensions: finite, not all zero. */
async function expectEmbedsChunks(fixture: SpaceFitterFixture, embedder: Embedder, fit: SpaceFitRequest) {
  const vectors = await chunkVectors(fixture, embedder, fit);
  for (const vector of vectors) {
    expect(vector).toHaveLength(embedder.dimensions ?? vectors[0]!.length);
    expect(vector.every(Number.isFinite)).toBe(true);
    expect(vector.some((value) => value !== 0)).toBe(true);
  }
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
 * the interim spaces it hands (`onInterim`) and a cascade's second space embed the chunks too, the
 * interim ones before the fit resolves; an aborted fit rejects; and a space it fitted is not fitted
 * again (`skip`).
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

    cases.test(
      "every space a fit hands — interim ones, the fit, a cascade's second space — embeds the chunks; interim ones come before the fit resolves",
      async () => {
        const fixture = await open();
        try {
          let resolved = false;
          const interims: FittedSpace[] = [];
          const fit: SpaceFitRequest = {
            ...request(fixture),
            onInterim: async (space) => {
              expect(resolved).toBe(false);
              interims.push(space);
            },
          };
          const space = await fixture.fitter.fit(fit);
          resolved = true;
          for (const interim of interims) await expectEmbedsChunks(fixture, interim.embedder, fit);
          await expectEmbedsChunks(fixture, space.embedder, fit);
          if (space.escalation) {
            expect(space.escalation.embedder.id).not.toBe(space.embedder.id);
            expect(space.escalation.margin).toBeGreaterThanOrEqual(0);
            expect(space.escalation.gap).toBeGreaterThanOrEqual(0);
            await expectEmbedsChunks(fixture, space.escalation.embedder, fit);
          }
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
