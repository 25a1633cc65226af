import type { TreeDocument } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import { childrenOf } from './document-model';
import { moveBeside, reorderProblem } from './sibling-order';

const document = {
  format: 'treeagent-tree',
  version: 1,
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'emit', parent: 2 },
    { id: 4, type: 'emit', parent: 2 },
    { id: 7, type: 'emit', parent: 4 },
    { id: 5, type: 'emit', parent: 2 },
    { id: 6, type: 'emit', parent: 2 },
  ],
} as TreeDocument;
const order = (doc: TreeDocument) => childrenOf(doc, 2).map((node) => node.id);

describe('sibling order by drag and drop (pure)', () => {
  it('puts a node before or after a sibling, its subtree with it', () => {
    expect(order(moveBeside(document, 6, 3, 'before'))).toEqual([6, 3, 4, 5]);
    expect(order(moveBeside(document, 3, 6, 'after'))).toEqual([4, 5, 6, 3]);
    expect(order(moveBeside(document, 3, 5, 'before'))).toEqual([4, 3, 5, 6]);
    expect(order(moveBeside(document, 6, 4, 'after'))).toEqual([3, 4, 6, 5]);
    const moved = moveBeside(document, 4, 6, 'after');
    // Node 7 (under 4) follows its parent in the file.
    expect(moved.nodes.map((node) => node.id)).toEqual([1, 2, 3, 5, 6, 4, 7]);
  });

  it('refuses anything but a sibling, naming why', () => {
    expect(reorderProblem(document, 7, 5)).toContain('7');
    expect(reorderProblem(document, 7, 5)).toMatch(/sibling/);
    expect(moveBeside(document, 7, 5, 'before')).toBe(document);
    expect(reorderProblem(document, 1, 2)).not.toBeNull();
    expect(reorderProblem(document, 3, 5)).toBeNull();
  });
});
