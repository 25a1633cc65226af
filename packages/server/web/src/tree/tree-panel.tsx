import { useApp } from '../app/app-context';
import { useT } from '../i18n/use-t';
import { NodeDetails } from './node-details';
import { RouteTester } from './route-tester';
import { type NodeSelection, type TreeHighlight, TreeView } from './tree-view';

/**
 * The tree with everything around it: name and counts, the route tester (debug mode), the
 * legend, the tree, and the selected node's details. The chat's inspector and the tree page show it.
 */
export function TreePanel(props: {
  highlight: TreeHighlight;
  /** What the highlighted path is (`last turn's path`, `path of turn 2`…). */
  pathLegend: string;
  selection: NodeSelection | null;
  onSelect(id: number): void;
  onRoute(path: number[]): void;
}) {
  const { tree, treeError, treeStatus, debug } = useApp();
  const t = useT('tree');
  return (
    <>
      <div id="tree-header" class="tree-header">
        {tree ? (
          <>
            <span class="tree-name">{tree.tree.name}</span>
            <span class="muted">
              {`${t('panel.nodes', { count: tree.tree.nodes.length })} · ${t('panel.components', { count: tree.scopes.size })} · `}
              <code title={t('panel.contentHash')}>{tree.tree.contentHash.slice(0, 10)}</code>
            </span>
          </>
        ) : null}
      </div>
      {debug ? <RouteTester onRoute={props.onRoute} onSelect={props.onSelect} /> : null}
      <div id="tree-legend" class="tree-legend">
        <span class="legend-item">
          <span class="legend-swatch swatch-path" />
          <span id="legend-path">{props.pathLegend}</span>
        </span>
        <span class="legend-item">
          <span class="legend-swatch swatch-current" />
          {t('panel.currentNode')}
        </span>
        <span class="legend-item">
          <span class="legend-swatch swatch-component" />
          {t('panel.component')}
        </span>
      </div>
      <div class="tree-body">
        {tree ? (
          <TreeView
            index={tree}
            highlight={props.highlight}
            selection={props.selection}
            onSelect={props.onSelect}
          />
        ) : (
          <div id="tree-container" class="tree-container">
            <p class="empty-note">
              {treeStatus === 'failed' ? t('panel.failed', { error: treeError }) : t('panel.loading')}
            </p>
          </div>
        )}
        {tree ? (
          <NodeDetails
            index={tree}
            nodeId={props.selection?.id ?? null}
            current={props.highlight.current}
            onSelect={props.onSelect}
          />
        ) : null}
      </div>
    </>
  );
}
