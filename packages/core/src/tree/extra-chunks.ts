import { TreeAgentError } from '../errors/tree-agent-error.js';
import { defineTree } from './define-tree.js';
import type { Tree } from './tree.js';

/**
 * Chunks added to a tree from outside its definition, by node id: what the analytics "add as chunks"
 * action writes for a TypeScript tree (`<tree>.chunks.json` next to it, docs/analytics.md).
 */
export interface ExtraChunks {
  chunks: Record<string, string[]>;
}

/**
 * The tree with `extra` chunks appended to their nodes (existing chunk ids do not move; a text the
 * node already has is skipped). An unknown node id is a `TREE_VALIDATION` error naming it.
 */
export function withExtraChunks(tree: Tree, extra: ExtraChunks): Tree {
  const entries = Object.entries(extra.chunks ?? {}).filter(([, texts]) => texts.length > 0);
  if (entries.length === 0) return tree;
  const byId = new Map(entries.map(([id, texts]) => [Number(id), texts]));
  for (const id of byId.keys()) {
    if (!tree.has(id)) {
      throw new TreeAgentError(
        'TREE_VALIDATION',
        `The extra chunks name node ${id}, which is not in the tree "${tree.name}". Remove it from the chunks file or move its chunks to an existing node.`,
      );
    }
  }
  return defineTree({
    ...tree.definition,
    nodes: tree.definition.nodes.map((node) => {
      const texts = byId.get(node.id);
      if (!texts) return node;
      const existing = node.chunks ?? [];
      const known = new Set(existing.map((chunk) => (typeof chunk === 'string' ? chunk : chunk.text)));
      const added = texts.filter((text) => !known.has(text) && known.add(text));
      return { ...node, chunks: [...existing, ...added] };
    }),
  });
}
