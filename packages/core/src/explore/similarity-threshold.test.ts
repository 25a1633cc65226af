import { describe, expect, it } from 'vitest';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import { InMemoryVectorStore } from '../vector/in-memory-vector-store.js';
import { isAboveThreshold, SIMILARITY_TOLERANCE } from './similarity-threshold.js';

/**
 * The threshold boundary (issue #15 point 2): a message whose cosine to the best chunk equals the
 * node's threshold does not descend, on the in-memory chunk index and on the vector-store search
 * alike; a message just above it (by more than the tolerance) descends on both.
 */
function agents(threshold: number, chunk: number[]) {
  const tree = defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, similarityThreshold: threshold },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['chunk'],
        emit: { message: { type: 'static', content: 'in' } },
      },
    ],
  });
  const embedder = () =>
    new ExactEmbedder({
      vectors: {
        chunk,
        message: [1, 0, 0, 0],
        above: [Math.cos(Math.acos(chunk[0]!) - 1e-3), Math.sin(Math.acos(chunk[0]!) - 1e-3), 0, 0],
      },
    });
  return {
    memory: new TreeAgent({ tree, embedder: embedder() }),
    'vector-store': new TreeAgent({
      tree,
      embedder: embedder(),
      vectorStore: new InMemoryVectorStore(),
      exploreIn: 'vector-store',
    }),
  };
}

const cases: [number, number[]][] = [
  [0.6, [0.6, 0.8, 0, 0]],
  [0.8, [0.8, 0.6, 0, 0]],
  [0.5, [0.5, Math.sqrt(0.75), 0, 0]],
];

describe('similarity equal to the threshold', () => {
  for (const [threshold, chunk] of cases) {
    for (const backEnd of ['memory', 'vector-store'] as const) {
      it(`does not descend at ${threshold} (${backEnd})`, async () => {
        const agent = agents(threshold, chunk)[backEnd];
        const { node, decisions } = await agent.route('message');
        expect(node.id).toBe(2);
        expect(decisions[0]).toMatchObject({ action: 'below-threshold', threshold });
      });
      it(`descends just above ${threshold} (${backEnd})`, async () => {
        const agent = agents(threshold, chunk)[backEnd];
        const { node } = await agent.route('above');
        expect(node.id).toBe(3);
      });
    }
  }

  it('isAboveThreshold treats float32 rounding as equality', () => {
    expect(isAboveThreshold(Math.fround(0.6), 0.6)).toBe(false);
    expect(isAboveThreshold(Math.fround(0.8), 0.8)).toBe(false);
    expect(isAboveThreshold(0.6 - 1e-7, 0.6)).toBe(false);
    expect(isAboveThreshold(0.6 + 2 * SIMILARITY_TOLERANCE, 0.6)).toBe(true);
  });
});
