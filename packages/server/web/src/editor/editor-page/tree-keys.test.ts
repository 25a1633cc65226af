import { describe, expect, it } from 'vitest';
import type { GraphNode } from '../document-model';
import { arrowTarget, treeKeyOf } from './tree-keys';

const key = (key: string, extra: Partial<Parameters<typeof treeKeyOf>[0]> = {}) =>
  treeKeyOf({ key, altKey: false, ctrlKey: false, metaKey: false, inField: false, ...extra });
const node = (id: number, parentId: number | null) => ({ id, parentId }) as GraphNode;
const nodes = [node(1, null), node(2, 1), node(3, 2), node(4, 2), node(5, 2), node(6, 4)];

describe('the tree keyboard (pure)', () => {
  it('maps keys to commands, never in a field nor with Ctrl/⌘', () => {
    expect(key('ArrowUp')).toBe('select-parent');
    expect(key('ArrowDown')).toBe('select-child');
    expect(key('ArrowLeft')).toBe('select-previous');
    expect(key('ArrowRight')).toBe('select-next');
    expect(key('ArrowUp', { altKey: true })).toBe('move-earlier');
    expect(key('ArrowDown', { altKey: true })).toBe('move-later');
    expect(key('a')).toBe('add-child');
    expect(key('Delete')).toBe('delete');
    expect(key('?')).toBe('help');
    expect(key('a', { inField: true })).toBeNull();
    expect(key('ArrowUp', { inField: true })).toBeNull();
    expect(key('z', { ctrlKey: true })).toBeNull();
    expect(key('x')).toBeNull();
  });

  it('moves the selection along the drawn tree', () => {
    expect(arrowTarget(nodes, null, 'select-child')).toBe(1);
    expect(arrowTarget(nodes, 2, 'select-child')).toBe(3);
    expect(arrowTarget(nodes, 4, 'select-parent')).toBe(2);
    expect(arrowTarget(nodes, 4, 'select-next')).toBe(5);
    expect(arrowTarget(nodes, 4, 'select-previous')).toBe(3);
    expect(arrowTarget(nodes, 3, 'select-previous')).toBeNull();
    expect(arrowTarget(nodes, 1, 'select-parent')).toBeNull();
  });
});
