import { Graph, layout } from '@dagrejs/dagre';
import type { GraphGroup, GraphNode } from './document-model';

/** Size of a node box in the graph, in SVG units. */
export const NODE_WIDTH = 184;
export const NODE_HEIGHT = 52;

/** A placed node: its centre. */
export interface PlacedNode {
  id: number;
  x: number;
  y: number;
}

/** A component's group box, around the nodes it holds. */
export interface PlacedGroup {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** An edge from a parent to a child, as a polyline. */
export interface PlacedEdge {
  from: number;
  to: number;
  points: { x: number; y: number }[];
}

/** A collapsed component: one box in place of its nodes (its centre). */
export interface PlacedCollapsedGroup {
  id: number;
  x: number;
  y: number;
  /** How many nodes it hides. */
  count: number;
}

export interface GraphLayout {
  nodes: Map<number, PlacedNode>;
  groups: PlacedGroup[];
  collapsedGroups: PlacedCollapsedGroup[];
  /** Edges between boxes: a collapsed component's box stands for its nodes (its component id). */
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/** Space between a component's box and what it holds; the label takes `GROUP_LABEL` more on top. */
const GROUP_PADDING = 10;
const GROUP_LABEL = 16;

/**
 * Lays out the visible part of the effective tree top-down with dagre, siblings left to right in
 * the tree's order (the order exploration breaks ties in): a plain graph ordered depth-first, with
 * dagre's crossing minimisation off — a tree has no crossings to remove, and the heuristic would
 * reorder siblings at will. Components are boxes around their nodes (nested ones inside their
 * parent's), drawn from the placed nodes. `collapsed` nodes keep their box but hide their subtree;
 * a component in `collapsedGroups` is drawn as one box in place of its nodes (edges into and out of
 * it go to that box).
 */
export function layoutGraph(
  nodes: readonly GraphNode[],
  collapsed: ReadonlySet<number>,
  options: { groups?: ReadonlyMap<number, GraphGroup>; collapsedGroups?: ReadonlySet<number> } = {},
): GraphLayout {
  const groups = options.groups ?? new Map<number, GraphGroup>();
  const collapsedGroups = options.collapsedGroups ?? new Set<number>();
  const graph = new Graph();
  graph.setGraph({ rankdir: 'TB', nodesep: 36, ranksep: 64, marginx: 32, marginy: 32 });
  graph.setDefaultEdgeLabel(() => ({}));
  const visible = visibleNodes(nodes, collapsed);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parentGroupOf = (group: number) => groups.get(group)?.parentGroup ?? null;
  const chainOf = (group: number | null): number[] => {
    const chain: number[] = [];
    for (let current = group; current !== null && !chain.includes(current); current = parentGroupOf(current))
      chain.push(current);
    return chain;
  };
  /** The outermost collapsed component around a node, or `null`. */
  const foldedAround = (id: number): number | null =>
    chainOf(byId.get(id)?.group ?? null)
      .filter((group) => collapsedGroups.has(group))
      .at(-1) ?? null;
  // Keys that are not integers: dagre keeps them in insertion order (integer-like keys of a
  // JavaScript object would come back sorted by value, and reorder the siblings).
  const boxOf = (id: number): { key: string; id: number; folded: boolean } => {
    const folded = foldedAround(id);
    return folded === null
      ? { key: `n${id}`, id, folded: false }
      : { key: `c${folded}`, id: folded, folded: true };
  };
  const hidden = new Map<number, number>();
  /** The component boxes each box is drawn in (innermost first). */
  const boxGroups = new Map<string, number[]>();
  for (const node of visible) {
    const box = boxOf(node.id);
    if (box.folded) hidden.set(box.id, (hidden.get(box.id) ?? 0) + 1);
    if (graph.hasNode(box.key)) continue;
    graph.setNode(box.key, { width: NODE_WIDTH, height: NODE_HEIGHT });
    boxGroups.set(box.key, box.folded ? chainOf(parentGroupOf(box.id)) : chainOf(node.group));
  }
  const shown = new Set(visible.map((node) => node.id));
  const edgeEnds = new Map<string, { from: number; to: number }>();
  for (const node of visible) {
    if (node.parentId === null || !shown.has(node.parentId)) continue;
    const from = boxOf(node.parentId);
    const to = boxOf(node.id);
    if (from.key === to.key || graph.hasEdge(from.key, to.key)) continue;
    graph.setEdge(from.key, to.key);
    edgeEnds.set(`${from.key}->${to.key}`, { from: from.id, to: to.id });
  }
  layout(graph, { disableOptimalOrderHeuristic: true });
  const placed = new Map<number, PlacedNode>();
  const folded: PlacedCollapsedGroup[] = [];
  for (const key of graph.nodes()) {
    const label = graph.node(key);
    const id = Number(key.slice(1));
    if (key.startsWith('c'))
      folded.push({ id, x: label.x ?? 0, y: label.y ?? 0, count: hidden.get(id) ?? 0 });
    else placed.set(id, { id, x: label.x ?? 0, y: label.y ?? 0 });
  }
  // Each component's box: around its boxes, and around the boxes of the components inside it.
  const bounds = new Map<
    number,
    { left: number; top: number; right: number; bottom: number; depth: number }
  >();
  for (const [key, chain] of boxGroups) {
    const label = graph.node(key);
    const x = label.x ?? 0;
    const y = label.y ?? 0;
    chain.forEach((group, depth) => {
      const pad = GROUP_PADDING * (depth + 1);
      const current = bounds.get(group);
      const box = {
        left: x - NODE_WIDTH / 2 - pad,
        top: y - NODE_HEIGHT / 2 - pad - GROUP_LABEL * (depth + 1),
        right: x + NODE_WIDTH / 2 + pad,
        bottom: y + NODE_HEIGHT / 2 + pad,
      };
      bounds.set(group, {
        left: Math.min(current?.left ?? box.left, box.left),
        top: Math.min(current?.top ?? box.top, box.top),
        right: Math.max(current?.right ?? box.right, box.right),
        bottom: Math.max(current?.bottom ?? box.bottom, box.bottom),
        depth: Math.max(current?.depth ?? 0, depth),
      });
    });
  }
  const placedGroups: PlacedGroup[] = [...bounds].map(([id, box]) => ({
    id,
    x: box.left,
    y: box.top,
    width: box.right - box.left,
    height: box.bottom - box.top,
  }));
  // Outer groups first, so inner ones are drawn on top.
  placedGroups.sort((a, b) => b.width * b.height - a.width * a.height);
  const edges: PlacedEdge[] = graph.edges().map((edge) => ({
    ...edgeEnds.get(`${edge.v}->${edge.w}`)!,
    points: (graph.edge(edge) as { points?: { x: number; y: number }[] }).points ?? [],
  }));
  const size = graph.graph() as { width?: number; height?: number };
  const right = Math.max(size.width ?? 0, ...placedGroups.map((group) => group.x + group.width + 8));
  return {
    nodes: placed,
    groups: placedGroups,
    collapsedGroups: folded,
    edges,
    width: right,
    height: size.height ?? 0,
  };
}

/** The nodes not hidden under a collapsed ancestor. */
export function visibleNodes(nodes: readonly GraphNode[], collapsed: ReadonlySet<number>): GraphNode[] {
  const parentOf = new Map(nodes.map((node) => [node.id, node.parentId]));
  const hidden = (id: number) => {
    const seen = new Set<number>();
    for (
      let parent = parentOf.get(id) ?? null;
      parent !== null && !seen.has(parent);
      parent = parentOf.get(parent) ?? null
    ) {
      if (collapsed.has(parent)) return true;
      seen.add(parent);
    }
    return false;
  };
  return nodes.filter((node) => !hidden(node.id));
}
