import type { ComponentChildren } from 'preact';
import type { TreeViewNode } from '../../../src/api-types';
import { formatSimilarity } from '../components/format';
import { JsonBlock } from '../components/json-block';
import { NodeRef } from '../components/node-ref';
import { KeyValues } from '../debug/turn-debug';
import { useT } from '../i18n/use-t';
import { NODE_FLAGS, type TreeIndex } from './tree-index';
import { NodeFlags } from './tree-view';

/** The properties and chunks of the selected node. */
export function NodeDetails(props: {
  index: TreeIndex;
  nodeId: number | null;
  current: number | null;
  onSelect(id: number): void;
}) {
  const t = useT('tree');
  const node = props.nodeId === null ? undefined : props.index.nodes.get(props.nodeId);
  if (!node) {
    return (
      <div id="node-details" class="node-details-pane">
        <p class="empty-note">{t('details.select')}</p>
      </div>
    );
  }
  const ref = (id: number | null) => <NodeRef id={id} onSelect={props.onSelect} />;
  const links = Object.entries(node.links);
  const rows: [string, ComponentChildren][] = [
    [t('details.type'), <span class={`type-badge type-${node.type}`}>{node.type}</span>],
    [t('details.parent'), ref(node.parentId)],
    [t('details.children'), node.children.length ? node.children.map((child) => ref(child)) : '—'],
    [t('details.agent'), ref(node.agentId)],
    [t('details.scope'), props.index.scopeLabel(node.scope)],
    [t('details.anchor'), ref(node.anchorId)],
    [t('details.threshold'), formatSimilarity(node.similarityThreshold)],
    [t('details.flags'), NODE_FLAGS.some(([key]) => node[key]) ? <NodeFlags node={node} /> : '—'],
    [
      t('details.links'),
      links.length
        ? links.map(([name, target]) => (
            <span key={name} class="link-entry">
              <code>{name}</code> → {ref(target)}
            </span>
          ))
        : '—',
    ],
    [
      t('details.callbacks'),
      node.callbacks.length
        ? node.callbacks.map((name) => (
            <code key={name} class="cb">
              {name}
            </code>
          ))
        : '—',
    ],
    [t('details.model'), node.model ? <code>{node.model}</code> : t('details.defaultModel')],
  ];
  if (node.description) rows.splice(1, 0, [t('details.description'), node.description]);
  return (
    <div id="node-details" class="node-details-pane">
      <div class="node-details" data-node-id={String(node.id)}>
        <h3 class="details-title">
          <span>{node.name ?? `(${node.type})`}</span>
          <span class="node-id">#{node.id}</span>
          {node.id === props.current ? <span class="flag flag-current">{t('view.current')}</span> : null}
        </h3>
        <KeyValues rows={rows} />
        <Chunks node={node} />
      </div>
    </div>
  );
}

function Chunks({ node }: { node: TreeViewNode }) {
  const t = useT('tree');
  const title = <h4>{t('details.chunks', { count: node.chunkCount })}</h4>;
  if (!node.chunkCount) {
    return (
      <div class="chunks">
        {title}
        <p class="empty-note">{t('details.noChunks')}</p>
      </div>
    );
  }
  if (!node.chunks) {
    return (
      <div class="chunks">
        {title}
        <p class="empty-note">{t('details.debugOnly')}</p>
      </div>
    );
  }
  return (
    <div class="chunks">
      {title}
      <ol class="chunk-list">
        {node.chunks.map((chunk) => (
          <li key={String(chunk.id)}>
            <span class="chunk-text">{chunk.text}</span>
            <span class="chunk-meta">
              <code>{String(chunk.id)}</code>
              {chunk.forRag ? (
                <span class="flag flag-rag" title={t('details.ragTitle')}>
                  {t('details.rag')}
                </span>
              ) : null}
            </span>
            {Object.keys(chunk.extra ?? {}).length ? (
              <details class="inline-json">
                <summary>{t('details.extra')}</summary>
                <JsonBlock value={chunk.extra} />
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
