import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Chunk } from './chunk.js';
import type { TreeDefinition } from './node-definition.js';
import type { SelfScope, TreeNode } from './tree-node.js';

/** A validated tree with components flattened. Build one with `defineTree`. */
export class Tree {
  readonly name: string;
  /** The definition with components expanded to their inline form (callbacks included). */
  readonly definition: TreeDefinition;
  readonly nodes: ReadonlyMap<number, TreeNode>;
  /**
   * The chunks exploration routes by, in depth-first order: a node's own chunks, then its children's
   * subtrees. `forRag` chunks are not among them unless the root sets `exploreForRagChunks`; they
   * are on their query node's `ragChunks`.
   */
  readonly chunks: readonly Chunk[];
  readonly scopes: ReadonlyMap<number, SelfScope>;
  /** Hash of everything but the callbacks: changes when nodes, chunks or properties change. */
  readonly contentHash: string;
  readonly root: TreeNode;
  readonly primaryAgent: TreeNode;
  /** The languages the tree declares (`languages`), the default first; empty when it declares none. */
  readonly languages: readonly string[];

  constructor(init: {
    name: string;
    definition: TreeDefinition;
    nodes: Map<number, TreeNode>;
    chunks: Chunk[];
    scopes: Map<number, SelfScope>;
    contentHash: string;
    rootId: number;
    primaryAgentId: number;
    languages?: readonly string[];
  }) {
    this.name = init.name;
    this.definition = init.definition;
    this.nodes = init.nodes;
    this.chunks = init.chunks;
    this.scopes = init.scopes;
    this.contentHash = init.contentHash;
    this.root = init.nodes.get(init.rootId)!;
    this.primaryAgent = init.nodes.get(init.primaryAgentId)!;
    this.languages = init.languages ?? [];
  }

  /** The default language: the first declared one, `null` when the tree declares none. */
  get defaultLanguage(): string | null {
    return this.languages[0] ?? null;
  }

  has(id: number): boolean {
    return this.nodes.has(id);
  }

  /** The node with this id; throws `UNKNOWN_NODE` naming the id when there is none. */
  node(id: number): TreeNode {
    const node = this.nodes.get(id);
    if (!node) {
      throw new TreeAgentError(
        'UNKNOWN_NODE',
        `There is no node ${id} in the tree "${this.name}". Component, head and tail nodes disappear when the tree is flattened: target a node inside them.`,
        { nodeId: id },
      );
    }
    return node;
  }

  /** The child of `parentId` whose subtree holds the chunk at `chunkIndex` (which must be below the parent). */
  childHolding(parentId: number, chunkIndex: number): TreeNode {
    const children = this.node(parentId).children;
    let low = 0;
    let high = children.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.nodes.get(children[middle]!)!.chunkStart <= chunkIndex) low = middle;
      else high = middle - 1;
    }
    return this.nodes.get(children[low]!)!;
  }

  /** True when `nodeId` is `ancestorId` or lies in its subtree. */
  isInSubtree(nodeId: number, ancestorId: number): boolean {
    for (let id: number | null = nodeId; id !== null; id = this.nodes.get(id)?.parentId ?? null) {
      if (id === ancestorId) return true;
    }
    return false;
  }

  /** Nodes from the root down to `nodeId`. */
  pathTo(nodeId: number): TreeNode[] {
    const path: TreeNode[] = [];
    for (let id: number | null = nodeId; id !== null; id = this.nodes.get(id)?.parentId ?? null) {
      path.unshift(this.node(id));
    }
    return path;
  }
}
