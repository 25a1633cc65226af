import { Graph, layout } from '@dagrejs/dagre';
import type { GraphNode } from './document-model';

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

export interface GraphLayout {
  nodes: Map<number, PlacedNode>;
  groups: PlacedGroup[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

/**
 * Lays out the visible part of the effective tree top-down with dagre (a compound graph: each
 * component is a cluster around its nodes). `collapsed` nodes keep their box but hide their subtree.
 */
export function layoutGraph(nodes: readonly GraphNode[], collapsed: ReadonlySet<number>): GraphLayout {
  const graph = new Graph({ compound: true });
  graph.setGraph({ rankdir: 'TB', nodesep: 28, ranksep: 56, marginx: 24, marginy: 24 });
  graph.setDefaultEdgeLabel(() => ({}));
  const visible = visibleNodes(nodes, collapsed);
  const groupKey = (id: number) => `g${id}`;
  for (const node of visible) {
    graph.setNode(String(node.id), { width: NODE_WIDTH, height: NODE_HEIGHT });
    if (node.group !== null) {
      if (!graph.hasNode(groupKey(node.group))) graph.setNode(groupKey(node.group), { width: 0, height: 0 });
      graph.setParent(String(node.id), groupKey(node.group));
    }
  }
  const shown = new Set(visible.map((node) => node.id));
  for (const node of visible) {
    if (node.parentId !== null && shown.has(node.parentId))
      graph.setEdge(String(node.parentId), String(node.id));
  }
  layout(graph);
  const placed = new Map<number, PlacedNode>();
  for (const node of visible) {
    const label = graph.node(String(node.id));
    placed.set(node.id, { id: node.id, x: label.x ?? 0, y: label.y ?? 0 });
  }
  const groups: PlacedGroup[] = [];
  for (const key of graph.nodes()) {
    if (!key.startsWith('g')) continue;
    const label = graph.node(key);
    groups.push({
      id: Number(key.slice(1)),
      x: (label.x ?? 0) - label.width / 2,
      y: (label.y ?? 0) - label.height / 2 - 14,
      width: label.width,
      height: label.height + 14,
    });
  }
  const edges: PlacedEdge[] = graph.edges().map((edge) => ({
    from: Number(edge.v),
    to: Number(edge.w),
    points: (graph.edge(edge) as { points?: { x: number; y: number }[] }).points ?? [],
  }));
  const size = graph.graph() as { width?: number; height?: number };
  return { nodes: placed, groups, edges, width: size.width ?? 0, height: size.height ?? 0 };
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
