import type { TreeDocument } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import {
  addChild,
  addComponent,
  deleteSubtree,
  duplicate,
  effectiveGraph,
  instantiateComponent,
  nextId,
  reparent,
  reparentProblem,
  updateNode,
} from './document-model';
import { record, redo, startHistory, undo } from './history';

const document: TreeDocument = {
  version: 1,
  components: {
    greeting: {
      nodes: [
        { id: 1, type: 'head' },
        { id: 2, parent: 1, type: 'emit', chunks: ['hi'] },
      ],
    },
  },
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, parent: 1, type: 'agent', isPrimary: true, links: { help: 4 } },
    { id: 3, parent: 2, type: 'switch', name: 'orders' },
    { id: 4, parent: 3, type: 'emit', name: 'status', chunks: [{ id: 'c1', text: 'where is my order' }] },
  ],
};

describe('document operations', () => {
  it('add, update, delete: new ids, properties removed with undefined, links to removed nodes dropped', () => {
    const added = addChild(document, 3, 'emit');
    expect(added.id).toBe(5);
    expect(added.document.nodes.at(-1)).toMatchObject({ id: 5, parent: 3, type: 'emit' });
    const updated = updateNode(added.document, 5, {
      name: 'eta',
      chunks: ['when will it arrive'],
      emit: undefined,
    });
    expect(updated.nodes.at(-1)).toEqual({
      id: 5,
      parent: 3,
      type: 'emit',
      name: 'eta',
      chunks: ['when will it arrive'],
    });
    const deleted = deleteSubtree(updated, 3);
    expect(deleted.nodes.map((node) => node.id)).toEqual([1, 2]);
    expect(deleted.nodes[1]!.links).toBeUndefined();
    expect(deleteSubtree(document, 1)).toBe(document);
    expect(document.nodes).toHaveLength(4);
  });

  it('re-parents, refusing a move below itself', () => {
    expect(reparentProblem(document, 3, 4)).toMatch(/inside the subtree of node 3/);
    expect(reparent(document, 3, 4)).toBe(document);
    expect(reparent(document, 4, 2).nodes.find((node) => node.id === 4)!.parent).toBe(2);
  });

  it('duplicates a subtree with new ids, links inside it remapped, chunk ids dropped, no second primary', () => {
    const copied = duplicate(document, 2);
    expect(copied.id).toBe(5);
    const copies = copied.document.nodes.slice(4);
    expect(copies.map((node) => [node.id, node.parent])).toEqual([
      [5, 1],
      [6, 5],
      [7, 6],
    ]);
    expect(copies[0]).not.toHaveProperty('isPrimary');
    expect(copies[0]!.links).toEqual({ help: 7 });
    expect(copies[2]!.chunks).toEqual([{ text: 'where is my order' }]);
  });

  it('adds a new component and clones a named one, drawn as groups in the effective graph', () => {
    const fresh = addComponent(document, 2, 'faq');
    expect(fresh.document.nodes.slice(4).map((node) => node.type)).toEqual(['component', 'head', 'emit']);
    const cloned = instantiateComponent(fresh.document, 3, 'greeting');
    expect(cloned.id).toBe(nextId(fresh.document));
    const graph = effectiveGraph(cloned.document);
    const entry = graph.nodes.find((node) => node.id === 7)!;
    expect(entry).toMatchObject({ parentId: 2, group: 5 });
    const clone = graph.nodes.find((node) => node.group === cloned.id)!;
    expect(clone).toMatchObject({ parentId: 3, type: 'emit' });
    expect([...graph.groups.keys()]).toEqual([5, cloned.id]);
  });
});

describe('undo and redo', () => {
  it('walks back and forth; a new edit drops what was undone', () => {
    let history = startHistory(1);
    history = record(history, 2);
    history = record(history, 3);
    history = undo(history);
    expect(history.present).toBe(2);
    history = redo(history);
    expect(history.present).toBe(3);
    history = undo(undo(history));
    expect(history.present).toBe(1);
    expect(undo(history)).toBe(history);
    history = record(history, 4);
    expect(history.future).toEqual([]);
    expect(redo(history)).toBe(history);
  });
});
