import { ExploreConstraints } from '../../context/explore-strategy.js';
import { embedTexts } from '../../embedding/embed-texts.js';
import type { AgentRuntime } from '../runtime/runtime.js';

/** A node near a group of messages: how similar its best chunk is to their centroid. */
export interface NearestNode {
  nodeId: number;
  similarity: number;
}

/** A message of a group, weighted (how often it was sent). */
export interface WeightedText {
  text: string;
  weight?: number;
}

/**
 * The unit mean of the vectors, each weighted (docs/analytics.md: the centroid of a cluster of
 * unmatched messages). A zero sum stays zero.
 */
export function centroidOf(vectors: readonly Float32Array[], weights: readonly number[]): Float32Array {
  const sum = new Float32Array(vectors[0]?.length ?? 0);
  vectors.forEach((vector, index) => {
    const weight = weights[index] ?? 1;
    for (let i = 0; i < vector.length; i++) sum[i]! += vector[i]! * weight;
  });
  let length = 0;
  for (const value of sum) length += value * value;
  length = Math.sqrt(length);
  return length === 0 ? sum : sum.map((value) => value / length);
}

/**
 * The `limit` nodes whose chunks are most similar to the centroid of `texts` (embedded in the
 * exploration space, without the embedding cache: they are users' messages), most similar first,
 * each with the similarity of its best chunk to the centroid. Searched with exploration's own chunk
 * search (in memory, the sign-bit scan, or a vector store) below the tree's root: the best chunk,
 * then the best of another node (the found node's chunks left out), and so on.
 */
export async function nearestNodes(
  runtime: AgentRuntime,
  texts: readonly WeightedText[],
  limit = 3,
): Promise<NearestNode[]> {
  if (texts.length === 0 || limit <= 0) return [];
  const vectors = await embedTexts(
    runtime.exploreEmbedder,
    texts.map((text) => text.text),
  );
  const centroid = centroidOf(
    vectors,
    texts.map((text) => text.weight ?? 1),
  );
  const search = runtime.chunkSearch(async () => centroid);
  const tree = runtime.tree;
  const constraints = new ExploreConstraints();
  const found: NearestNode[] = [];
  while (found.length < limit) {
    const best = await search.best(tree.root, constraints);
    if (!best) break;
    found.push({ nodeId: best.nodeId, similarity: best.similarity });
    const node = tree.node(best.nodeId);
    const own = tree.chunks.slice(node.chunkStart, node.ownChunkEnd).map((chunk) => chunk.id);
    // Never loops: the chunk just found is always among those left out.
    constraints.blacklist.add(own.length ? own : [best.chunkId], 'chunk');
  }
  return found;
}
