import type { ExploreConstraints } from '../context/explore-strategy.js';
import type { ExploreCandidate } from '../protocol/events.js';
import type { TreeNode } from '../tree/tree-node.js';

/**
 * Finds, for the current direction, the most similar allowed chunk below a node (its descendants'
 * chunks, not its own), after the blacklist and the filter. Two implementations: in memory over the
 * `ChunkIndex`, and in a `VectorStore` for trees too large to hold in memory.
 */
export interface ChunkSearch {
  best(node: TreeNode, constraints: ExploreConstraints): Promise<ExploreCandidate | null>;
}

/** Reserved payload keys of the exploration collection: the chunk's node and the path of ids from the root to it. */
export const NODE_KEY = '_treeNode';
export const PATH_KEY = '_treePath';
/**
 * Reserved payload key of the exploration collection: the id of the embedder that made the vector, so
 * that a restart leaves a stored chunk alone when its text, payload and embedder are unchanged.
 */
export const EMBEDDER_KEY = '_treeEmbedder';
