import type { ExploreConstraints } from '../context/explore-strategy.js';
import type { ExploreCandidate } from '../protocol/events.js';
import type { Filter } from '../protocol/filter.js';
import type { TreeNode } from '../tree/tree-node.js';
import type { ChunkIndex } from './chunk-index.js';
import { bestChunkIn, buildChunkMask } from './chunk-mask.js';
import type { ChunkSearch } from './chunk-search.js';

/**
 * Exploration over the in-memory `ChunkIndex`: one pass computes the direction's similarity to every
 * chunk (once per direction, not per hop); each hop then scans only the node's range of that array.
 * The mask of allowed chunks is rebuilt only when the blacklist or the filter changes.
 */
export class MemoryChunkSearch implements ChunkSearch {
  readonly #index: ChunkIndex;
  readonly #direction: () => Promise<Float32Array>;
  #similarities: { vector: Float32Array; values: Float32Array } | null = null;
  #mask: { version: number; filter: Filter | null; mask: Uint8Array | null } | null = null;

  /** @param direction The unit vector of the current direction (the caller caches it per text). */
  constructor(index: ChunkIndex, direction: () => Promise<Float32Array>) {
    this.#index = index;
    this.#direction = direction;
  }

  async best(node: TreeNode, constraints: ExploreConstraints): Promise<ExploreCandidate | null> {
    const vector = await this.#direction();
    if (this.#similarities?.vector !== vector)
      this.#similarities = { vector, values: this.#index.similarities(vector) };
    const found = bestChunkIn(
      this.#similarities.values,
      this.#maskFor(constraints),
      node.ownChunkEnd,
      node.chunkEnd,
    );
    if (!found) return null;
    const tree = this.#index.tree;
    const chunk = tree.chunks[found.position]!;
    const child = tree.childHolding(node.id, found.position);
    // The runner-up: the best chunk outside the winning child's range (a scan of the precomputed
    // similarities, no vector math), for the margin analytics report (docs/analytics.md).
    const mask = this.#maskFor(constraints);
    const before = bestChunkIn(this.#similarities.values, mask, node.ownChunkEnd, child.chunkStart);
    const after = bestChunkIn(this.#similarities.values, mask, child.chunkEnd, node.chunkEnd);
    const other = before && (!after || before.similarity >= after.similarity) ? before : after;
    return {
      chunkId: chunk.id,
      text: chunk.text,
      nodeId: chunk.nodeId,
      childId: child.id,
      similarity: found.similarity,
      runnerUp: other
        ? { childId: tree.childHolding(node.id, other.position).id, similarity: other.similarity }
        : null,
    };
  }

  #maskFor(constraints: ExploreConstraints): Uint8Array | null {
    const { blacklist, filter } = constraints;
    if (this.#mask?.version !== blacklist.version || this.#mask.filter !== filter) {
      this.#mask = {
        version: blacklist.version,
        filter,
        mask: buildChunkMask(this.#index.tree, this.#index, constraints),
      };
    }
    return this.#mask.mask;
  }
}
