import type { ExploreConstraints } from '../context/explore-strategy.js';
import type { AgentEvent, ExploreAction, ExploreCandidate } from '../protocol/events.js';
import type { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';
import type { ChunkSearch } from './chunk-search.js';
import { isAboveThreshold } from './similarity-threshold.js';

export interface ExploreRequest {
  tree: Tree;
  /** Finds the best allowed chunk below a node for the current direction. */
  search: ChunkSearch;
  /** Node exploration starts from. */
  start: number;
  /** True when exploration has already moved (after reach_anchor): the blocking check applies at once. */
  moved: boolean;
  /** Last executed node: climbing happens only while exploration is still on it. */
  lastExecutedId: number | null;
  /** Blacklist and filter; a climb adds the node it leaves to the blacklist. */
  constraints: ExploreConstraints;
  /** Called for each climb that counts as a failure. */
  onFail: (nodeId: number, reason: 'leaf' | 'below-threshold') => void;
  emit: (event: AgentEvent) => void;
}

/**
 * The explore step (docs/concepts.md §5), exactly as the pseudo-code says. Returns the node the before
 * step runs on; an agent node means nothing in that agent fits (the caller raises NO_MATCH).
 */
export async function explore(request: ExploreRequest): Promise<TreeNode> {
  const { tree, search, constraints, emit } = request;
  let node = tree.node(request.start);
  let moved = request.moved;
  const decide = (
    action: ExploreAction,
    best: ExploreCandidate | null,
    next: TreeNode,
    threshold: number | null,
  ) =>
    emit({
      type: 'explore-decision',
      nodeId: node.id,
      action,
      moved,
      threshold,
      ...(threshold === null ? {} : { thresholdSource: node.thresholdSource }),
      best,
      nextNodeId: next.id,
    });
  const climb = (): TreeNode => (node.anchorId === null ? node : tree.node(node.anchorId));

  for (;;) {
    if (moved && node.isBlocking) {
      decide('blocking', null, node, null);
      return node;
    }
    const isLastExecuted = !moved && node.id === request.lastExecutedId;
    if (node.children.length === 0) {
      if (!isLastExecuted) {
        decide('leaf', null, node, null);
        return node;
      }
      request.onFail(node.id, 'leaf');
      const anchor = climb();
      decide('leaf-climb', null, anchor, null);
      node = anchor;
      moved = true;
      continue;
    }
    const best = await search.best(node, constraints);
    if (best && isAboveThreshold(best.similarity, node.similarityThreshold)) {
      const child = tree.node(best.childId);
      decide('descend', best, child, node.similarityThreshold);
      node = child;
      moved = true;
      continue;
    }
    if (!isLastExecuted) {
      decide('below-threshold', best, node, node.similarityThreshold);
      return node;
    }
    request.onFail(node.id, 'below-threshold');
    constraints.blacklist.add(node.id, 'node');
    emit({ type: 'blacklist-add', kind: 'node', ids: [node.id], reason: 'climb' });
    const anchor = climb();
    decide('climb', best, anchor, node.similarityThreshold);
    node = anchor;
    moved = true;
  }
}
