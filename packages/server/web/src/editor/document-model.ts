import type { TreeDocument, TreeDocumentNode } from '@treeagent/core/client';

/**
 * The editor's operations on a tree document, pure: each returns a new document and leaves the old
 * one as it was, so undo and redo are a list of documents (`history.ts`).
 */

/** A node type the editor offers for a new node. */
export type NewNodeType = 'emit' | 'empty' | 'switch' | 'query' | 'llm' | 'guardrail' | 'agent';

export function nodeOf(document: TreeDocument, id: number): TreeDocumentNode | undefined {
  return document.nodes.find((node) => node.id === id);
}

export function childrenOf(document: TreeDocument, id: number): TreeDocumentNode[] {
  return document.nodes.filter((node) => node.parent === id);
}

/** The ids of a node and everything below it. */
export function subtreeIds(document: TreeDocument, id: number): Set<number> {
  const ids = new Set([id]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const node of document.nodes) {
      if (node.parent != null && ids.has(node.parent) && !ids.has(node.id)) {
        ids.add(node.id);
        grew = true;
      }
    }
  }
  return ids;
}

/** The smallest id above every id in use (node ids and component id ranges). */
export function nextId(document: TreeDocument): number {
  let max = 0;
  for (const node of document.nodes) {
    max = Math.max(max, node.id);
    if (node.type === 'component' && typeof node.idBase === 'number') {
      const component = node.use ? document.components?.[node.use] : undefined;
      const local = Math.max(0, ...(component?.nodes ?? []).map((item) => item.id));
      max = Math.max(max, node.idBase + local);
    }
  }
  return max + 1;
}

/** Sets (or, with `undefined`, removes) properties of a node. */
export function updateNode(document: TreeDocument, id: number, patch: Record<string, unknown>): TreeDocument {
  return {
    ...document,
    nodes: document.nodes.map((node) => {
      if (node.id !== id) return node;
      const next: Record<string, unknown> = { ...node };
      for (const [key, value] of Object.entries(patch)) {
        if (value === undefined) delete next[key];
        else next[key] = value;
      }
      return next as TreeDocumentNode;
    }),
  };
}

/** What a new node of each type starts with: enough to be valid and to say what to fill in. */
function starter(type: NewNodeType, id: number): TreeDocumentNode {
  switch (type) {
    case 'emit':
      return {
        id,
        type,
        name: `answer ${id}`,
        chunks: [],
        emit: { message: { type: 'static', content: '' } },
      };
    case 'guardrail':
      return {
        id,
        type,
        name: `guardrail ${id}`,
        chunks: [],
        warning: 'Please keep to the topics of this service.',
      };
    case 'agent':
      return { id, type, name: `agent ${id}` };
    default:
      return { id, type, name: `${type} ${id}`, chunks: [] };
  }
}

/** Adds a child of `type` under `parentId`, last among its siblings; returns the new id. */
export function addChild(
  document: TreeDocument,
  parentId: number,
  type: NewNodeType,
): { document: TreeDocument; id: number } {
  const id = nextId(document);
  return {
    document: { ...document, nodes: [...document.nodes, { ...starter(type, id), parent: parentId }] },
    id,
  };
}

/** Removes a node and its whole subtree (never the root); links to removed nodes are dropped too. */
export function deleteSubtree(document: TreeDocument, id: number): TreeDocument {
  const node = nodeOf(document, id);
  if (!node || node.parent == null) return document;
  const removed = subtreeIds(document, id);
  return {
    ...document,
    nodes: document.nodes
      .filter((item) => !removed.has(item.id))
      .map((item) => {
        const links = item.links as Record<string, number> | undefined;
        if (!links || !Object.values(links).some((target) => removed.has(target))) return item;
        const kept = Object.fromEntries(Object.entries(links).filter(([, target]) => !removed.has(target)));
        const next: TreeDocumentNode = { ...item, links: kept };
        if (!Object.keys(kept).length) delete next.links;
        return next;
      }),
  };
}

/** Why a node cannot move under `parentId`, or `null` when it can. */
export function reparentProblem(document: TreeDocument, id: number, parentId: number): string | null {
  const node = nodeOf(document, id);
  if (!node) return `There is no node ${id}.`;
  if (node.parent == null) return 'The root has no parent.';
  if (subtreeIds(document, id).has(parentId))
    return `Node ${parentId} is inside the subtree of node ${id}: a node cannot move below itself.`;
  if (!nodeOf(document, parentId)) return `There is no node ${parentId}.`;
  return null;
}

/** Moves a node (with its subtree) under another parent, last among its new siblings. */
export function reparent(document: TreeDocument, id: number, parentId: number): TreeDocument {
  if (reparentProblem(document, id, parentId)) return document;
  const moved = nodeOf(document, id)!;
  return {
    ...document,
    nodes: [...document.nodes.filter((node) => node.id !== id), { ...moved, parent: parentId }],
  };
}

/**
 * Copies a node and its subtree beside it, with new ids (links inside the copy point to the copy;
 * explicit chunk ids are dropped, as they must be unique); returns the copy's id.
 */
