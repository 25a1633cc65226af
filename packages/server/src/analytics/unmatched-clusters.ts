import {
  type AnalyticsStore,
  clusterMessages,
  type ReportFilter,
  resolveReportFilter,
  type TreeAgent,
} from '@treeagent/core';
import type { EffectResponse, NodeSimilarity, UnmatchedCluster } from '../api-types.js';

/** Examples routed per cluster to find its nearest nodes. */
const ROUTED_EXAMPLES = 3;

/**
 * The unmatched messages of the range, clustered with the tree's embedder (docs/analytics.md), each
 * cluster with its nearest nodes: the best chunk's node and the runner-up child of the first
 * decision, for its most frequent messages, by similarity.
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
    const nearest = new Map<number, number>();
    for (const message of cluster.messages.slice(0, ROUTED_EXAMPLES)) {
      const route = await agent.route(message.message);
      const first = route.decisions.find((decision) => decision.best !== null);
      if (!first?.best) continue;
      const candidates: [number, number][] = [[first.best.childId, first.best.similarity]];
      if (first.best.nodeId !== first.best.childId)
        candidates.push([first.best.nodeId, first.best.similarity]);
      if (first.best.runnerUp) candidates.push([first.best.runnerUp.childId, first.best.runnerUp.similarity]);
      for (const [nodeId, value] of candidates)
        nearest.set(nodeId, Math.max(nearest.get(nodeId) ?? -1, value));
    }
    result.push({
      id: index,
      size: cluster.size,
      messages: cluster.messages,
      nearest: [...nearest.entries()]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, 3)
        .map(
          ([nodeId, value]): NodeSimilarity => ({
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
