import type { ExploreConstraints } from '../context/explore-strategy.js';
import type { ExploreCandidate } from '../protocol/events.js';
import type { Condition, Filter } from '../protocol/filter.js';
import type { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';
import type { VectorStore } from '../vector/vector-store.js';
import { type ChunkSearch, NODE_KEY, PATH_KEY } from './chunk-search.js';

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
    const [best] = await this.#store.search({
      collection: this.#collection,
      vector: await this.#direction(),
      limit: 1,
      filter,
      exclude: [...constraints.blacklist.chunks],
    });
    if (!best) return null;
    const path = best.extra[PATH_KEY] as number[];
    const nodeId = best.extra[NODE_KEY] as number;
    const childId = path[node.depth + 1] ?? nodeId;
    if (!this.#tree.has(childId)) return null;
    return { chunkId: best.id, text: best.text, nodeId, childId, similarity: best.similarity ?? 0 };
  }
}
