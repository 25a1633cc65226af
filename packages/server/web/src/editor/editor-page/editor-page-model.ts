import type { TreeDocument, TreeDocumentNode } from '@treeagent/core/client';
import type { EditorCheckResponse, EditorRouteResponse } from '../../../../src/api-types';
import { tOf } from '../../i18n/use-t';
import { type effectiveGraph, nodeOf } from '../document-model';
import type { NodeFindings } from '../tree-graph/graph-node-box';

/** The check's problems (errors) and lint findings (warnings), counted per node. */
export function findingCounts(
  check: Pick<EditorCheckResponse, 'problems' | 'lint'> | null,
): Map<number, NodeFindings> {
  const map = new Map<number, NodeFindings>();
  const add = (id: number | undefined, kind: keyof NodeFindings) => {
    if (id === undefined) return;
    const current = map.get(id) ?? { errors: 0, warnings: 0 };
    current[kind]++;
    map.set(id, current);
  };
  for (const problem of check?.problems ?? []) add(problem.nodeId, 'errors');
  for (const finding of check?.lint ?? []) add(finding.nodeId, 'warnings');
  return map;
}

/** The nodes a routed message went through, in order, each once (highlighted on the graph). */
export function routedPath(route: EditorRouteResponse | null): number[] {
  if (!route) return [];
  const ids: number[] = [];
  for (const decision of route.route.decisions) {
    if (!ids.includes(decision.nodeId)) ids.push(decision.nodeId);
    if (!ids.includes(decision.nextNodeId)) ids.push(decision.nextNodeId);
  }
  return ids;
}

/** Each node's similarity to the routed message (the heat map), or null before a message is routed. */
export function heatOf(route: EditorRouteResponse | null): Map<number, number> | null {
  return route ? new Map(route.heat.map((item) => [item.nodeId, item.similarity])) : null;
}

/** How a node is named in lists: its name (of the draft, else of the checked tree) and id, or its id alone. */
export function nodeDisplayName(
  document: TreeDocument | null,
  check: Pick<EditorCheckResponse, 'tree'> | null,
  id: number,
): string {
  const node = document ? nodeOf(document, id) : undefined;
  const effective = check?.tree?.nodes.find((item) => item.id === id);
  const name = (typeof node?.name === 'string' ? node.name : null) ?? effective?.name ?? null;
  return name ? `${name} #${id}` : `#${id}`;
}

/** What the editor's status says: checking, the problems that stop a save, unsaved changes, or saved. */
export function editorStatusText(state: { checking: boolean; problems: number; dirty: boolean }): string {
  const t = tOf('editor');
  if (state.checking) return t('status.checking');
  if (state.problems) return t('status.problems', { count: state.problems });
  return state.dirty ? t('status.unsaved') : t('status.saved');
}

/** The selected node and what the form needs about it. */
export interface Selection {
  /** The node in the document's `nodes`, or undefined when it belongs to a component used by name. */
  documentNode: TreeDocumentNode | undefined;
  /** The node shown (of the document, or of a component used by name, read-only). */
  node: TreeDocumentNode | undefined;
  instance: { name: string; componentId: number } | null;
  /** For a component: its head. */
  head: TreeDocumentNode | null;
}

/** The selection of node `selected`: of the document, or of a component used by name (shown read-only). */
export function selectionOf(
  document: TreeDocument,
  graph: ReturnType<typeof effectiveGraph>,
  selected: number | null,
): Selection {
  if (selected === null) return { documentNode: undefined, node: undefined, instance: null, head: null };
  const documentNode = nodeOf(document, selected);
  const graphNode = graph.nodes.find((item) => item.id === selected);
  const graphGroup = graph.groups.get(selected);
  const node = documentNode ?? graphNode?.node ?? graphGroup?.node;
  const instance = documentNode ? null : (graphNode?.instance ?? graphGroup?.instance ?? null);
  const head = node?.type === 'component' ? (graphGroup?.head ?? null) : null;
  return { documentNode, node, instance, head };
}

/** The document with agent `id` the primary one (the others lose the flag). */
export function withPrimaryAgent(document: TreeDocument, id: number): TreeDocument {
  return {
    ...document,
    nodes: document.nodes.map((item) =>
      item.type !== 'agent'
        ? item
        : item.id === id
          ? { ...item, isPrimary: true }
          : (({ isPrimary: _dropped, ...rest }) => rest)(item),
    ),
  };
}
