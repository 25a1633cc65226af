import type { Tree } from '@treeagent/core';
import type { TreeView, TreeViewNode } from '../api-types.js';

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
