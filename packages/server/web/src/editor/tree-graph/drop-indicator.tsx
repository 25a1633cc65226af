import { NODE_HEIGHT, NODE_WIDTH, type PlacedNode } from '../graph-layout';
import { dropZone } from './drop-zone';
import { nodeAt } from './graph-view';

/** While a node is dragged: a bar at the edge of the sibling it would go before or after, or a frame around the node it would move under. */
export function DropIndicator(props: {
  drag: { id: number; x: number; y: number; moved: boolean } | null;
  nodes: Map<number, PlacedNode>;
}) {
  const { drag } = props;
  if (!drag?.moved) return null;
  const target = nodeAt(props.nodes.values(), drag, drag.id);
  if (!target) return null;
  const zone = dropZone(target, drag);
  if (zone === 'inside')
    return (
      <rect
        class="graph-drop is-inside"
        x={target.x - NODE_WIDTH / 2 - 4}
        y={target.y - NODE_HEIGHT / 2 - 4}
        width={NODE_WIDTH + 8}
        height={NODE_HEIGHT + 8}
        rx={10}
      />
    );
  const x = target.x + (zone === 'before' ? -NODE_WIDTH / 2 - 8 : NODE_WIDTH / 2 + 8);
  return (
    <line
      class={`graph-drop is-${zone}`}
      data-drop-target={target.id}
      x1={x}
      x2={x}
      y1={target.y - NODE_HEIGHT / 2 - 6}
      y2={target.y + NODE_HEIGHT / 2 + 6}
    />
  );
}
