import { describe, expect, it } from 'vitest';
import type { GraphNode } from '../document-model';
import { depthsOf, legibleFold } from './legible-fit';
import { labelMetrics, MIN_LABEL_PX } from './legible-labels';

const node = (id: number, parentId: number | null): GraphNode =>
  ({
    id,
    parentId,
    type: 'emit',
    name: `node ${id}`,
    group: null,
    node: { id, type: 'emit' },
    instance: null,
  }) as GraphNode;

/** A root with `fanout` children, each with `fanout` children. */
function wide(fanout: number): GraphNode[] {
  const nodes = [node(1, null)];
  let id = 2;
  for (let child = 0; child < fanout; child++) {
    const childId = id++;
    nodes.push(node(childId, 1));
    for (let grandchild = 0; grandchild < fanout; grandchild++) nodes.push(node(id++, childId));
  }
  return nodes;
}

describe('legible labels (pure)', () => {
  it('keeps every label at 11 px or more on screen, whatever the zoom, and drops the meta line when two no longer fit', () => {
    for (const scale of [0.4, 0.5, 0.7, 1, 2]) {
      const metrics = labelMetrics(scale);
      expect(metrics.metaSize * scale).toBeGreaterThanOrEqual(MIN_LABEL_PX - 1e-9);
      expect(metrics.nameSize * scale).toBeGreaterThanOrEqual(MIN_LABEL_PX);
    }
    expect(labelMetrics(1)).toMatchObject({ factor: 1, nameSize: 13, metaSize: 11, showMeta: true });
    expect(labelMetrics(0.5)).toMatchObject({ factor: 2, showMeta: false });
    // Fewer characters fit as the text grows.
    expect(labelMetrics(0.5).nameChars).toBeLessThan(labelMetrics(1).nameChars);
  });

  it('folds the deepest level that makes the graph too small at Fit, and nothing when it fits', () => {
    const nodes = wide(8);
    expect(depthsOf(nodes).get(1)).toBe(0);
    expect(depthsOf(nodes).get(3)).toBe(2);
    // 72 boxes across do not fit 800 px at 0.5×: the root's children are folded.
    const folded = legibleFold(nodes, { width: 800, height: 600 });
    expect([...folded].sort((a, b) => a - b)).toEqual(nodes.filter((n) => n.parentId === 1).map((n) => n.id));
    expect(legibleFold(wide(2), { width: 1600, height: 900 })).toEqual(new Set());
  });
});
