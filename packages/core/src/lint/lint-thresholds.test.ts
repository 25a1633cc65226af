import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import { HashedEmbedder } from '../embedding/hashed-embedder.js';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { ChunkIndex } from '../explore/chunk-index.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { hasDenseDimension, invertedSimilarities } from './lint-thresholds.js';
import { lintReport } from './lint-tree.js';
import { embedRows, sparseRows } from './sparse-rows.js';

const SYLLABLES = ['ba', 'co', 'di', 'fe', 'ga', 'li', 'mo', 'nu', 'pe', 'ra', 'si', 'to', 'vu', 'ze'];
/** Made-up words: few share a character n-gram, so hashed vectors have no dense dimension. */
const WORDS = Array.from(
  { length: 80 },
  (_, i) => SYLLABLES[i % 14]! + SYLLABLES[(i * 5 + 3) % 14]! + SYLLABLES[(i * 3 + 7) % 14]!,
);
const emit = { message: { type: 'static' as const, content: 'ok' } };

/** Random trees large enough for routing nodes to be calibrated (12 chunks or more below them). */
const treeArb = fc
  .array(
    fc.record({
      parent: fc.nat(),
      chunks: fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }), {
        minLength: 1,
        maxLength: 4,
      }),
    }),
    { minLength: 8, maxLength: 60 },
  )
  .map((specs) => {
    const nodes: NodeDefinition[] = [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
    ];
    specs.forEach((spec, index) => {
      const id = index + 3;
      nodes.push({
        id,
        type: 'emit',
        parent: 2 + (spec.parent % (id - 2)),
        chunks: spec.chunks.map((words) => words.join(' ')),
        emit,
      });
    });
    return defineTree({ nodes });
  });

/** A dense embedder (every dimension used), so the agent's index keeps rows and lint asks it. */
const denseEmbedder: Embedder = {
  id: 'dense-test',
  dimensions: 16,
  embed: (texts) =>
    texts.map((text) => {
      const vector = new Float32Array(16);
      for (let i = 0; i < text.length; i++) vector[(text.charCodeAt(i) * 7 + i) % 16]! += 1 + (i % 3);
      for (let j = 0; j < 16; j++) vector[j]! += 0.5;
      return vector;
    }),
};

describe('lintReport thresholds', () => {
  test('are those of TreeAgent.thresholds() in the unfitted space, hashed (inverted index) and dense (the index)', async () => {
    let inverted = 0;
    let calibrated = 0;
    await fc.assert(
      fc.asyncProperty(treeArb, fc.boolean(), async (tree, dense) => {
        const embedder = dense ? denseEmbedder : new HashedEmbedder();
        const agent = new TreeAgent({ tree, embedder, fit: false });
        const expected = await agent.thresholds();
        const { thresholds } = await lintReport(tree, { embedder });
        expect(thresholds).toEqual(expected);
        const { rows } = await embedRows(
          embedder,
          tree.chunks.map((chunk) => chunk.text),
        );
        if (!hasDenseDimension(rows)) inverted++;
        calibrated += thresholds.filter((threshold) => threshold.source === 'calibrated').length;
      }),
      { numRuns: 80, seed: 16 },
    );
    // Both ways of computing the similarities were exercised, on calibrated nodes.
    expect(inverted).toBeGreaterThan(10);
    expect(calibrated).toBeGreaterThan(40);
  });
});

describe('invertedSimilarities', () => {
  test('equal ChunkIndex.similarities (all-sparse layout) to the last bit, on any range', async () => {
    await fc.assert(
      fc.asyncProperty(treeArb, fc.nat(), fc.nat(), fc.nat(), async (tree, p, a, b) => {
        const embedder = new HashedEmbedder();
        const texts = tree.chunks.map((chunk) => chunk.text);
        const vectors = await embedTexts(embedder, texts);
        const index = await ChunkIndex.build(tree, embedder, undefined, { layout: 'columns' });
        const similarities = invertedSimilarities(sparseRows(vectors));
        const count = vectors.length;
        const position = p % count;
        const from = Math.min(a % count, b % count);
        const to = Math.max(a % count, b % count) + 1;
        const expected = index.similarities(vectors[position]!, from, to).subarray(from, to);
        const actual = similarities(position, from, to).subarray(from, to);
        // Compared as bits: equal floats, not merely close ones.
        expect(new Uint32Array(actual.slice().buffer)).toEqual(new Uint32Array(expected.slice().buffer));
      }),
      { numRuns: 100, seed: 3 },
    );
  });
});

describe('embedRows', () => {
  test("a HashedEmbedder's sparse rows are embedTexts' unit vectors, bit for bit", async () => {
    const texts = fc.sample(fc.string({ maxLength: 40 }), { numRuns: 200, seed: 7 });
    texts.push('', 'Perché il reso?', 'Perché il reso?', '!!!');
    const embedder = new HashedEmbedder();
    const { rows, dense } = await embedRows(embedder, texts);
    expect(dense).toBeNull();
    expect(rows).toEqual(sparseRows(await embedTexts(embedder, texts)));
  });
});
