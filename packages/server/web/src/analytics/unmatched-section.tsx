import { useState } from 'preact/hooks';
import type { ClusterActionResponse, UnmatchedCluster, UnmatchedResponse } from '../../../src/api-types';
import { analyticsApi } from '../api/analytics-api';
import { messageOf } from '../api/api-client';
import { useApp } from '../app/app-context';
import { formatDecimal } from '../components/format';
import { markup } from '../i18n/markup';
import { useT } from '../i18n/use-t';

/** The unmatched messages, clustered, each with its nearest nodes and the two actions. */
export function UnmatchedSection({ unmatched }: { unmatched: UnmatchedResponse }) {
  const t = useT('analytics');
  if (unmatched.clusters.length === 0) {
    return <p class="muted">{t('unmatched.none')}</p>;
  }
  return (
    <div id="unmatched-clusters" class="clusters">
      <p class="muted clusters-summary">
        {t('unmatched.summary', { messages: unmatched.messages, clusters: unmatched.clusters.length })}
      </p>
      {unmatched.clusters.map((cluster) => (
        <ClusterCard key={cluster.id} cluster={cluster} actions={unmatched.actions} />
      ))}
    </div>
  );
}

function ClusterCard({
  cluster,
  actions,
}: {
  cluster: UnmatchedCluster;
  actions: UnmatchedResponse['actions'];
}) {
  const { api, tree, nodeLabel } = useApp();
  const t = useT('analytics');
  const [nodeId, setNodeId] = useState<number | null>(cluster.nearest[0]?.nodeId ?? null);
  const [label, setLabel] = useState('none');
  const [result, setResult] = useState<ClusterActionResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const messages = cluster.messages.map((message) => message.message);
  const named = tree ? [...tree.nodes.values()].filter((node) => node.name) : [];
  const run = async (action: () => Promise<ClusterActionResponse>) => {
    setError(null);
    try {
      setResult(await action());
    } catch (caught) {
      setError(messageOf(caught));
    }
  };
  return (
    <article class="cluster" data-cluster={cluster.id}>
      <header>
        {markup(t('unmatched.clusterHead', { count: cluster.size, distinct: cluster.messages.length }))}
      </header>
      <ul class="cluster-examples">
        {cluster.messages.slice(0, 5).map((message) => (
          <li key={message.message}>
            “{message.message}” <span class="muted">×{message.count}</span>
          </li>
        ))}
      </ul>
      <p class="cluster-nearest">
        {t('unmatched.nearest', {
          nodes: cluster.nearest.length
            ? cluster.nearest
                .map((node) => `${nodeLabel(node.nodeId)} (${formatDecimal(node.similarity, 2)})`)
                .join(', ')
            : t('unmatched.noNode'),
        })}
      </p>
      <div class="cluster-actions">
        {actions.addChunks ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (nodeId !== null) void run(() => analyticsApi.addChunks(api, nodeId, messages));
            }}
          >
            <select
              aria-label={t('unmatched.chunksNode')}
              value={nodeId ?? ''}
              onChange={(e) => setNodeId(Number(e.currentTarget.value))}
            >
              {named.map((node) => (
                <option key={node.id} value={node.id}>
                  {nodeLabel(node.id)}
                </option>
              ))}
            </select>
            <button type="submit" class="ghost-button">
              {t('unmatched.addChunks')}
            </button>
          </form>
        ) : null}
        {actions.addUtterances ? (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void run(() => analyticsApi.addUtterances(api, label, messages));
            }}
          >
            <select
              aria-label={t('unmatched.utterancesLabel')}
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
            >
              <option value="none">{t('unmatched.outOfScope')}</option>
              {named.map((node) => (
                <option key={node.id} value={node.name!}>
                  {node.name}
                </option>
              ))}
            </select>
            <button type="submit" class="ghost-button">
              {t('unmatched.addUtterances')}
            </button>
          </form>
        ) : null}
      </div>
      {result ? (
        <p class="cluster-result" role="status">
          {t(
            result.action === 'add-utterances' && label === 'none'
              ? 'unmatched.resultNoMatch'
              : 'unmatched.resultReach',
            {
              added: t(
                result.action === 'add-chunks' ? 'unmatched.addedChunks' : 'unmatched.addedUtterances',
                {
                  count: result.added,
                },
              ),
              file: result.file,
              routed: result.effect.routed,
              total: result.effect.total,
              version: result.effect.treeVersion.slice(0, 8),
            },
          )}
        </p>
      ) : null}
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </article>
  );
}
