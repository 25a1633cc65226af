import { describe, expect, test } from 'vitest';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import { ChunkIndex, ROWS_IN_FILE_FROM, SIGN_SCAN_FROM } from './chunk-index.js';

/** Deterministic pseudo-random numbers. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

describe('ChunkIndex.similarities', () => {
  test.each([
    ['dense, 7 dimensions', 7, 0, 0, 'rows'],
    ['dense, 384 dimensions', 384, 0, 0, 'rows'],
    ['sparse, 4096 dimensions', 4096, 0.97, 0, 'columns'],
    ['dense 149 then sparse 4096 (a fitted vector with its base part)', 4245, 0.97, 149, 'mixed'],
  ])('equals the plain dot products (%s)', async (_name, dimensions, sparsity, denseFirst, layout) => {
    const next = random(dimensions);
    const vector = () =>
      Array.from({ length: dimensions }, (_, j) => (j >= denseFirst && next() + 0.5 < sparsity ? 0 : next()));
    const texts = Array.from({ length: 23 }, (_, i) => `chunk ${i}`);
    const vectors = Object.fromEntries(texts.map((text) => [text, vector()]));
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'empty', parent: 2, chunks: texts.slice(0, 11) },
        { id: 4, type: 'empty', parent: 2, chunks: texts.slice(11) },
      ],
    });
    const index = await ChunkIndex.build(tree, new ExactEmbedder({ vectors }));
    expect(index.layout).toBe(layout);
    if (layout === 'mixed') expect(index.denseDimensions.length).toBe(denseFirst);
    const raw = vector();
    const norm = Math.hypot(...raw);
    const direction = Float32Array.from(raw, (value) => value / norm);
    const similarities = index.similarities(direction);
    tree.chunks.forEach((chunk, position) => {
      const unit = index.vector(position);
      let dot = 0;
      for (let j = 0; j < dimensions; j++) dot += unit[j]! * direction[j]!;
      expect(similarities[position]).toBeCloseTo(dot, 5);
      expect(unit.length).toBe(dimensions);
      expect(chunk.text).toBe(texts[position]);
    });
  });
});

describe('ChunkIndex.build on a large tree', () => {
  const leafTree = (count: number) =>
    defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'empty', parent: 2, chunks: Array.from({ length: count }, (_, i) => `chunk ${i}`) },
        { id: 4, type: 'empty', parent: 2, chunks: ['last'] },
      ],
    });

  test('packs every chunk, embedded a batch at a time, in chunk order', async () => {
    const next = random(5);
    const tree = leafTree(9000);
    const vectors = Object.fromEntries(
      tree.chunks.map((chunk) => [chunk.text, Array.from({ length: 12 }, () => next())]),
    );
    const embedder = new ExactEmbedder({ vectors });
    const index = await ChunkIndex.build(tree, embedder);
    expect(index.layout).toBe('rows');
    // Each text embedded once (the layout sample first, then the others in batches).
    expect(embedder.calls.flat().sort()).toEqual(tree.chunks.map((chunk) => chunk.text).sort());
    const direction = Float32Array.from({ length: 12 }, (_, j) => (j === 3 ? 1 : 0));
    const similarities = index.similarities(direction);
    tree.chunks.forEach((chunk, position) => {
      const raw = vectors[chunk.text]!;
      expect(similarities[position]).toBeCloseTo(raw[3]! / Math.hypot(...raw), 6);
    });
  });

  test('`auto` keeps sign bits from SIGN_SCAN_FROM chunks on, and leaves a packed file its rows from ROWS_IN_FILE_FROM', async () => {
    const next = random(9);
    const indexOf = (count: number, scan?: 'sign-bits') => {
      // leafTree(n) holds n + 1 chunks.
      const tree = leafTree(count - 1);
      const vectors = Object.fromEntries(
        tree.chunks.map((chunk) => [chunk.text, Array.from({ length: 8 }, () => next())]),
      );
      return ChunkIndex.build(tree, new ExactEmbedder({ vectors }), undefined, scan ? { scan } : {});
    };
    expect(SIGN_SCAN_FROM).toBeLessThan(ROWS_IN_FILE_FROM);
    const below = await indexOf(SIGN_SCAN_FROM - 1);
    expect([below.signBits, below.rowsInFileWhenPacked]).toEqual([false, false]);
    const from = await indexOf(SIGN_SCAN_FROM);
    expect([from.signBits, from.rowsInFileWhenPacked]).toEqual([true, false]);
    const rowsBelow = await indexOf(ROWS_IN_FILE_FROM - 1);
    expect([rowsBelow.signBits, rowsBelow.rowsInFileWhenPacked]).toEqual([true, false]);
    const rowsFrom = await indexOf(ROWS_IN_FILE_FROM);
    expect([rowsFrom.signBits, rowsFrom.rowsInFileWhenPacked]).toEqual([true, true]);
    // Forced sign bits: the rows stay in the file at any size.
    const forced = await indexOf(40, 'sign-bits');
    expect([forced.signBits, forced.rowsInFileWhenPacked]).toEqual([true, true]);
  });

  test('an embedder whose vectors change length between batches fails with EMBEDDER', async () => {
    const tree = leafTree(5000);
    let calls = 0;
    const embedder = {
      id: 'shifty',
      embed: async (texts: readonly string[]) => {
        calls++;
        return texts.map(() => (calls === 1 ? [1, 0, 0] : [1, 0]));
      },
    };
    await expect(ChunkIndex.build(tree, embedder)).rejects.toMatchObject({
      code: 'EMBEDDER',
      message: expect.stringContaining('different lengths (3 and 2)'),
    });
  });
});
