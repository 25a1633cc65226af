import { NODE_WIDTH, type PlacedNode } from '../graph-layout';
import type { DropSide } from '../sibling-order';
import type { Point } from './graph-view';

/**
 * Where a drop on a node box lands: its left quarter puts the dragged node before it among their
 * siblings, its right quarter after it, its middle moves the dragged node under it.
 */
export function dropZone(target: PlacedNode, point: Point): DropSide | 'inside' {
  const offset = point.x - target.x;
  if (offset < -NODE_WIDTH / 4) return 'before';
  if (offset > NODE_WIDTH / 4) return 'after';
  return 'inside';
}
