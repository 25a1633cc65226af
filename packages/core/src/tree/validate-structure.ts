import type { NodeDefinition } from './node-definition.js';
import { aNode } from './node-type-article.js';
import type { TreeProblem } from './tree-problem.js';

/** Nodes indexed by id and by parent, as the structural checks and the flattening need them. */
export interface NodeIndex {
  byId: Map<number, NodeDefinition>;
  childrenOf: Map<number, NodeDefinition[]>;
  root: NodeDefinition | undefined;
}

/** Indexes nodes, reporting duplicate ids, missing or unknown parents, roots and cycles. */
export function indexNodes(nodes: readonly NodeDefinition[], problems: TreeProblem[]): NodeIndex {
  const byId = new Map<number, NodeDefinition>();
  const roots: NodeDefinition[] = [];
  for (const node of nodes) {
    if (!Number.isInteger(node.id)) continue;
    if (byId.has(node.id)) {
      problems.push({
        nodeId: node.id,
        message: `duplicate id ${node.id} (types ${byId.get(node.id)!.type} and ${node.type}).`,
        fix: 'Give every node its own id; a component used twice needs a different idBase each time.',
      });
      continue;
    }
    byId.set(node.id, node);
    if (node.type === 'root') roots.push(node);
  }
  if (roots.length !== 1) {
    problems.push({
      message: `the tree has ${roots.length} root nodes${roots.length ? ` (${roots.map((r) => r.id).join(', ')})` : ''}.`,
      fix: 'Define exactly one node of type "root", with no parent.',
    });
  }
  const childrenOf = new Map<number, NodeDefinition[]>();
  for (const node of byId.values()) {
    const parent = node.parent ?? null;
    if (node.type === 'root') {
      if (parent !== null)
        problems.push({
          nodeId: node.id,
          message: 'the root has a parent.',
          fix: 'Remove "parent" from the root.',
        });
      continue;
    }
    if (parent === null) {
      problems.push({
        nodeId: node.id,
        message: `the ${node.type} node has no parent.`,
        fix: 'Set "parent" to the id of the node above it.',
      });
      continue;
    }
    if (!byId.has(parent)) {
      problems.push({
        nodeId: node.id,
        message: `parent ${parent} does not exist.`,
        fix: 'Set "parent" to the id of an existing node.',
      });
      continue;
    }
    const list = childrenOf.get(parent) ?? [];
    list.push(node);
    childrenOf.set(parent, list);
  }
  reportCycles(byId, problems);
  return { byId, childrenOf, root: roots.length === 1 ? roots[0] : undefined };
}

function reportCycles(byId: Map<number, NodeDefinition>, problems: TreeProblem[]): void {
  const state = new Map<number, 'visiting' | 'done'>();
  for (const start of byId.keys()) {
    const path: number[] = [];
    let id: number | null | undefined = start;
    while (id !== null && id !== undefined && byId.has(id) && state.get(id) !== 'done') {
      if (state.get(id) === 'visiting') {
        const cycle = path.slice(path.indexOf(id));
        problems.push({
          nodeId: id,
          message: `the parents form a cycle: ${[...cycle, id].join(' → ')}.`,
          fix: 'Break the cycle so that every node leads up to the root.',
        });
        break;
      }
      state.set(id, 'visiting');
      path.push(id);
      id = byId.get(id)!.parent;
    }
    for (const visited of path) state.set(visited, 'done');
  }
}

/** Agents: children of the root, exactly one primary; everything under the root hangs from an agent. */
export function validateAgents(index: NodeIndex, problems: TreeProblem[]): void {
  if (!index.root) return;
  const children = index.childrenOf.get(index.root.id) ?? [];
  for (const child of children) {
    if (child.type !== 'agent') {
      problems.push({
        nodeId: child.id,
        message: `${aNode(child.type)} node is a child of the root.`,
        fix: 'Only agent nodes can be children of the root: put it under an agent.',
      });
    }
  }
  const primaries = children.filter((child) => child.type === 'agent' && child.isPrimary === true);
  if (primaries.length !== 1) {
    problems.push({
      nodeId: index.root.id,
      message: `the root has ${primaries.length} primary agents${primaries.length ? ` (${primaries.map((a) => a.id).join(', ')})` : ''}.`,
      fix: 'Set isPrimary: true on exactly one agent child of the root.',
    });
  }
  for (const node of index.byId.values()) {
    if (node.type === 'agent' && node.parent !== index.root.id) {
      problems.push({
        nodeId: node.id,
        message: 'an agent node is not a child of the root.',
        fix: 'Attach agents directly to the root.',
      });
    }
  }
}

/** Links must point to nodes of the effective tree. */
export function validateLinkTargets(index: NodeIndex, problems: TreeProblem[]): void {
  for (const node of index.byId.values()) {
    for (const [name, target] of Object.entries(node.links ?? {})) {
      const targetNode = index.byId.get(target);
      if (!targetNode) {
        problems.push({
          nodeId: node.id,
          message: `link "${name}" points to node ${target}, which does not exist.`,
          fix: 'Point the link to an existing node id.',
        });
      } else if (
        targetNode.type === 'component' ||
        targetNode.type === 'head' ||
        targetNode.type === 'tail'
      ) {
        const entry = componentEntry(index, targetNode);
        problems.push({
          nodeId: node.id,
          message: `link "${name}" points to the ${targetNode.type} node ${target}, which disappears when components are flattened.`,
          fix:
            entry === undefined
              ? 'Point the link to a node inside the component.'
              : `Point the link to node ${entry}, ${targetNode.type === 'tail' ? "the tail's parent, where the component's children hang" : 'the entry of the component (the child of its head)'}.`,
        });
      }
    }
  }
}

/**
 * The node a link to a component, head or tail most likely meant: the component's entry (the
 * head's single child) for a component or head, the tail's parent for a tail.
 */
function componentEntry(index: NodeIndex, node: NodeDefinition): number | undefined {
  if (node.type === 'tail') return node.parent ?? undefined;
  const head =
    node.type === 'head'
      ? node
      : (index.childrenOf.get(node.id) ?? []).find((child) => child.type === 'head');
  if (!head) return undefined;
  const children = index.childrenOf.get(head.id) ?? [];
  return children.length === 1 ? children[0]!.id : undefined;
}
