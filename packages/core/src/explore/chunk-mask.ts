import type { ExploreConstraints } from '../context/explore-strategy.js';
import { compileFilter } from '../filter/evaluate-filter.js';
import type { Tree } from '../tree/tree.js';
import type { ChunkIndex } from './chunk-index.js';

/**
 * Which chunks exploration may consider under the current constraints: not in a blacklisted
 * node's subtree, not blacklisted themselves, and passing the filter on their `extra`.
 * Returns `null` when every chunk is allowed (the common, fast case).
 */
export function buildChunkMask(
  tree: Tree,
  index: ChunkIndex,
  constraints: ExploreConstraints,
): Uint8Array | null {
  const { blacklist, filter } = constraints;
  if (blacklist.isEmpty() && !filter) return null;
  const mask = new Uint8Array(tree.chunks.length).fill(1);
  for (const nodeId of blacklist.nodes) {
    const node = tree.nodes.get(nodeId);
    if (node) mask.fill(0, node.chunkStart, node.chunkEnd);
  }
  for (const chunkId of blacklist.chunks) {
    const position = index.positionOf(chunkId);
    if (position !== undefined) mask[position] = 0;
  }
  if (filter) {
    const accepts = compileFilter(filter);
    tree.chunks.forEach((chunk, position) => {
      if (mask[position] && !accepts({ id: chunk.id, payload: chunk.extra })) mask[position] = 0;
    });
  }
  return mask;
}

/** Position and similarity of the most similar allowed chunk in `[from, to)`, or `null`. Ties keep the first. */
export function bestChunkIn(
  similarities: Float32Array,
  mask: Uint8Array | null,
  from: number,
  to: number,
): { position: number; similarity: number } | null {
  let best = -1;
  let bestSimilarity = Number.NEGATIVE_INFINITY;
  for (let i = from; i < to; i++) {
    if (mask !== null && mask[i] === 0) continue;
    const similarity = similarities[i]!;
    if (similarity > bestSimilarity) {
      bestSimilarity = similarity;
      best = i;
    }
  }
  return best < 0 ? null : { position: best, similarity: bestSimilarity };
}
