import { afterOf } from './node-callbacks.js';
import type { TreeNode } from './tree-node.js';

/**
 * An llm node that can show nothing: an llm node sends no message itself (its answer goes to its
 * `after` as `special.text`), so without an `after` and without children every turn that reaches it
 * explores on from it, finds nothing below, climbs to its anchor, reaches it again and ends in
 * `LOOP`. What is wrong and what to add, for `treeagent lint` (an error) and for that `LOOP`; null
 * for any other node.
 */
export function silentLlmNode(node: TreeNode): { message: string; fix: string } | null {
  if (node.type !== 'llm' || node.children.length > 0 || typeof afterOf(node) === 'function') return null;
  const label = `${node.id}${node.name ? ` ("${node.name}")` : ''}`;
  return {
    message: `llm node ${label} can show nothing: an llm node sends no message itself (its answer goes to its "after" callback as special.text), and it has no "after" and no children, so a turn that reaches it climbs back to its anchor, reaches it again and ends in a loop.`,
    fix: `Add an emit child to node ${node.id} that shows the answer (its emit reads what the llm node's after stored in self), or give node ${node.id} an "after" that stores special.text and targets such an emit node (after: (self, context, special) => { self.answer = special.text; return { nodeTarget: <emit node id> }; }); for an answer the model writes straight to the user, use an emit node with a prompt (a GENERATED message) instead of an llm node.`,
  };
}
