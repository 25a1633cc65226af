import type { NodeDefinition } from './node-definition.js';
import type { TreeProblem } from './tree-problem.js';
import type { NodeIndex } from './validate-structure.js';

/** Component instances of a tree, with their head and tail, as the flattening needs them. */
export interface ComponentIndex {
  headOf: Map<number, NodeDefinition>;
  tailOf: Map<number, NodeDefinition>;
  /** Innermost component node enclosing a node (its `self` scope), `null` at the root level. */
  enclosingComponent(nodeId: number): number | null;
}

/** Checks components (docs/concepts.md §8): one head with exactly one child, at most one tail inside, children only with a tail. */
export function indexComponents(index: NodeIndex, problems: TreeProblem[]): ComponentIndex {
  const headOf = new Map<number, NodeDefinition>();
  const tailOf = new Map<number, NodeDefinition>();
  const cache = new Map<number, number | null>();
  const enclosingComponent = (nodeId: number): number | null => {
    if (cache.has(nodeId)) return cache.get(nodeId)!;
    // Up to the first head (its component encloses everything below it) or to an ancestor already
    // known; every node on the way shares the answer, so each node is walked through once.
    const path = [nodeId];
    const seen = new Set<number>();
    let parentId = index.byId.get(nodeId)?.parent ?? null;
    let result: number | null = null;
    while (parentId !== null && !seen.has(parentId)) {
      const parent = index.byId.get(parentId);
      if (!parent) break;
      if (parent.type === 'head') {
        result = parent.parent ?? null;
        break;
      }
      if (cache.has(parentId)) {
        result = cache.get(parentId)!;
        break;
      }
      seen.add(parentId);
      path.push(parentId);
      parentId = parent.parent ?? null;
    }
    for (const id of path) cache.set(id, result);
    return result;
  };

  for (const node of index.byId.values()) {
    const children = index.childrenOf.get(node.id) ?? [];
    if (node.type === 'component') {
      const heads = children.filter((child) => child.type === 'head');
      if (heads.length !== 1) {
        problems.push({
          nodeId: node.id,
          message: `the component has ${heads.length} head nodes.`,
          fix: 'Give the component exactly one child of type "head"; the head\'s single child is the entry of the component.',
        });
      } else headOf.set(node.id, heads[0]!);
    }
    if (node.type === 'head') {
      if (index.byId.get(node.parent ?? Number.NaN)?.type !== 'component') {
        problems.push({
          nodeId: node.id,
          message: 'a head node is not the child of a component node.',
          fix: 'Attach the head directly to its component node.',
        });
      }
      if (children.length !== 1) {
        problems.push({
          nodeId: node.id,
          message: `the head has ${children.length} children.`,
          fix: "A head has exactly one child: the node that takes the component's place under its parent.",
        });
      }
    }
    if (node.type === 'tail') {
      if (children.length) {
        problems.push({
          nodeId: node.id,
          message: `the tail has children (${children.map((c) => c.id).join(', ')}).`,
          fix: "A tail has no children: attach them to the component node instead; they will hang from the tail's parent.",
        });
      }
      const component = enclosingComponent(node.id);
      if (component === null) {
        problems.push({
          nodeId: node.id,
          message: 'the tail is not inside a component.',
          fix: 'Put the tail under a node of a component (below its head).',
        });
      } else if (tailOf.has(component)) {
        problems.push({
          nodeId: node.id,
          message: `component ${component} has more than one tail (${tailOf.get(component)!.id} and ${node.id}).`,
          fix: 'Keep one tail per component.',
        });
      } else if (index.byId.get(node.parent ?? Number.NaN)?.type === 'head') {
        problems.push({
          nodeId: node.id,
          message: 'the tail is the direct child of a head.',
          fix: 'Put at least one node between the head and the tail.',
        });
      } else tailOf.set(component, node);
    }
  }
  for (const node of index.byId.values()) {
    if (node.type !== 'component') continue;
    const external = (index.childrenOf.get(node.id) ?? []).filter((child) => child.type !== 'head');
    if (external.length && !tailOf.has(node.id)) {
      problems.push({
        nodeId: node.id,
        message: `the component has children (${external.map((c) => c.id).join(', ')}) but no tail.`,
        fix: "Add a tail inside the component: the component's children hang from the tail's parent.",
      });
    }
  }
  return { headOf, tailOf, enclosingComponent };
}

/**
 * Effective parent of a node once components are flattened (docs/concepts.md §8 rules 1–2): a head's child
 * takes the component's place under the component's parent, and the component's children hang
 * from the tail's parent. Recurses through nested components.
 */
export function effectiveParent(nodeId: number, index: NodeIndex, components: ComponentIndex): number | null {
  const parent = index.byId.get(nodeId)?.parent ?? null;
  return parent === null ? null : attachPoint(parent, index, components, new Set());
}

function attachPoint(
  id: number,
  index: NodeIndex,
  components: ComponentIndex,
  seen: Set<number>,
): number | null {
  if (seen.has(id)) return null;
  seen.add(id);
  const node = index.byId.get(id);
  if (!node) return null;
  if (node.type === 'head') {
    const component = index.byId.get(node.parent ?? Number.NaN);
    const grandParent = component?.parent ?? null;
    return grandParent === null ? null : attachPoint(grandParent, index, components, seen);
  }
  if (node.type === 'component') {
    const tailParent = components.tailOf.get(id)?.parent ?? null;
    return tailParent === null ? null : attachPoint(tailParent, index, components, seen);
  }
  return id;
}
