import { describe, expect, it } from 'vitest';
import type { GraphNode } from '../document-model';
import type { PlacedNode } from '../graph-layout';
import {
  centredView,
  fittedView,
  flagMarks,
  groupLabel,
  heatColour,
  nodeAt,
  nodeTitle,
  pathEdgeKeys,
  searchMatches,
  toGraphPoint,
  toggled,
  zoomedView,
} from './graph-view';

const node = (id: number, name: string | null, extra: Partial<GraphNode['node']> = {}): GraphNode =>
  ({
    id,
    parentId: null,
    type: 'emit',
    name,
    group: null,
    node: { id, type: 'emit', ...extra },
    instance: null,
  }) as GraphNode;

describe('the graph view (pure)', () => {
  it('fits the layout in the canvas with 12 px margins, never above 1.2×', () => {
    expect(fittedView({ width: 424, height: 1000 }, { width: 800, height: 100 })).toEqual({
      scale: 0.5,
      x: 12,
      y: 12,
    });
    expect(fittedView({ width: 1000, height: 1000 }, { width: 100, height: 100 })).toEqual({
      scale: 1.2,
      x: 440,
      y: 12,
    });
    expect(fittedView({ width: 1000, height: 1000 }, { width: 0, height: 0 })).toBeNull();
  });

  it('zooms about a point (that point stays put), within 0.4× and 3×', () => {
    const view = { scale: 1, x: 10, y: 20 };
    const zoomed = zoomedView(view, 2, { x: 110, y: 120 });
    expect(zoomed).toEqual({ scale: 2, x: -90, y: -80 });
    // The graph point under the pointer is the same before and after.
    expect(toGraphPoint(zoomed, { x: 110, y: 120 })).toEqual(toGraphPoint(view, { x: 110, y: 120 }));
    expect(zoomedView(view, 100, { x: 0, y: 0 }).scale).toBe(3);
    expect(zoomedView(view, 0.001, { x: 0, y: 0 }).scale).toBe(0.4);
  });

  it('centres a node across and a third of the way down', () => {
    expect(centredView({ scale: 2, x: 0, y: 0 }, { width: 600, height: 300 }, { x: 50, y: 10 })).toEqual({
      scale: 2,
      x: 200,
      y: 80,
    });
  });

  it('finds the node under a dropped point, never the dragged one', () => {
    const placed: PlacedNode[] = [
      { id: 1, x: 100, y: 100 } as PlacedNode,
      { id: 2, x: 400, y: 100 } as PlacedNode,
    ];
    expect(nodeAt(placed, { x: 420, y: 110 }, 1)?.id).toBe(2);
    expect(nodeAt(placed, { x: 100, y: 100 }, 1)).toBeUndefined();
    expect(nodeAt(placed, { x: 250, y: 100 }, 0)).toBeUndefined();
  });

  it('searches id, name, type and chunk text in any case; no search is null', () => {
    const nodes = [node(1, 'Opening hours', { chunks: ['when are you open'] }), node(22, 'Prices')];
    expect(searchMatches(nodes, '  ')).toBeNull();
    expect([...searchMatches(nodes, 'HOURS')!]).toEqual([1]);
    expect([...searchMatches(nodes, 'you OPEN')!]).toEqual([1]);
    expect([...searchMatches(nodes, '22')!]).toEqual([22]);
    expect([...searchMatches(nodes, 'emit')!]).toEqual([1, 22]);
  });

  it('keys the edges of a path and toggles a fold', () => {
    expect([...pathEdgeKeys([1, 4, 9])]).toEqual(['1-4', '4-9']);
    expect([...pathEdgeKeys([1])]).toEqual([]);
    expect([...toggled(new Set([1, 2]), 2)]).toEqual([1]);
    expect([...toggled(new Set([1]), 3)]).toEqual([1, 3]);
  });

  it('colours heat from cold blue to hot red, clamped', () => {
    expect(heatColour(0)).toBe('hsl(220 85% 92%)');
    expect(heatColour(1)).toBe('hsl(0 85% 54%)');
    expect(heatColour(-0.5)).toBe(heatColour(0));
    expect(heatColour(2)).toBe(heatColour(1));
  });

  it('labels a group and a node with their flags and similarity', () => {
    const group = { id: 7, node: { id: 7, type: 'component', name: 'Cart', use: 'cart' } } as never;
    expect(groupLabel(group, 7)).toBe('component “Cart” #7 uses “cart”');
    expect(groupLabel(undefined, 7)).toBe('component #7');
    const flagged = node(3, 'Help', { isPrimary: true, isMute: true });
    expect(flagMarks(flagged.node)).toBe('★◌');
    expect(nodeTitle(flagged, 0.12345)).toBe('emit #3 “Help”, primary, mute — similarity 0.123');
  });
});
