import type { TreeDocument, TreeDocumentNode } from '@treeagent/core/client';
import { tOf } from '../i18n/use-t';

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

/**
 * Removes a node and its whole subtree (never the root). Links that pointed into it stay: the check
 * lists each as a problem of the node that holds it, so a callback that follows one (a fallback's
 * `links.sorry`) is not left to fail at run time unnoticed; point it elsewhere, or undo.
 */
export function deleteSubtree(document: TreeDocument, id: number): TreeDocument {
  const node = nodeOf(document, id);
  if (!node || node.parent == null) return document;
  const removed = subtreeIds(document, id);
  return { ...document, nodes: document.nodes.filter((item) => !removed.has(item.id)) };
}

/** The links of nodes outside `id`'s subtree that point into it: what deleting it would break. */
export function linksInto(document: TreeDocument, id: number): { nodeId: number; link: string }[] {
  const removed = subtreeIds(document, id);
  return document.nodes
    .filter((item) => !removed.has(item.id))
    .flatMap((item) =>
      Object.entries((item.links as Record<string, number> | undefined) ?? {})
        .filter(([, target]) => removed.has(target))
        .map(([link]) => ({ nodeId: item.id, link })),
    );
}

/** Why a node cannot move under `parentId`, or `null` when it can. */
export function reparentProblem(document: TreeDocument, id: number, parentId: number): string | null {
  const t = tOf('editor');
  const node = nodeOf(document, id);
  if (!node) return t('reparent.noNode', { id });
  if (node.parent == null) return t('reparent.root');
  if (subtreeIds(document, id).has(parentId)) return t('reparent.inside', { parent: parentId, id });
  if (!nodeOf(document, parentId)) return t('reparent.noNode', { id: parentId });
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
  /** The component node whose group box holds it (the innermost), or `null`. */
  group: number | null;
  node: TreeDocumentNode;
  /**
   * For a node of a component used by name (`use`): the component's name and the component node that
   * instantiates it. Such a node lives in the document's `components`, not in `nodes`: it is shown,
   * and edited by making the instance explicit (`makeInstanceExplicit`).
   */
  instance: { name: string; componentId: number } | null;
}

/** A component drawn as a group box. */
export interface GraphGroup {
  id: number;
  node: TreeDocumentNode;
  /** The group box it is drawn in (a nested component), or `null`. */
  parentGroup: number | null;
  /** Its head node (where the component's `init` lives), when there is one. */
  head: TreeDocumentNode | null;
  /** Set when the group is (inside) a component used by name. */
  instance: { name: string; componentId: number } | null;
}

/** A node of the document, or of a component used by name, with the instance it belongs to. */
export interface ExpandedNode {
  node: TreeDocumentNode;
  instance: { name: string; componentId: number } | null;
}

/** Deepest nesting of components used by name that is expanded (a cycle stops there). */
const MAX_USE_DEPTH = 8;

/**
 * The document's nodes with every component used by name (`{ type: 'component', use, idBase }`)
 * expanded as the engine expands it (docs/concepts.md §8): each of the component's nodes cloned with
 * id `idBase + localId`, its parent mapped the same way (the head's parent is the component node),
 * nested uses shifted by the outer `idBase`. Unknown names and missing `idBase`s are skipped (the
 * check reports them).
 */
export function expandUses(document: TreeDocument): ExpandedNode[] {
  const out: ExpandedNode[] = [];
  const expand = (
    component: TreeDocumentNode,
    instance: { name: string; componentId: number } | null,
    depth: number,
  ) => {
    if (depth > MAX_USE_DEPTH) return;
    const owner = instance ?? { name: String(component.use), componentId: component.id };
    for (const clone of cloneUse(document, component)) {
      out.push({ node: clone, instance: owner });
      if (clone.type === 'component' && clone.use) expand(clone, owner, depth + 1);
    }
  };
  for (const node of document.nodes) {
    out.push({ node, instance: null });
    if (node.type === 'component' && node.use) expand(node, null, 0);
  }
  return out;
}

/** One level of a component used by name: its nodes with ids `idBase + localId` (nested uses kept as uses, shifted). */
function cloneUse(document: TreeDocument, component: TreeDocumentNode): TreeDocumentNode[] {
  const name = component.use;
  const base = component.idBase;
  const definition = typeof name === 'string' ? document.components?.[name] : undefined;
  if (!definition || typeof base !== 'number') return [];
  return definition.nodes.map((local) => {
    const clone: TreeDocumentNode = {
      ...local,
      id: base + local.id,
      parent: local.parent == null ? component.id : base + local.parent,
    };
    if (local.type === 'component' && typeof local.idBase === 'number') clone.idBase = base + local.idBase;
    const links = local.links as Record<string, number> | undefined;
    if (links)
      clone.links = Object.fromEntries(Object.entries(links).map(([key, target]) => [key, base + target]));
    return clone;
  });
}

