import { useState } from 'preact/hooks';
import type { ClusterActionResponse, UnmatchedCluster, UnmatchedResponse } from '../../../src/api-types';
import { analyticsApi } from '../api/analytics-api';
import { ApiError } from '../api/api-error';
import { useApp } from '../app/app-context';

/** The unmatched messages, clustered, each with its nearest nodes and the two actions. */
export function UnmatchedSection({ unmatched }: { unmatched: UnmatchedResponse }) {
  if (unmatched.clusters.length === 0) {
    return <p class="muted">No message ended in a no match or a fallback in this range.</p>;
  }
  return (
    <div id="unmatched-clusters" class="clusters">
      <p class="muted">
        {unmatched.messages} distinct messages in {unmatched.clusters.length} clusters, largest first.
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
      setError(caught instanceof ApiError ? caught.message : String(caught));
    }
  };
  return (
    <article class="cluster" data-cluster={cluster.id}>
      <header>
        <strong class="cluster-size">{cluster.size}</strong> messages · {cluster.messages.length} distinct
      </header>
      <ul class="cluster-examples">
        {cluster.messages.slice(0, 5).map((message) => (
          <li key={message.message}>
            “{message.message}” <span class="muted">×{message.count}</span>
          </li>
        ))}
      </ul>
      <p class="cluster-nearest">
        Nearest to the centroid:{' '}
        {cluster.nearest.length
          ? cluster.nearest
              .map((node) => `${nodeLabel(node.nodeId)} (${node.similarity.toFixed(2)})`)
              .join(', ')
          : 'no node'}
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
              aria-label="Node to add the chunks to"
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
              Add as chunks
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
              aria-label="Label of the utterances"
              value={label}
              onChange={(e) => setLabel(e.currentTarget.value)}
            >
              <option value="none">none (out of scope)</option>
              {named.map((node) => (
                <option key={node.id} value={node.name!}>
                  {node.name}
                </option>
              ))}
            </select>
            <button type="submit" class="ghost-button">
              Add to utterances
            </button>
          </form>
        ) : null}
      </div>
      {result ? (
        <p class="cluster-result" role="status">
          {result.action === 'add-chunks'
            ? `Added ${result.added} chunks`
            : `Added ${result.added} utterances`}{' '}
          to {result.file}. Now {result.effect.routed} of {result.effect.total} of these messages{' '}
          {result.action === 'add-utterances' && label === 'none' ? 'end in no match' : 'reach the node'}{' '}
          (tree {result.effect.treeVersion.slice(0, 8)}).
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
