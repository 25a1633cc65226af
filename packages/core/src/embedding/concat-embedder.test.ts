import { describe, expect, test } from 'vitest';
import { describeEmbedder } from '../conformance/embedder-conformance.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { ConcatEmbedder } from './concat-embedder.js';
import { HashedEmbedder } from './hashed-embedder.js';
import { cosineSimilarity } from './vector-math.js';

describe('ConcatEmbedder', () => {
  const a = new ExactEmbedder({ id: 'a', vectors: { x: [1, 0], y: [0, 1] } });
  const b = new ExactEmbedder({ id: 'b', vectors: { x: [3, 0, 0], y: [3, 0, 0] } });

  test('the similarity of the combination is the weighted mean of the parts', async () => {
    const equal = new ConcatEmbedder([a, b]);
    const [x, y] = await equal.embed(['x', 'y']);
    // part a: cos 0, part b: cos 1 → mean 0.5
    expect(cosineSimilarity(x!, y!)).toBeCloseTo(0.5, 6);
    const weighted = new ConcatEmbedder([
      { embedder: a, weight: 3 },
      { embedder: b, weight: 1 },
    ]);
    const [wx, wy] = await weighted.embed(['x', 'y']);
    expect(cosineSimilarity(wx!, wy!)).toBeCloseTo(0.25, 6);
  });

  test('its id names every part and weight, and its dimensions add up', () => {
    const combined = new ConcatEmbedder([{ embedder: a, weight: 2 }, b]);
    expect(combined.id).toBe('concat(a*2,b*1)');
    expect(combined.dimensions).toBe(5);
  });

  test('rejects no parts and non-positive weights', () => {
    expect(() => new ConcatEmbedder([])).toThrow(/at least one/);
    expect(() => new ConcatEmbedder([{ embedder: a, weight: 0 }])).toThrow(/positive/);
  });
});

describeEmbedder(
  'ConcatEmbedder (word and character hashed embedders, weighted)',
  async () => ({
    embedder: new ConcatEmbedder([
      { embedder: new HashedEmbedder({ dimensions: 256, charNgrams: false }), weight: 1 },
      { embedder: new HashedEmbedder({ dimensions: 512, wordNgrams: false }), weight: 2 },
    ]),
  }),
  {
    skip: [
      {
        reason: 'its parts are local and synchronous: they answer before a signal could abort anything',
        tests: ['an aborted signal rejects the call with its reason'],
      },
    ],
  },
);
