import { describe, expect, test } from 'vitest';
import { ExploreConstraints } from '../context/explore-strategy.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { ChunkIndex } from './chunk-index.js';
import { MemoryChunkSearch } from './memory-chunk-search.js';

/**
 * The exact pass of a direction is made once per turn, even while other turns explore the same index
 * between its hops (their searches await in between): each search keeps its pass in a buffer of its
 * own until the index's buffers run out.
 */
function twoLevelTree() {
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root', defaultSimilarityThreshold: 0.05 },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'empty', parent: 2 },
    { id: 4, type: 'empty', parent: 3, chunks: ['north a', 'north b'] },
    { id: 5, type: 'empty', parent: 3, chunks: ['east a'] },
    { id: 6, type: 'empty', parent: 2, chunks: ['south a', 'south b'] },
  ];
  const vectors: Record<string, number[]> = {
    'north a': [1, 0, 0],
    'north b': [0.9, 0.1, 0],
    'east a': [0.6, 0.6, 0.1],
    'south a': [0, 0, 1],
    'south b': [0, 0.2, 0.9],
  };
  return { tree: defineTree({ nodes }), vectors };
}

const unit = (values: number[]) => {
  const norm = Math.hypot(...values);
  return Float32Array.from(values.map((value) => value / norm));
};

describe('exact passes kept per search', () => {
  test('interleaved turns: one pass per direction, and each hop reads its own', async () => {
    const { tree, vectors } = twoLevelTree();
    const index = await ChunkIndex.build(tree, new ExactEmbedder({ vectors }), undefined, { scan: 'exact' });
    let passes = 0;
    const similarities = index.similarities.bind(index);
    index.similarities = (...args: Parameters<ChunkIndex['similarities']>) => {
      passes++;
      return similarities(...args);
    };
    const north = unit([1, 0.05, 0]);
    const south = unit([0, 0.1, 1]);
    const a = new MemoryChunkSearch(index, async () => north);
    const b = new MemoryChunkSearch(index, async () => south);
    const constraints = new ExploreConstraints();
    const agent = tree.node(2);
    const group = tree.node(3);
    // Turn A's first hop, then turn B's, then each one's second hop.
    const a1 = await a.best(agent, constraints);
    const b1 = await b.best(agent, constraints);
    const a2 = await a.best(group, constraints);
    const b2 = await b.best(group, constraints);
    expect(passes).toBe(2);
    expect([a1?.childId, a2?.childId, a2?.chunkId]).toEqual([3, 4, tree.chunks[0]!.id]);
    expect(b1?.childId).toBe(6);
    // B's second hop is in node 3's range, scored from B's own pass (its direction, not A's).
    expect(b2?.similarity).toBeCloseTo(
      unit([0.6, 0.6, 0.1]).reduce((sum, v, i) => sum + v * south[i]!, 0),
      5,
    );
    // Another turn makes its own pass, even for the same vector.
    await new MemoryChunkSearch(index, async () => north).best(agent, constraints);
    expect(passes).toBe(3);
  });
});
