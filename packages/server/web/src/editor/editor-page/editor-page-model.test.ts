import type { TreeDocument } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import type { EditorRouteResponse } from '../../../../src/api-types';
import { effectiveGraph } from '../document-model';
import {
  editorStatusText,
  findingCounts,
  heatOf,
  nodeDisplayName,
  routedPath,
  selectionOf,
  withPrimaryAgent,
} from './editor-page-model';
import { shortcutOf } from './use-editor-shortcuts';

const document = {
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'Shop' },
    { id: 3, type: 'agent', parent: 1 },
    { id: 4, type: 'emit', parent: 2, name: 'Hours' },
  ],
} as unknown as TreeDocument;

const route = (decisions: [number, number][], heat: [number, number][] = []) =>
  ({
    route: { decisions: decisions.map(([nodeId, nextNodeId]) => ({ nodeId, nextNodeId })) },
    heat: heat.map(([nodeId, similarity]) => ({ nodeId, similarity })),
  }) as unknown as EditorRouteResponse;

describe('the editor page model', () => {
  it('counts errors and warnings per node, leaving out findings on the whole tree', () => {
    const counts = findingCounts({
      problems: [{ nodeId: 4 }, { nodeId: 4 }, {}] as never,
      lint: [{ nodeId: 4 }, { nodeId: 2 }] as never,
    });
    expect(Object.fromEntries(counts)).toEqual({
      4: { errors: 2, warnings: 1 },
      2: { errors: 0, warnings: 1 },
    });
    expect(findingCounts(null).size).toBe(0);
  });

  it('lists a routed path in order, each node once, and its heat by node', () => {
    expect(
      routedPath(
        route([
          [1, 2],
          [2, 4],
          [4, 4],
        ]),
      ),
    ).toEqual([1, 2, 4]);
    expect(routedPath(null)).toEqual([]);
    expect(heatOf(route([], [[4, 0.8]]))?.get(4)).toBe(0.8);
    expect(heatOf(null)).toBeNull();
  });

  it("names a node by the draft's name, else the checked tree's, else its id", () => {
    expect(nodeDisplayName(document, null, 4)).toBe('Hours #4');
    expect(nodeDisplayName(document, { tree: { nodes: [{ id: 3, name: 'Repairs' }] } } as never, 3)).toBe(
      'Repairs #3',
    );
    expect(nodeDisplayName(document, null, 3)).toBe('#3');
  });

  it('says checking, then the problems that stop a save, then unsaved or saved', () => {
    expect(editorStatusText({ checking: true, problems: 2, dirty: true })).toBe('Checking…');
    expect(editorStatusText({ checking: false, problems: 1, dirty: true })).toBe('1 problem: cannot save');
    expect(editorStatusText({ checking: false, problems: 3, dirty: false })).toBe('3 problems: cannot save');
    expect(editorStatusText({ checking: false, problems: 0, dirty: true })).toBe('Unsaved changes');
    expect(editorStatusText({ checking: false, problems: 0, dirty: false })).toBe('Saved');
  });

  it('selects a node of the document, or nothing', () => {
    const graph = effectiveGraph(document);
    expect(selectionOf(document, graph, 4)).toMatchObject({ node: { id: 4 }, instance: null, head: null });
    expect(selectionOf(document, graph, 4).documentNode?.id).toBe(4);
    expect(selectionOf(document, graph, null).node).toBeUndefined();
  });

  it('makes one agent the primary one', () => {
    const nodes = withPrimaryAgent(document, 3).nodes;
    expect(nodes.filter((node) => node.isPrimary).map((node) => node.id)).toEqual([3]);
    expect('isPrimary' in nodes[1]!).toBe(false);
    expect(nodes[3]).toBe(document.nodes[3]);
  });

  it('maps Ctrl/⌘ keys to save, undo and redo; undo and redo not while typing in a field', () => {
    const key = (key: string, more: Partial<Parameters<typeof shortcutOf>[0]> = {}) =>
      shortcutOf({ key, ctrlKey: true, metaKey: false, shiftKey: false, inField: false, ...more });
    expect(key('s')).toBe('save');
    expect(key('S', { inField: true })).toBe('save');
    expect(key('z')).toBe('undo');
    expect(key('Z', { shiftKey: true })).toBe('redo');
    expect(key('y', { ctrlKey: false, metaKey: true })).toBe('redo');
    expect(key('z', { inField: true })).toBeNull();
    expect(key('s', { ctrlKey: false })).toBeNull();
    expect(key('x')).toBeNull();
  });
});
