import type { TreeAgent } from '@treeagent/core';
import type { AnalyticsStore } from '@treeagent/core/adapter';
import { clusterMessages, type ReportFilter, resolveReportFilter } from '@treeagent/core/analytics';
import type { EffectResponse, NodeSimilarity, UnmatchedCluster } from '../api-types.js';

/** At most this many of a cluster's messages (the most frequent) make its centroid. */
const CENTROID_MESSAGES = 500;

/**
 * The unmatched messages of the range, clustered with the tree's embedder (docs/analytics.md), each
 * cluster with its nearest nodes: the nodes whose best chunk is most similar to the cluster's
 * centroid (its messages' mean, weighted by how often each was sent), with that similarity.
 */
export async function unmatchedClusters(
  agent: TreeAgent,
  store: AnalyticsStore,
  filter: ReportFilter,
  similarity: number,
): Promise<{
  messages: number;
  clusters: UnmatchedCluster[];
  filter: ReturnType<typeof resolveReportFilter>;
}> {
  const messages = await store.unmatched(filter);
  const vectors = messages.length ? await agent.embed(messages.map((message) => message.message)) : [];
  const clusters = clusterMessages(messages, vectors, { similarity });
  const result: UnmatchedCluster[] = [];
  for (const [index, cluster] of clusters.entries()) {
    const nearest = await agent.nearestNodes(
      cluster.messages
        .slice(0, CENTROID_MESSAGES)
        .map((message) => ({ text: message.message, weight: message.count })),
      3,
    );
    result.push({
      id: index,
      size: cluster.size,
      messages: cluster.messages,
      nearest: nearest.map(
        ({ nodeId, similarity: value }): NodeSimilarity => ({
          nodeId,
          name: agent.tree.nodes.get(nodeId)?.name ?? null,
          similarity: Math.round(value * 1e4) / 1e4,
        }),
      ),
    });
  }
  return { messages: messages.length, clusters: result, filter: resolveReportFilter(filter) };
}

/**
 * Where `messages` go with the tree running now: how many reach `nodeId` (its subtree counts: a
 * message routed below it is answered from it), or, for `null`, how many end in no match.
 */
export async function routingEffect(
  agent: TreeAgent,
  messages: readonly string[],
  nodeId: number | null,
): Promise<EffectResponse> {
  const tree = agent.tree;
  const routes = [];
  for (const message of messages) {
    const route = await agent.route(message);
    routes.push({
      message,
      nodeId: route.noMatch ? null : route.node.id,
      name: route.noMatch ? null : (route.node.name ?? null),
      noMatch: route.noMatch,
    });
  }
  const routed = routes.filter((route) =>
    nodeId === null ? route.noMatch : route.nodeId !== null && tree.isInSubtree(route.nodeId, nodeId),
  ).length;
  return { routed, total: messages.length, treeVersion: tree.contentHash, messages: routes };
}