export function duplicate(document: TreeDocument, id: number): { document: TreeDocument; id: number } {
  const node = nodeOf(document, id);
  if (!node || node.parent == null || node.type === 'head' || node.type === 'tail') return { document, id };
  const ids = [...subtreeIds(document, id)];
  let next = nextId(document);
  const mapping = new Map(ids.map((old) => [old, next++]));
  const copies = document.nodes
    .filter((item) => mapping.has(item.id))
    .map((item) => {
      const copy: Record<string, unknown> = JSON.parse(JSON.stringify(item));
      copy.id = mapping.get(item.id);
      if (item.id !== id) copy.parent = mapping.get(item.parent as number);
      else if (typeof item.name === 'string') copy.name = `${item.name} (copy)`;
      if (item.type === 'agent') delete copy.isPrimary;
      if (Array.isArray(copy.chunks))
        copy.chunks = copy.chunks.map((chunk: unknown) => {
          if (!chunk || typeof chunk !== 'object') return chunk;
          const { id: _dropped, ...rest } = chunk as Record<string, unknown>;
          return rest;
        });
      const links = copy.links as Record<string, number> | undefined;
      if (links)
        copy.links = Object.fromEntries(
          Object.entries(links).map(([key, target]) => [key, mapping.get(target) ?? target]),
        );
      return copy as TreeDocumentNode;
    });
  return { document: { ...document, nodes: [...document.nodes, ...copies] }, id: mapping.get(id)! };
}

/**
 * Adds a new component under `parentId`: the component node, its head, and the head's one child
 * (the entry that takes the component's place); returns the component's id.
 */
export function addComponent(
  document: TreeDocument,
  parentId: number,
  name: string,
): { document: TreeDocument; id: number } {
  const id = nextId(document);
  const nodes: TreeDocumentNode[] = [
    { id, parent: parentId, type: 'component', name },
    { id: id + 1, parent: id, type: 'head', name: `${name}: head` },
    { ...starter('emit', id + 2), parent: id + 1, name: `${name}: entry` },
  ];
  return { document: { ...document, nodes: [...document.nodes, ...nodes] }, id };
}

/**
 * Clones one of the document's `components` into the tree under `parentId` (as the original
 * product's designer clones a component into a project): its nodes with fresh ids, explicit and
 * editable. Returns the component node's id.
 */
export function instantiateComponent(
  document: TreeDocument,
  parentId: number,
  name: string,
): { document: TreeDocument; id: number } {
  const component = document.components?.[name];
  if (!component) return { document, id: parentId };
  const id = nextId(document);
  const base = id;
  const local = component.nodes.map((node) => node.id);
  const mapping = new Map(local.map((old, index) => [old, base + 1 + index]));
  const clones = component.nodes.map((node) => {
    const copy: Record<string, unknown> = JSON.parse(JSON.stringify(node));
    copy.id = mapping.get(node.id);
    copy.parent = node.parent == null ? id : mapping.get(node.parent as number);
    const links = copy.links as Record<string, number> | undefined;
    if (links)
      copy.links = Object.fromEntries(
        Object.entries(links).map(([key, target]) => [key, mapping.get(target) ?? target]),
      );
    return copy as TreeDocumentNode;
  });
  return {
    document: {
      ...document,
      nodes: [...document.nodes, { id, parent: parentId, type: 'component', name }, ...clones],
    },
    id,
  };
}

/** A node of the graph: an effective node (components flattened) with the group it is drawn in. */
export interface GraphNode {
  id: number;
  parentId: number | null;
  type: string;
  name: string | null;
  /** The component node whose group box holds it, or `null`. */
  group: number | null;
  node: TreeDocumentNode;
}

/**
 * The effective tree of a document as the graph draws it: component, head and tail nodes become
 * group boxes; a head's child hangs from the component's parent, a component's children from its
 * tail's parent (docs/concepts.md §8). Works on invalid drafts too (what cannot be placed hangs from
 * the nearest node that can).
 */
export function effectiveGraph(document: TreeDocument): {
  nodes: GraphNode[];
  groups: Map<number, TreeDocumentNode>;
} {
  const byId = new Map(document.nodes.map((node) => [node.id, node]));
  const enclosing = (id: number): number | null => {
    const seen = new Set<number>();
    for (
      let current = byId.get(id)?.parent;
      current != null && !seen.has(current);
      current = byId.get(current)?.parent
    ) {
      seen.add(current);
      const node = byId.get(current);
      if (!node) return null;
      if (node.type === 'head') return node.parent ?? null;
    }
    return null;
  };
  const tailOf = new Map<number, TreeDocumentNode>();
  for (const node of document.nodes) {
    if (node.type !== 'tail') continue;
    const component = enclosing(node.id);
    if (component !== null && !tailOf.has(component)) tailOf.set(component, node);
  }
  const attach = (id: number | null | undefined, depth = 0): number | null => {
    if (id == null || depth > 64) return null;
    const node = byId.get(id);
    if (!node) return null;
    if (node.type === 'head') return attach(byId.get(node.parent ?? Number.NaN)?.parent, depth + 1);
    if (node.type === 'component') {
      const tail = tailOf.get(node.id);
      return attach(tail ? tail.parent : node.parent, depth + 1);
    }
    if (node.type === 'tail') return attach(node.parent, depth + 1);
    return id;
  };
  const groups = new Map<number, TreeDocumentNode>();
  const nodes: GraphNode[] = [];
  for (const node of document.nodes) {
    if (node.type === 'component') {
      groups.set(node.id, node);
      continue;
    }
    if (node.type === 'head' || node.type === 'tail') continue;
    nodes.push({
      id: node.id,
      parentId: attach(node.parent),
      type: node.type,
      name: typeof node.name === 'string' ? node.name : null,
      group: enclosing(node.id),
      node,
    });
  }
  return { nodes, groups };
}