/**
 * Replaces a component used by name with its nodes written out in the tree, with the same ids
 * (`idBase + localId`, links likewise): the effective tree is unchanged (sessions keep their
 * positions), and the nodes become editable here. A component it uses in turn stays a use (made
 * explicit the same way when asked). Returns the document unchanged for any other node.
 */
export function makeInstanceExplicit(document: TreeDocument, componentId: number): TreeDocument {
  const component = nodeOf(document, componentId);
  if (component?.type !== 'component' || !component.use) return document;
  const clones = cloneUse(document, component);
  const { use: _use, idBase: _idBase, ...explicit } = component;
  return {
    ...document,
    nodes: document.nodes.flatMap((node) =>
      node.id === componentId ? [explicit as TreeDocumentNode, ...clones] : [node],
    ),
  };
}

/**
 * Moves a node one place among its siblings (`-1` earlier, `1` later). Sibling order is the order of
 * the children in the tree — exploration takes the first of two equally similar children
 * (docs/concepts.md §5), and the graph, the tree view and `treeagent inspect` show them in that
 * order — and the engine takes it from the order of the nodes in the list (a component's place is
 * its entry's), so the node's whole subtree moves with it, before (or after) its sibling's.
 */
export function moveAmongSiblings(document: TreeDocument, id: number, direction: -1 | 1): TreeDocument {
  const node = nodeOf(document, id);
  if (node?.parent == null) return document;
  const siblings = childrenOf(document, node.parent);
  const at = siblings.findIndex((item) => item.id === id);
  const other = siblings[at + direction];
  if (!other) return document;
  const [first, second] = direction === -1 ? [id, other.id] : [other.id, id];
  const firstIds = subtreeIds(document, first);
  const secondIds = subtreeIds(document, second);
  const block = (ids: Set<number>) => document.nodes.filter((item) => ids.has(item.id));
  const moved = [...block(firstIds), ...block(secondIds)];
  const start = document.nodes.findIndex((item) => firstIds.has(item.id) || secondIds.has(item.id));
  const rest = document.nodes.filter((item) => !firstIds.has(item.id) && !secondIds.has(item.id));
  const before = document.nodes
    .slice(0, start)
    .filter((item) => !firstIds.has(item.id) && !secondIds.has(item.id));
  return { ...document, nodes: [...before, ...moved, ...rest.slice(before.length)] };
}

/** A node's place among its siblings: its 0-based position and how many they are. */
export function siblingPosition(document: TreeDocument, id: number): { index: number; count: number } {
  const node = nodeOf(document, id);
  if (!node || node.parent == null) return { index: 0, count: 1 };
  const siblings = childrenOf(document, node.parent);
  return { index: siblings.findIndex((item) => item.id === id), count: siblings.length };
}

/**
 * The effective tree of a document as the graph draws it: component, head and tail nodes become
 * group boxes (components used by name too, expanded); a head's child hangs from the component's
 * parent, a component's children from its tail's parent (docs/concepts.md §8). Works on invalid
 * drafts too (what cannot be placed hangs from the nearest node that can).
 */
export function effectiveGraph(document: TreeDocument): {
  nodes: GraphNode[];
  groups: Map<number, GraphGroup>;
} {
  const expanded = expandUses(document);
  const byId = new Map<number, TreeDocumentNode>();
  const instanceOf = new Map<number, ExpandedNode['instance']>();
  for (const item of expanded) {
    if (byId.has(item.node.id)) continue;
    byId.set(item.node.id, item.node);
    instanceOf.set(item.node.id, item.instance);
  }
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
  const headOf = new Map<number, TreeDocumentNode>();
  for (const node of byId.values()) {
    if (node.type === 'head' && node.parent != null && !headOf.has(node.parent))
      headOf.set(node.parent, node);
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
  const groups = new Map<number, GraphGroup>();
  const nodes: GraphNode[] = [];
  for (const node of byId.values()) {
    if (node.type === 'component') {
      groups.set(node.id, {
        id: node.id,
        node,
        parentGroup: enclosing(node.id),
        head: headOf.get(node.id) ?? null,
        instance: instanceOf.get(node.id) ?? null,
      });
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
      instance: instanceOf.get(node.id) ?? null,
    });
  }
  return { nodes, groups };
}
