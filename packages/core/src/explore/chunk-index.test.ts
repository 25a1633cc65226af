import { describe, expect, test } from 'vitest';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import { ChunkIndex } from './chunk-index.js';

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
