import type { GraphGroup, GraphNode } from '../document-model';
import { layoutGraph } from '../graph-layout';
import { type CanvasSize, fittedView } from './graph-view';

/** The smallest zoom "Fit" goes down to: below it, deeper levels are folded instead. */
export const FIT_MIN_SCALE = 0.5;

/** Each node's depth (the root 0), from the parents. */
export function depthsOf(nodes: readonly GraphNode[]): Map<number, number> {
  const parentOf = new Map(nodes.map((node) => [node.id, node.parentId]));
  const depths = new Map<number, number>();
  const depthOf = (id: number, seen = new Set<number>()): number => {
    const known = depths.get(id);
    if (known !== undefined) return known;
    const parent = parentOf.get(id) ?? null;
    const depth =
      parent === null || seen.has(parent) || !parentOf.has(parent) ? 0 : depthOf(parent, seen.add(id)) + 1;
    depths.set(id, depth);
    return depth;
  };
  for (const node of nodes) depthOf(node.id);
  return depths;
}

/**
 * What "Fit" folds so the whole visible graph fits the canvas at `FIT_MIN_SCALE` or more (labels
 * stay legible): nothing when the whole tree fits; else the nodes of the deepest level that still
 * fits, with children, are folded (their ▸ unfolds them). When even the root's children do not fit,
 * the root's children are folded.
 */
export function legibleFold(
  nodes: readonly GraphNode[],
  canvas: CanvasSize,
  options: { groups?: ReadonlyMap<number, GraphGroup>; collapsedGroups?: ReadonlySet<number> } = {},
): Set<number> {
  const fits = (collapsed: Set<number>) => {
    const view = fittedView(canvas, layoutGraph(nodes, collapsed, options));
    return !view || view.scale >= FIT_MIN_SCALE;
  };
  if (fits(new Set())) return new Set();
  const depths = depthsOf(nodes);
  const parents = new Set(nodes.map((node) => node.parentId));
  const foldedAt = (depth: number) =>
    new Set(
      nodes.filter((node) => depths.get(node.id) === depth && parents.has(node.id)).map((node) => node.id),
    );
  const deepest = Math.max(0, ...depths.values());
  for (let depth = deepest - 1; depth >= 1; depth--) {
    const folded = foldedAt(depth);
    if (folded.size && fits(folded)) return folded;
  }
  return foldedAt(1).size ? foldedAt(1) : foldedAt(0);
}
