import type { NodeDefinition, Self, TreeDefinition } from './node-definition.js';

type WithoutParent<T> = T extends unknown ? Omit<T, 'parent'> : never;

/** A node written inside its parent: the node's definition without `parent`, plus its `children`. */
export type NestedNode<S extends Self = Self> = WithoutParent<NodeDefinition<S>> & {
  children?: NestedNode<S>[];
};

/**
 * Writes a tree as nested nodes instead of a flat list: each node's `children` are its children,
 * so `parent` is implied. Returns the canonical flat definition for `defineTree`.
 *
 * @example
 * const tree = defineTree(nestedTree({ id: 1, type: 'root', children: [
 *   { id: 2, type: 'agent', isPrimary: true, children: [
 *     { id: 3, type: 'emit', chunks: ['ciao'], emit: { message: { type: 'static', content: 'Ciao!' } } },
 *   ] },
 * ] }));
 */
export function nestedTree<S extends Self = Self>(
  root: NestedNode<S>,
  options: { name?: string } = {},
): TreeDefinition<S> {
  const nodes: NodeDefinition<S>[] = [];
  const visit = (node: NestedNode<S>, parent: number | undefined) => {
    const { children, ...definition } = node;
    nodes.push((parent === undefined ? definition : { ...definition, parent }) as NodeDefinition<S>);
    for (const child of children ?? []) visit(child, node.id);
  };
  visit(root, undefined);
  return { ...(options.name ? { name: options.name } : {}), nodes };
}
