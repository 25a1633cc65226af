import type { Tree } from '@treeagent/core';
import type { TreeView, TreeViewNode } from '../api-types.js';

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

/** The effective tree (components flattened) for the tree view; chunk texts only with `chunks: true`. */
export function describeTree(tree: Tree, options: { chunks: boolean }): TreeView {
  const nodes: TreeViewNode[] = [];
  const visit = (id: number) => {
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
    for (const child of node.children) visit(child);
  };
  visit(tree.root.id);
  return {
    name: tree.name,
    contentHash: tree.contentHash,
    rootId: tree.root.id,
    primaryAgentId: tree.primaryAgent.id,
    nodes,
  };
}
