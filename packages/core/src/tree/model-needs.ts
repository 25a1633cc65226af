import type { Tree } from './tree.js';

/** One use of a language model that the tree's definition fixes (not one a callback decides at run time). */
export interface ModelNeed {
  /** The node that needs the model (the root for `smartExtendedMessage`). */
  nodeId: number;
  /** What needs it: `an llm node`, `a generated warning`, `smartExtendedMessage`. */
  what: string;
  /** The model's name: the node's `model`, else `default`. */
  model: string;
}

/**
 * The language models a tree needs by its definition: every llm node, every guardrail with a
 * generated warning and the root's `smartExtendedMessage`. (A GENERATED emit needs one too, but only
 * its `emit` output says so, at run time.) `checkStaticModels` refuses to load without them; the CLI's
 * `lint` and `inspect` list them as "needs a model at run time".
 */
export function modelNeeds(tree: Tree): ModelNeed[] {
  const needs: ModelNeed[] = [];
  const root = tree.root.definition;
  if (root.type === 'root' && root.smartExtendedMessage)
    needs.push({ nodeId: root.id, what: 'smartExtendedMessage', model: root.model ?? 'default' });
  for (const node of tree.nodes.values()) {
    const definition = node.definition;
    if (
      definition.type === 'guardrail' &&
      typeof definition.warning !== 'string' &&
      definition.warning.type === 'generated'
    )
      needs.push({ nodeId: node.id, what: 'a generated warning', model: definition.model ?? 'default' });
    if (definition.type === 'llm')
      needs.push({ nodeId: node.id, what: 'an llm node', model: definition.model ?? 'default' });
  }
  return needs;
}
