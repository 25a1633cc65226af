import type { TreeDocument } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import { effectiveGraph } from './document-model';
import { layoutGraph, NODE_HEIGHT } from './graph-layout';

const document: TreeDocument = {
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, parent: 1, type: 'agent', isPrimary: true },
    { id: 3, parent: 2, type: 'emit', chunks: ['a'] },
    { id: 4, parent: 2, type: 'component', name: 'faq' },
    { id: 5, parent: 4, type: 'head' },
    { id: 6, parent: 5, type: 'switch', chunks: ['b'] },
    { id: 7, parent: 6, type: 'emit', chunks: ['c'] },
  ],
};

describe('graph layout (dagre)', () => {
  it('places children below their parent, and a component as a box around its nodes', () => {
    const { nodes } = effectiveGraph(document);
    const placed = layoutGraph(nodes, new Set());
    const at = (id: number) => placed.nodes.get(id)!;
    expect(at(2).y).toBeGreaterThan(at(1).y);
    expect(at(3).y).toBe(at(6).y);
    expect(at(7).y).toBeGreaterThanOrEqual(at(6).y + NODE_HEIGHT);
    const group = placed.groups.find((item) => item.id === 4)!;
    for (const id of [6, 7]) {
      expect(at(id).x).toBeGreaterThan(group.x);
      expect(at(id).x).toBeLessThan(group.x + group.width);
    }
    expect(at(3).x < group.x || at(3).x > group.x + group.width).toBe(true);
    expect(placed.edges.map((edge) => [edge.from, edge.to])).toContainEqual([2, 6]);
  });

  it('a collapsed node hides its subtree', () => {
    const { nodes } = effectiveGraph(document);
    const placed = layoutGraph(nodes, new Set([2]));
    expect([...placed.nodes.keys()]).toEqual([1, 2]);
  });
});
