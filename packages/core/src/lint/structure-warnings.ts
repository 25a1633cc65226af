import { beforeOf, fallbackOf } from '../tree/node-callbacks.js';
import { silentLlmNode } from '../tree/silent-llm-node.js';
import type { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';
import type { LintWarning } from './lint-warning.js';

/**
 * Warnings about callbacks that will not run as their author probably expects:
 * - `before-passed-through`: a `switch` or `empty` node with a `before` that exploration passes
 *   through: exploration descends past it to a child whenever a child's chunk fits, and a node's
 *   `before` runs only when exploration stops on it (or a callback targets it);
 * - `agent-without-fallback`: an agent with no `fallback`: a callback error or a loop in it fails
 *   the whole turn (the user gets an error) and a message nothing fits gets no answer;
 * - `llm-shows-nothing` (an error): an llm node without `after` and without children
 *   (`silentLlmNode`), which ends every turn that reaches it in `LOOP`.
 */
export function structureWarnings(tree: Tree, label: (node: TreeNode) => string): LintWarning[] {
  const warnings: LintWarning[] = [];
  for (const node of tree.nodes.values()) {
    const silent = silentLlmNode(node);
    if (silent) warnings.push({ code: 'llm-shows-nothing', severity: 'error', nodeId: node.id, ...silent });
    if (
      (node.type === 'switch' || node.type === 'empty') &&
      typeof beforeOf(node) === 'function' &&
      !node.isBlocking &&
      node.chunkEnd > node.ownChunkEnd
    ) {
      warnings.push({
        code: 'before-passed-through',
        nodeId: node.id,
        message: `the ${node.type} node ${label(node)} has a "before" callback, but exploration passes through it to its children (${node.children.join(', ')}) whenever one of their chunks fits: its before runs only when exploration stops on it.`,
        fix: `Set isBlocking: true on node ${node.id} so that exploration always stops there and its before runs${node.type === 'switch' ? ' (a switch then explores on from itself)' : ''}, or move the logic to the children's before.`,
      });
    }
    if (node.type === 'agent' && typeof fallbackOf(node) !== 'function') {
      warnings.push({
        code: 'agent-without-fallback',
        nodeId: node.id,
        message: `agent ${label(node)} has no fallback: an error in one of its callbacks, a loop, or a message nothing fits ends the turn with an error or no answer.`,
        fix: `Give agent ${node.id} a fallback that targets a node which apologises: links: { sorry: <its id> }, fallback: (self, context, special, links) => ({ nodeTarget: links.sorry! }).`,
      });
    }
  }
  return warnings;
}
