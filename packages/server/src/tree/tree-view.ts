import type { ChunkId, Tree } from '@treeagent/core';

/** One node of the effective tree, as the tree view shows it. */
export interface TreeViewNode {
  id: number;
  type: string;
  name: string | null;
  description: string | null;
  parentId: number | null;
  children: number[];
  depth: number;
  /** Agent the node belongs to (`null` for the root). */
  agentId: number | null;
  /** The `self` scope: the root, or the component instance the node sits in. */
  scope: { id: number; kind: 'root' | 'component' };
  anchorId: number | null;
  similarityThreshold: number;
  isBlocking: boolean;
  isAnchor: boolean;
  isMute: boolean;
  /** Agents only: whether first interactions start from it. */
  isPrimary?: boolean;
  links: Record<string, number>;
  /** Names of the callbacks (or constant outputs) the node defines. */
  callbacks: string[];
  model: string | null;
  chunkCount: number;
  /** The node's chunks; only in debug mode. */
  chunks?: { id: ChunkId; text: string; forRag: boolean; extra: Record<string, unknown> }[];
}

export interface TreeView {
  name: string;
  contentHash: string;
  rootId: number;
  primaryAgentId: number;
  /** Nodes in depth-first order: the page `[offset, offset + limit)` of them. */
  nodes: TreeViewNode[];
  /** Number of nodes in the tree. */
  totalNodes: number;
  /** Number of exploration chunks in the tree. */
  totalChunks: number;
  /** Position of the page's first node in depth-first order. */
  offset: number;
  /** The `offset` of the next page, or `null` when this page reaches the last node. */
  nextOffset: number | null;
}

/** Which nodes of the tree view to describe. */
export interface TreeViewPage {
  /** Chunk texts (debug mode only). */
  chunks: boolean;
  offset?: number;
  /** Most nodes in the page. Default: all. */
  limit?: number;
}

const CALLBACK_NAMES = [
  'init',
  'extendMessage',
  'beforeRun',
  'afterRun',
  'fallback',
  'before',
  'query',
  'prompt',
  'responseFormat',
  'emit',
  'after',
] as const;

/** Node ids in depth-first order (children in their order), without recursion. */
function depthFirst(tree: Tree): number[] {
  const order: number[] = [];
  const stack = [tree.root.id];
  while (stack.length) {
    const id = stack.pop()!;
    order.push(id);
    const children = tree.node(id).children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return order;
}

/**
 * The effective tree (components flattened) for the tree view, one page of nodes in depth-first
 * order; chunk texts only with `chunks: true`.
 */
export function describeTree(tree: Tree, options: TreeViewPage): TreeView {
  const order = depthFirst(tree);
  const offset = Math.min(options.offset ?? 0, order.length);
  const end = Math.min(order.length, offset + (options.limit ?? order.length));
  const nodes: TreeViewNode[] = [];
  const describe = (id: number) => {
    const node = tree.node(id);
    const definition = node.definition as unknown as Record<string, unknown>;
    const scope = tree.scopes.get(node.scopeId)!;
    nodes.push({
      id: node.id,
      type: node.type,
      name: node.name ?? null,
      description: typeof definition.description === 'string' ? definition.description : null,
      parentId: node.parentId,
      children: [...node.children],
      depth: node.depth,
      agentId: node.agentId,
      scope: { id: scope.id, kind: scope.kind },
      anchorId: node.anchorId,
      similarityThreshold: node.similarityThreshold,
      isBlocking: node.isBlocking,
      isAnchor: node.isAnchor,
      isMute: node.isMute,
      ...(node.type === 'agent' ? { isPrimary: node.id === tree.primaryAgent.id } : {}),
      links: { ...node.links },
      callbacks: CALLBACK_NAMES.filter((name) => definition[name] !== undefined),
      model: typeof definition.model === 'string' ? definition.model : null,
      chunkCount: node.chunks.length,
      ...(options.chunks
        ? {
            chunks: node.chunks.map((chunk) => ({
              id: chunk.id,
              text: chunk.text,
              forRag: chunk.forRag,
              extra: chunk.extra,
            })),
          }
        : {}),
    });
  };
  for (let index = offset; index < end; index++) describe(order[index]!);
  return {
    name: tree.name,
    contentHash: tree.contentHash,
    rootId: tree.root.id,
    primaryAgentId: tree.primaryAgent.id,
    nodes,
    totalNodes: order.length,
    totalChunks: tree.chunks.length,
    offset,
    nextOffset: end < order.length ? end : null,
  };
}
