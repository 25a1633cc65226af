import type { TreeView, TreeViewNode } from '../../../src/api-types';
import { tOf } from '../i18n/use-t';

/** A component instance of the tree: its scope id, a colour index, and a guessed name. */
export interface ComponentScope {
  id: number;
  index: number;
  name: string | null;
  size: number;
}

/** The flags a node may carry, with their name (the `tree` catalogs' `flags.<name>` give its label and meaning). */
export const NODE_FLAGS = [
  ['isPrimary', 'primary'],
  ['isAnchor', 'anchor'],
  ['isBlocking', 'blocking'],
  ['isMute', 'mute'],
] as const satisfies readonly (readonly [keyof TreeViewNode, string])[];

/** The tree of `GET /api/v1/tree`, indexed for the views: nodes by id, component scopes, labels. */
export class TreeIndex {
  readonly nodes: ReadonlyMap<number, TreeViewNode>;
  readonly scopes: ReadonlyMap<number, ComponentScope>;

  constructor(readonly tree: TreeView) {
    this.nodes = new Map(tree.nodes.map((node) => [node.id, node]));
    const byScope = new Map<number, TreeViewNode[]>();
    for (const node of tree.nodes) {
      if (node.scope.kind !== 'component') continue;
      byScope.set(node.scope.id, [...(byScope.get(node.scope.id) ?? []), node]);
    }
    this.scopes = new Map(
      [...byScope].map(([id, nodes], index) => [
        id,
        { id, index, name: componentName(nodes), size: nodes.length },
      ]),
    );
  }

  /** The server sends chunk texts only in debug mode. */
  get debug(): boolean {
    return this.tree.nodes.some((node) => Array.isArray(node.chunks));
  }

  /** `name #id` (or `type #id`), `#id` for a node the tree does not have. */
  nodeLabel(id: number): string {
    const node = this.nodes.get(id);
    return node ? `${node.name ?? node.type} #${id}` : `#${id}`;
  }

  /** `root scope`, or `component <id> · <name>`. */
  scopeLabel(scope: TreeViewNode['scope']): string {
    const t = tOf('tree');
    if (scope.kind === 'root') return t('scope.root');
    const info = this.scopes.get(scope.id);
    return `${t('scope.component', { id: scope.id })}${info?.name ? ` · ${info.name}` : ''}`;
  }

  /** The ids of a node's ancestors, nearest first. */
  ancestors(id: number): number[] {
    const ids: number[] = [];
    let node = this.nodes.get(id);
    while (node && node.parentId !== null) {
      ids.push(node.parentId);
      node = this.nodes.get(node.parentId);
    }
    return ids;
  }

  /** The node's children that the tree has. */
  children(node: TreeViewNode): TreeViewNode[] {
    return node.children.flatMap((id) => {
      const child = this.nodes.get(id);
      return child ? [child] : [];
    });
  }
}

/**
 * A short guess at a component's name: the common `name:` prefix of its nodes' names, a node named
 * just that counting too (a form's entry `riparazione` beside `riparazione: ask`), if any.
 */
export function componentName(nodes: readonly TreeViewNode[]): string | null {
  const prefixes = new Set(
    nodes.map((node) => (node.name?.includes(':') ? node.name.split(':')[0]!.trim() : null)),
  );
  prefixes.delete(null);
  const prefix = prefixes.size === 1 ? [...prefixes][0]! : null;
  return prefix !== null && nodes.every((node) => node.name?.includes(':') || node.name === prefix)
    ? prefix
    : null;
}

/** A label for a node id when the tree may not be loaded yet. */
export function labelOf(index: TreeIndex | null, id: number): string {
  return index ? index.nodeLabel(id) : `#${id}`;
}
