import { useEffect, useRef, useState } from 'preact/hooks';
import type { TreeViewNode } from '../../../src/api-types';
import { useT } from '../i18n/use-t';
import { NODE_FLAGS, type TreeIndex } from './tree-index';

/** What the tree highlights: a turn's path and the session's current node. */
export interface TreeHighlight {
  path: readonly number[];
  current: number | null;
}

/** A request to select a node (the `seq` makes the same node selectable again, for focus). */
export interface NodeSelection {
  id: number;
  seq: number;
  focus: boolean;
}

/**
 * The effective tree as a WAI-ARIA tree: nested, components framed and labelled, the path and the
 * current node highlighted; arrows, Home/End move, Enter/Space select.
 */
export function TreeView(props: {
  index: TreeIndex;
  highlight: TreeHighlight;
  selection: NodeSelection | null;
  onSelect(id: number): void;
}) {
  const { index, highlight, selection } = props;
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const [focusId, setFocusId] = useState<number>(selection?.id ?? index.tree.rootId);
  const container = useRef<HTMLDivElement>(null);
  const items = useRef(new Map<number, HTMLLIElement>());

  // Keep what is highlighted or selected visible: expand its ancestors.
  useEffect(() => {
    const shown = [...highlight.path, highlight.current, selection?.id].filter(
      (id) => typeof id === 'number',
    );
    const ancestors = new Set(shown.flatMap((id) => index.ancestors(id)));
    setCollapsed((current) =>
      [...current].some((id) => ancestors.has(id))
        ? new Set([...current].filter((id) => !ancestors.has(id)))
        : current,
    );
  }, [index, highlight, selection]);

  useEffect(() => {
    if (!selection) return;
    setFocusId(selection.id);
    const item = items.current.get(selection.id);
    if (!item) return;
    if (selection.focus) item.focus({ preventScroll: true });
    item.querySelector(':scope > .tree-row')?.scrollIntoView({ block: 'nearest' });
  }, [selection]);

  const toggle = (id: number, expanded?: boolean) =>
    setCollapsed((current) => {
      const next = new Set(current);
      if (expanded ?? next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const moveTo = (id: number | undefined) => {
    if (id === undefined) return;
    setFocusId(id);
    items.current.get(id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const item = (event.target as Element).closest?.('[role="treeitem"]');
    if (!(item instanceof HTMLElement) || !container.current) return;
    const visible = [...container.current.querySelectorAll<HTMLElement>('[role="treeitem"]')]
      .filter((candidate) => !candidate.parentElement?.closest('[aria-expanded="false"]'))
      .map((candidate) => Number(candidate.dataset.nodeId));
    const id = Number(item.dataset.nodeId);
    const position = visible.indexOf(id);
    const node = index.nodes.get(id);
    const expandable = Boolean(node?.children.length);
    switch (event.key) {
      case 'ArrowDown':
        moveTo(visible[position + 1]);
        break;
      case 'ArrowUp':
        moveTo(visible[position - 1]);
        break;
      case 'Home':
        moveTo(visible[0]);
        break;
      case 'End':
        moveTo(visible.at(-1));
        break;
      case 'ArrowRight':
        if (expandable && collapsed.has(id)) toggle(id, true);
        else if (expandable) moveTo(visible[position + 1]);
        break;
      case 'ArrowLeft':
        if (expandable && !collapsed.has(id)) toggle(id, false);
        else if (node?.parentId !== null) moveTo(node?.parentId ?? undefined);
        break;
      case 'Enter':
      case ' ':
        props.onSelect(id);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const root = index.nodes.get(index.tree.rootId);
  const t = useT('tree');
  const renderNode = (node: TreeViewNode, level: number) => {
    const parent = node.parentId === null ? null : index.nodes.get(node.parentId);
    const children = index.children(node);
    const scope = node.scope.kind === 'component' ? index.scopes.get(node.scope.id) : undefined;
    const entersComponent = node.scope.kind === 'component' && parent?.scope.id !== node.scope.id;
    const step = highlight.path.indexOf(node.id);
    const isCurrent = node.id === highlight.current;
    const classes = ['tree-item'];
    if (scope) classes.push('in-component', `scope-color-${scope.index % 6}`);
    if (entersComponent) classes.push('component-entry');
    if (step !== -1) classes.push('on-path');
    if (isCurrent) classes.push('is-current');
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: the keys of the whole tree are handled on its container (WAI-ARIA tree pattern).
      <li
        key={node.id}
        role="treeitem"
        class={classes.join(' ')}
        tabIndex={node.id === focusId ? 0 : -1}
        aria-level={level}
        aria-selected={selection?.id === node.id ? 'true' : 'false'}
        {...(children.length ? { 'aria-expanded': collapsed.has(node.id) ? 'false' : 'true' } : {})}
        data-node-id={String(node.id)}
        data-type={node.type}
        {...(entersComponent ? { 'data-component': index.scopeLabel(node.scope) } : {})}
        ref={(element) => {
          if (element) items.current.set(node.id, element);
          else items.current.delete(node.id);
        }}
        onClick={(event) => {
          event.stopPropagation();
          if ((event.target as Element).classList.contains('twisty')) return;
          props.onSelect(node.id);
        }}
      >
        {entersComponent ? (
          <div class="component-label" aria-hidden="true">
            <span>{index.scopeLabel(node.scope)}</span>
          </div>
        ) : null}
        <div class="tree-row">
          {children.length ? (
            <span class="twisty" aria-hidden="true" onClick={() => toggle(node.id)} />
          ) : (
            <span class="twisty is-leaf" aria-hidden="true" />
          )}
          <span class={`type-badge type-${node.type}`}>{node.type}</span>
          <span class="node-name">{node.name ?? `(${node.type})`}</span>
          <span class="node-id">#{node.id}</span>
          <NodeFlags node={node} />
          <span class="row-end">
            {node.chunkCount ? (
              <span class="chunk-count" title={t('view.chunks', { count: node.chunkCount })}>
                {t('view.chunksShort', { count: node.chunkCount })}
              </span>
            ) : null}
            <span
              class="path-mark"
              aria-hidden="true"
              title={
                isCurrent ? t('view.currentTitle') : step !== -1 ? t('view.step', { step: step + 1 }) : ''
              }
            >
              {isCurrent ? t('view.current') : step !== -1 ? String(step + 1) : ''}
            </span>
          </span>
          {scope ? (
            <span class="sr-only">{t('view.inScope', { scope: index.scopeLabel(node.scope) })}</span>
          ) : null}
        </div>
        {children.length ? (
          // biome-ignore lint/a11y/useSemanticElements: WAI-ARIA tree pattern: the children of a treeitem are a group.
          <ul role="group">{children.map((child) => renderNode(child, level + 1))}</ul>
        ) : null}
      </li>
    );
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: one key handler for every treeitem inside (WAI-ARIA tree pattern).
    <div id="tree-container" class="tree-container" ref={container} onKeyDown={onKeyDown}>
      {/* biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: WAI-ARIA tree pattern on a list. */}
      <ul class="tree" role="tree" aria-label={t('view.label', { name: index.tree.name })}>
        {root ? renderNode(root, 1) : null}
      </ul>
    </div>
  );
}

/** The flags of a node as small badges. */
export function NodeFlags({ node }: { node: TreeViewNode }) {
  const t = useT('tree');
  return (
    <>
      {NODE_FLAGS.filter(([key]) => node[key]).map(([key, label]) => (
        <span key={key} class={`flag flag-${label}`} title={t(`flags.${label}.title`)}>
          {t(`flags.${label}.label`)}
        </span>
      ))}
    </>
  );
}
