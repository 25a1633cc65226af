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
  /**
   * Blacklist and filter; a climb adds the node it leaves to the blacklist at once (the searches
   * that follow must not find it again).
   */
  constraints: ExploreConstraints;
  /**
   * Nodes that already climbed in this turn: a climb from one of them is a loop, so exploration
   * stops there and returns it for the caller to apply (the step loop raises `LOOP`). Default: none.
   */
  climbed?: ReadonlySet<number>;
}

/** A climb that counts as a failure of the node it leaves (fail counter +1; twice from one node in a turn is `LOOP`). */
export interface ExploreClimb {
  type: 'climb';
  nodeId: number;
  reason: 'leaf' | 'below-threshold';
}

/** What exploration did, in order: the events it reports and the climbs the caller applies. */
export type ExploreEffect = { type: 'event'; event: AgentEvent } | ExploreClimb;

/** Where exploration stopped, and its effects for the caller to apply in order. */
export interface ExploreOutcome {
  /** The node the before step runs on; an agent node means nothing in that agent fits. */
  node: TreeNode;
  effects: ExploreEffect[];
}

/**
 * The explore step (docs/concepts.md §5), exactly as the pseudo-code says. Returns the node the before
 * step runs on — an agent node means nothing in that agent fits (the caller raises NO_MATCH) — and
 * its effects as data: the `explore-decision` and `blacklist-add` events and the climbs, in the
 * order they happened, which the caller applies (the step loop emits them and counts the climbs).
 */
export async function explore(request: ExploreRequest): Promise<ExploreOutcome> {
  const { tree, search, constraints } = request;
  const effects: ExploreEffect[] = [];
  const emit = (event: AgentEvent) => effects.push({ type: 'event', event });
  /** Records a climb; `true` when it repeats one of the turn's, and exploration stops. */
  const fail = (nodeId: number, reason: ExploreClimb['reason']) => {
    effects.push({ type: 'climb', nodeId, reason });
    return request.climbed?.has(nodeId) === true;
  };
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
      return { node, effects };
    }
    const isLastExecuted = !moved && node.id === request.lastExecutedId;
    if (node.children.length === 0) {
      if (!isLastExecuted) {
        decide('leaf', null, node, null);
        return { node, effects };
      }
      if (fail(node.id, 'leaf')) return { node, effects };
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
      return { node, effects };
    }
    if (fail(node.id, 'below-threshold')) return { node, effects };
    constraints.blacklist.add(node.id, 'node');
    emit({ type: 'blacklist-add', kind: 'node', ids: [node.id], reason: 'climb' });
    const anchor = climb();
    decide('climb', best, anchor, node.similarityThreshold);
    node = anchor;
    moved = true;
  }
}
