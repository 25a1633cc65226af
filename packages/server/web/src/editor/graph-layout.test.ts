import type { TreeDocument } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import { effectiveGraph, moveAmongSiblings } from './document-model';
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
  it('a collapsed component is one box in place of its nodes, with the edges into and out of it', () => {
    const { nodes, groups } = effectiveGraph(document);
    const placed = layoutGraph(nodes, new Set(), { groups, collapsedGroups: new Set([4]) });
    expect([...placed.nodes.keys()].sort()).toEqual([1, 2, 3]);
    expect(placed.collapsedGroups).toMatchObject([{ id: 4, count: 2 }]);
    expect(placed.groups).toEqual([]);
    expect(placed.edges.map((edge) => [edge.from, edge.to])).toContainEqual([2, 4]);
  });

  it('a component used by name is drawn as a group too, nested in its parent component', () => {
    const used: TreeDocument = {
      components: {
        inner: {
          nodes: [
            { id: 1, type: 'head' },
            { id: 2, parent: 1, type: 'emit', chunks: ['x'] },
          ],
        },
      },
      nodes: [...document.nodes, { id: 8, parent: 7, type: 'component', use: 'inner', idBase: 20 }],
    };
    const { nodes, groups } = effectiveGraph(used);
    const placed = layoutGraph(nodes, new Set(), { groups });
    const inner = placed.groups.find((group) => group.id === 8)!;
    const outer = placed.groups.find((group) => group.id === 4)!;
    const at = placed.nodes.get(22)!;
    expect(at.x).toBeGreaterThan(inner.x);
    expect(at.x).toBeLessThan(inner.x + inner.width);
    expect(inner.x).toBeGreaterThanOrEqual(outer.x);
    expect(inner.x + inner.width).toBeLessThanOrEqual(outer.x + outer.width);
    // Collapsing the outer component hides the inner one with it.
    const folded = layoutGraph(nodes, new Set(), { groups, collapsedGroups: new Set([4]) });
    expect(folded.collapsedGroups).toMatchObject([{ id: 4, count: 3 }]);
    expect(folded.nodes.has(22)).toBe(false);
  });

  it('siblings are drawn left to right in their order in the tree', () => {
    const siblings: TreeDocument = {
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, parent: 1, type: 'agent', isPrimary: true },
        { id: 3, parent: 2, type: 'emit' },
        { id: 4, parent: 2, type: 'emit' },
        { id: 5, parent: 2, type: 'emit' },
      ],
    };
    const order = (doc: TreeDocument) => {
      const placed = layoutGraph(effectiveGraph(doc).nodes, new Set());
      return [3, 4, 5].sort((a, b) => placed.nodes.get(a)!.x - placed.nodes.get(b)!.x);
    };
    expect(order(siblings)).toEqual([3, 4, 5]);
    expect(order(moveAmongSiblings(siblings, 5, -1))).toEqual([3, 5, 4]);
    expect(order(moveAmongSiblings(moveAmongSiblings(siblings, 5, -1), 5, -1))).toEqual([5, 3, 4]);
    // A component takes its place among the siblings too (its entry is drawn there).
    const xOf = (doc: TreeDocument, id: number) =>
      layoutGraph(effectiveGraph(doc).nodes, new Set()).nodes.get(id)!.x;
    expect(xOf(document, 3)).toBeLessThan(xOf(document, 6));
    const swapped = moveAmongSiblings(document, 4, -1);
    expect(xOf(swapped, 6)).toBeLessThan(xOf(swapped, 3));
    // Two components after two nodes (one used by name): in that order, each box around its own.
    const mixed: TreeDocument = {
      components: {
        address: {
          nodes: [
            { id: 1, type: 'head' },
            { id: 2, parent: 1, type: 'emit' },
          ],
        },
      },
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, parent: 1, type: 'agent' },
        { id: 3, parent: 2, type: 'emit' },
        { id: 4, parent: 2, type: 'emit' },
        { id: 5, parent: 2, type: 'component', use: 'address', idBase: 100 },
        { id: 6, parent: 2, type: 'component' },
        { id: 7, parent: 6, type: 'head' },
        { id: 8, parent: 7, type: 'emit' },
      ],
    };
    const graph = effectiveGraph(mixed);
    const placed = layoutGraph(graph.nodes, new Set(), { groups: graph.groups });
    const xs = [3, 4, 102, 8].map((id) => placed.nodes.get(id)!.x);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    for (const group of placed.groups)
      for (const [id, node] of placed.nodes) {
        const inside =
          node.x > group.x &&
          node.x < group.x + group.width &&
          node.y > group.y &&
          node.y < group.y + group.height;
        expect(inside, `node ${id} in the box of component ${group.id}`).toBe(
          graph.nodes.find((item) => item.id === id)!.group === group.id,
        );
      }
  });
});
