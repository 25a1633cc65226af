import { describe, expect, it } from 'vitest';
import { say, testAgent } from '../../test-support/engine-fixtures.js';
import type { NodeDefinition } from '../../tree/node-definition.js';
import { centroidOf } from './nearest-nodes.js';

const nodes: NodeDefinition[] = [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 3, type: 'emit', parent: 2, name: 'parking', chunks: ['parking'], emit: say('P') },
  { id: 4, type: 'emit', parent: 2, name: 'returns', chunks: ['returns', 'refund'], emit: say('R') },
  { id: 5, type: 'emit', parent: 2, name: 'hours', chunks: ['hours'], emit: say('H') },
];

/** The most frequent message alone is nearest to parking; the cluster as a whole is about returns. */
const vectors = {
  parking: [1, 0, 0],
  returns: [0, 1, 0],
  refund: [0, 0.99, 0.141],
  hours: [0, 0, 1],
  'bike left outside, can I get my money back?': [0.9, 0.436, 0],
  'give me my money back': [0, 1, 0],
  'I want a refund': [0, 1, 0],
};
const cluster = [
  { text: 'bike left outside, can I get my money back?', weight: 3 },
  { text: 'give me my money back', weight: 2 },
  { text: 'I want a refund', weight: 2 },
];

describe('nearest nodes of a group of messages, by their centroid', () => {
  for (const exploreIn of ['memory', 'vector-store'] as const) {
    it(`weighs every message, not one example (${exploreIn})`, async () => {
      const agent = testAgent(nodes, { vectors, exploreIn });
      const nearest = await agent.nearestNodes(cluster);
      // Centroid: 3·[0.9, 0.436, 0] + 4·[0, 1, 0] → [0.453, 0.891, 0].
      expect(nearest.map((node) => node.nodeId)).toEqual([4, 3, 5]);
      expect(nearest[0]!.similarity).toBeCloseTo(0.891, 2);
      expect(nearest[1]!.similarity).toBeCloseTo(0.453, 2);
      // The most frequent message alone would have said parking.
      const alone = await agent.nearestNodes([cluster[0]!], 1);
      expect(alone.map((node) => node.nodeId)).toEqual([3]);
      expect(await agent.nearestNodes([], 3)).toEqual([]);
      expect(await agent.nearestNodes(cluster, 2)).toHaveLength(2);
    });
  }

  it('the centroid is the unit weighted mean; a zero sum stays zero', () => {
    const centroid = centroidOf([new Float32Array([1, 0]), new Float32Array([0, 1])], [3, 4]);
    expect([...centroid].map((value) => Number(value.toFixed(3)))).toEqual([0.6, 0.8]);
    expect([...centroidOf([new Float32Array([0, 0])], [1])]).toEqual([0, 0]);
  });
});
