import type { GraphGroup, GraphNode } from '../document-model';
import { type GraphLayout, NODE_HEIGHT, NODE_WIDTH, type PlacedNode } from '../graph-layout';

/** The graph's pan and zoom: the canvas shows the layout scaled by `scale`, its origin at (`x`, `y`). */
export interface GraphView {
  scale: number;
  x: number;
  y: number;
}

/** A point (in canvas or graph coordinates). */
export interface Point {
  x: number;
  y: number;
}

/** The canvas's size. */
export interface CanvasSize {
  width: number;
  height: number;
}

/** The view that shows the whole layout in the canvas (12 px margins, at most 1.2×), centred across and at the top. */
export function fittedView(
  canvas: CanvasSize,
  layout: Pick<GraphLayout, 'width' | 'height'>,
): GraphView | null {
  if (!layout.width) return null;
  const scale = Math.min(1.2, (canvas.width - 24) / layout.width, (canvas.height - 24) / layout.height);
  return { scale, x: (canvas.width - layout.width * scale) / 2, y: 12 };
}

/** The smallest zoom: below it, a label (kept at 11 px on screen) would no longer fit in its box. */
export const MIN_ZOOM = 0.4;

/** The view zoomed by `factor` about `point` (canvas coordinates), the scale kept within [0.4, 3]. */
export function zoomedView(view: GraphView, factor: number, point: Point): GraphView {
  const scale = Math.max(MIN_ZOOM, Math.min(3, view.scale * factor));
  const ratio = scale / view.scale;
  return { scale, x: point.x - (point.x - view.x) * ratio, y: point.y - (point.y - view.y) * ratio };
}

/** The view moved so that `node` sits across the middle and a third of the way down the canvas. */
export function centredView(view: GraphView, canvas: CanvasSize, node: Point): GraphView {
  return { ...view, x: canvas.width / 2 - node.x * view.scale, y: canvas.height / 3 - node.y * view.scale };
}

/** A canvas point in the layout's coordinates. */
export function toGraphPoint(view: GraphView, canvasPoint: Point): Point {
  return { x: (canvasPoint.x - view.x) / view.scale, y: (canvasPoint.y - view.y) / view.scale };
}

/** The placed node whose box holds `point` (graph coordinates), other than `except`: where a dragged node is dropped. */
export function nodeAt(nodes: Iterable<PlacedNode>, point: Point, except: number): PlacedNode | undefined {
  for (const node of nodes) {
    if (
      node.id !== except &&
      Math.abs(node.x - point.x) <= NODE_WIDTH / 2 &&
      Math.abs(node.y - point.y) <= NODE_HEIGHT / 2
    )
      return node;
  }
  return undefined;
}

/** The ids of the nodes a search matches (id, name, type or a chunk's text, any case), or null for no search. */
export function searchMatches(nodes: readonly GraphNode[], search: string): Set<number> | null {
  const query = search.trim().toLowerCase();
  if (!query) return null;
  return new Set(
    nodes
      .filter((node) =>
        `${node.id} ${node.name ?? ''} ${node.type} ${JSON.stringify(node.node.chunks ?? [])}`
          .toLowerCase()
          .includes(query),
      )
      .map((node) => node.id),
  );
}

/** The edges of a routed path (`from-to` keys), to highlight. */
export function pathEdgeKeys(path: readonly number[]): Set<string> {
  return new Set(path.slice(1).map((id, index) => `${path[index]}-${id}`));
}

/** The set with `id` added, or removed when it was in (a node or a component folded, unfolded). */
export function toggled(set: ReadonlySet<number>, id: number): Set<number> {
  const next = new Set(set);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/** Heat from cold (far from the message) to hot (close): a colour for a similarity in [-1, 1]. */
export function heatColour(similarity: number): string {
  const t = Math.max(0, Math.min(1, similarity));
  return `hsl(${Math.round(220 - 220 * t)} 85% ${Math.round(92 - 38 * t)}%)`;
}

/** The label of a component's group: its name and id, and the component it uses by name. */
export function groupLabel(component: GraphGroup | undefined, id: number): string {
  const name = typeof component?.node.name === 'string' ? ` “${component.node.name}”` : '';
  const use = typeof component?.node.use === 'string' ? ` uses “${component.node.use}”` : '';
  return `component${name} #${id}${use}`;
}

/** A node's flags as marks: ★ primary, ⊘ blocking, ⚓ anchor, ◌ mute. */
export function flagMarks(node: GraphNode['node']): string {
  return [
    node.isPrimary ? '★' : '',
    node.isBlocking ? '⊘' : '',
    node.isAnchor ? '⚓' : '',
    node.isMute ? '◌' : '',
  ].join('');
}

/** A node's tooltip: component, type, id, name, flags and the routed message's similarity. */
export function nodeTitle(node: GraphNode, similarity: number | undefined): string {
  const flags = node.node;
  return `${node.instance ? `(component “${node.instance.name}”, read-only) ` : ''}${node.type} #${node.id}${node.name ? ` “${node.name}”` : ''}${flags.isPrimary ? ', primary' : ''}${flags.isBlocking ? ', blocking' : ''}${flags.isAnchor ? ', anchor' : ''}${flags.isMute ? ', mute' : ''}${similarity !== undefined ? ` — similarity ${similarity.toFixed(3)}` : ''}`;
}
