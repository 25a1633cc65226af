import type { ExploreConstraints } from '../context/explore-strategy.js';
import type { ExploreCandidate } from '../protocol/events.js';
import type { Condition, Filter } from '../protocol/filter.js';
import type { RetrievedChunk } from '../protocol/retrieved-chunk.js';
import type { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';
import type { VectorStore } from '../vector/vector-store.js';
import { type ChunkSearch, NODE_KEY, PATH_KEY } from './chunk-search.js';

/**
 * Results asked per hop: the best, and usually the runner-up under another child among them (one
 * search; a second only when all of them are under the winning child).
 */
export const RUNNER_UP_WINDOW = 8;

/**
 * Exploration in a `VectorStore`: every chunk of the tree is stored with its node and the path of
 * node ids from the root in its payload, so "the best chunk below node N, minus the blacklist, plus
 * the filter" is one filtered search on any backend (in memory, SQLite, pgvector, Qdrant).
 */
export class StoreChunkSearch implements ChunkSearch {
  readonly #tree: Tree;
  readonly #store: VectorStore;
  readonly #collection: string;
  readonly #direction: () => Promise<Float32Array>;

  constructor(tree: Tree, store: VectorStore, collection: string, direction: () => Promise<Float32Array>) {
    this.#tree = tree;
    this.#store = store;
    this.#collection = collection;
    this.#direction = direction;
  }

  async best(node: TreeNode, constraints: ExploreConstraints): Promise<ExploreCandidate | null> {
    const must: Condition[] = [{ key: PATH_KEY, match: { value: node.id } }];
    if (constraints.filter) must.push(constraints.filter);
    const mustNot: Condition[] = [{ key: NODE_KEY, match: { value: node.id } }];
    const blacklisted = [...constraints.blacklist.nodes];
    if (blacklisted.length) mustNot.push({ key: PATH_KEY, match: { any: blacklisted } });
    const filter: Filter = { must, must_not: mustNot };
    const vector = await this.#direction();
    const exclude = [...constraints.blacklist.chunks];
    const found = await this.#store.search({
      collection: this.#collection,
      vector,
      limit: RUNNER_UP_WINDOW,
      filter,
      exclude,
    });
    const best = found[0];
    if (!best) return null;
    const childId = this.#childOf(best, node);
    if (childId === null) return null;
    // The runner-up (the margin of docs/analytics.md): the best result under another child. Fewer
    // results than asked means there is no other; a full window of the same child asks once more,
    // without that child's subtree.
    let other = found.find((result) => this.#childOf(result, node) !== childId) ?? null;
    if (!other && found.length === RUNNER_UP_WINDOW) {
      const without: Filter = {
        must,
        must_not: [...mustNot, { key: PATH_KEY, match: { value: childId } }],
      };
      [other = null] = await this.#store.search({
        collection: this.#collection,
        vector,
        limit: 1,
        filter: without,
        exclude,
      });
    }
    const runnerUpChild = other ? this.#childOf(other, node) : null;
    return {
      chunkId: best.id,
      text: best.text,
      nodeId: best.extra[NODE_KEY] as number,
      childId,
      similarity: best.similarity ?? 0,
      runnerUp:
        other && runnerUpChild !== null
          ? { childId: runnerUpChild, similarity: other.similarity ?? 0 }
          : null,
    };
  }

  /** The child of `node` whose subtree holds a search result, or `null` for a node the tree lacks. */
  #childOf(result: RetrievedChunk, node: TreeNode): number | null {
    const path = result.extra[PATH_KEY] as number[];
    const childId = path[node.depth + 1] ?? (result.extra[NODE_KEY] as number);
    return this.#tree.has(childId) ? childId : null;
  }
}
