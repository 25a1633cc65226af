import { defineTree } from '@treeagent/core';
import type { TreeDocument } from '@treeagent/core/client';
import { documentToDefinition } from '@treeagent/core/document';
import { describe, expect, it } from 'vitest';
import {
  addChild,
  addComponent,
  deleteSubtree,
  duplicate,
  effectiveGraph,
  expandUses,
  instantiateComponent,
  linksInto,
  makeInstanceExplicit,
  moveAmongSiblings,
  nextId,
  reparent,
  reparentProblem,
  siblingPosition,
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
  it('add, update, delete: new ids, properties removed with undefined, links into a deleted subtree kept (the check lists them)', () => {
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
    // The links into the deleted subtree stay (the check lists them), named beforehand by linksInto.
    expect(linksInto(updated, 3)).toEqual([{ nodeId: 2, link: 'help' }]);
    const deleted = deleteSubtree(updated, 3);
    expect(deleted.nodes.map((node) => node.id)).toEqual([1, 2]);
    expect(deleted.nodes[1]!.links).toEqual(updated.nodes[1]!.links);
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

describe('components used by name', () => {
  // "greeting" used twice by name, and once inside another component ("welcome") used by name.
  const used: TreeDocument = {
    version: 1,
    components: {
      greeting: {
        nodes: [
          { id: 1, type: 'head', name: 'greeting head' },
          { id: 2, parent: 1, type: 'emit', name: 'hello', chunks: ['hi there'], links: { self: 2 } },
        ],
      },
      welcome: {
        nodes: [
          { id: 1, type: 'head' },
          { id: 2, parent: 1, type: 'switch', name: 'welcome', chunks: ['welcome'] },
          { id: 3, parent: 2, type: 'component', use: 'greeting', idBase: 10 },
        ],
      },
    },
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, parent: 1, type: 'agent', isPrimary: true },
      { id: 3, parent: 2, type: 'component', name: 'first', use: 'greeting', idBase: 100 },
      { id: 4, parent: 2, type: 'component', use: 'welcome', idBase: 200 },
      {
        id: 5,
        parent: 2,
        type: 'emit',
        name: 'bye',
        chunks: ['goodbye'],
        emit: { message: { type: 'static', content: 'Bye.' } },
      },
    ],
  };
  it('are expanded with ids idBase + local id, as the engine does, and drawn as groups', () => {
    const ids = expandUses(used)
      .filter((item) => !['component', 'head', 'tail'].includes(item.node.type))
      .map((item) => item.node.id);
    // The effective tree: components flattened away, every other node with the same id.
    const engine = [...built(used).nodes.keys()];
    expect(new Set(ids)).toEqual(new Set(engine));
    const graph = effectiveGraph(used);
    const hello = graph.nodes.find((node) => node.id === 102)!;
    expect(hello).toMatchObject({ parentId: 2, group: 3, instance: { name: 'greeting', componentId: 3 } });
    expect(hello.node.links).toEqual({ self: 102 });
    // The nested use: its group inside the outer one, its nodes belonging to the outer instance.
    expect(graph.nodes.find((node) => node.id === 212)).toMatchObject({
      parentId: 202,
      group: 203,
      instance: { componentId: 4 },
    });
    expect(graph.groups.get(203)).toMatchObject({ parentGroup: 4, head: { id: 211 } });
    expect(graph.groups.get(3)!.head).toMatchObject({ id: 101, name: 'greeting head' });
  });

  it('made explicit: the same effective tree, its nodes now editable in the document', () => {
    const explicit = makeInstanceExplicit(makeInstanceExplicit(used, 3), 4);
    expect(explicit.nodes.find((node) => node.id === 3)).not.toHaveProperty('use');
    expect(explicit.nodes.find((node) => node.id === 102)).toMatchObject({ parent: 101, name: 'hello' });
    // The nested use stays a use, shifted into the outer instance's ids.
    expect(explicit.nodes.find((node) => node.id === 203)).toMatchObject({ use: 'greeting', idBase: 210 });
    expect(built(explicit).contentHash).toBe(built(used).contentHash);
    expect(makeInstanceExplicit(used, 5)).toBe(used);
  });
});

const built = (document: TreeDocument) => defineTree(documentToDefinition(document, {}));

describe('sibling order', () => {
  it('moves a node among its siblings, which is the order of the children in the tree', () => {
    expect(siblingPosition(document, 3)).toEqual({ index: 0, count: 1 });
    const three = addChild(addChild(document, 2, 'emit').document, 2, 'emit').document;
    expect(three.nodes.filter((node) => node.parent === 2).map((node) => node.id)).toEqual([3, 5, 6]);
    const moved = moveAmongSiblings(three, 6, -1);
    expect(moved.nodes.filter((node) => node.parent === 2).map((node) => node.id)).toEqual([3, 6, 5]);
    expect(siblingPosition(moved, 6)).toEqual({ index: 1, count: 3 });
    expect(moveAmongSiblings(moved, 3, -1)).toBe(moved);
    expect(moveAmongSiblings(moved, 5, 1)).toBe(moved);
    expect(moveAmongSiblings(moved, 1, 1)).toBe(moved);
    // The engine takes the same order.
    const valid = {
      ...moved,
      nodes: moved.nodes.map((node) =>
        node.type === 'emit' ? { ...node, emit: { message: { type: 'static', content: 'ok' } } } : node,
      ),
    };
    expect(built(valid).node(2).children).toEqual([3, 6, 5]);
    // A component moves with its nodes: its entry takes the new place in the engine too.
    const withComponent = addComponent(valid, 2, 'faq');
    const entry = withComponent.id + 2;
    const ready = updateNode(withComponent.document, entry, {
      emit: { message: { type: 'static', content: 'ok' } },
    });
    expect(built(ready).node(2).children).toEqual([3, 6, 5, entry]);
    const earlier = moveAmongSiblings(moveAmongSiblings(ready, withComponent.id, -1), withComponent.id, -1);
    expect(built(earlier).node(2).children).toEqual([3, entry, 6, 5]);
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
