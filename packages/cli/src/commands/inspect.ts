import type { Tree, TreeNode } from '@treeagent/core';
import { loadTree } from '../load-tree.js';
import type { Output } from '../output.js';

/** `treeagent inspect <tree>`: the effective tree (components flattened) with ids, types, thresholds and chunks. */
export async function inspectCommand(
  treePath: string,
  options: { config?: string; json?: boolean },
  out: Output,
): Promise<number> {
  const { tree } = await loadTree(treePath, options.config ? { config: options.config } : {});
  if (options.json) {
    out.log(JSON.stringify(describeTree(tree), null, 2));
    return 0;
  }
  const all = [...tree.nodes.values()].reduce((sum, node) => sum + node.chunks.length, 0);
  const retrievalOnly = all - tree.chunks.length;
  out.log(
    `${tree.name}: ${tree.nodes.size} nodes, ${all} chunks${retrievalOnly ? ` (${retrievalOnly} forRag, retrieval only)` : ''}, content hash ${tree.contentHash}`,
  );
  const visit = (node: TreeNode, prefix: string, last: boolean, top: boolean) => {
    out.log(`${top ? '' : `${prefix}${last ? '└─ ' : '├─ '}`}${label(tree, node)}`);
    const childPrefix = top ? '' : `${prefix}${last ? '   ' : '│  '}`;
    node.children.forEach((id, index) => {
      visit(tree.node(id), childPrefix, index === node.children.length - 1, false);
    });
  };
  visit(tree.root, '', true, true);
  return 0;
}

function label(tree: Tree, node: TreeNode): string {
  const flags = [
    node.definition.type === 'agent' && node.definition.isPrimary ? 'primary' : '',
    node.isBlocking ? 'blocking' : '',
    node.isAnchor ? 'anchor' : '',
    node.isMute ? 'mute' : '',
  ].filter(Boolean);
  const scope = node.scopeId !== tree.root.id ? ` [component ${node.scopeId}]` : '';
  const rag = node.chunks.filter((chunk) => chunk.forRag).length;
  const chunks = node.chunks.length ? `, ${node.chunks.length} chunks${rag ? ` (${rag} forRag)` : ''}` : '';
  const threshold = node.children.length ? `, threshold ${node.similarityThreshold}` : '';
  return `${node.id} ${node.type}${node.name ? ` "${node.name}"` : ''}${flags.length ? ` (${flags.join(', ')})` : ''}${threshold}${chunks}${scope}`;
}

function describeTree(tree: Tree) {
  return {
    name: tree.name,
    contentHash: tree.contentHash,
    nodes: [...tree.nodes.values()].map((node) => ({
      id: node.id,
      type: node.type,
      name: node.name ?? null,
      parent: node.parentId,
      children: node.children,
      similarityThreshold: node.similarityThreshold,
      isBlocking: node.isBlocking,
      isAnchor: node.isAnchor,
      isMute: node.isMute,
      component: node.scopeId === tree.root.id ? null : node.scopeId,
      chunks: node.chunks.length,
      forRagChunks: node.chunks.filter((chunk) => chunk.forRag).length,
    })),
  };
}
