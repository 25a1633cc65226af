import { ExploreConstraints } from '../../context/explore-strategy.js';
import { embedTexts } from '../../embedding/embed-texts.js';
import { withThresholds } from '../../explore/calibrate-thresholds.js';
import { explore } from '../../explore/explore.js';
import type { AgentEvent } from '../../protocol/events.js';
import { afterOf, beforeOf } from '../../tree/node-callbacks.js';
import type { Tree } from '../../tree/tree.js';
import type { TreeNode } from '../../tree/tree-node.js';
import type { AgentRuntime } from '../runtime/runtime.js';
import { routingRuntime } from './routing-runtime.js';

/** Where exploration takes a message on a fresh session, and why. */
export interface RouteResult {
  /** The node the turn answers from (or, with callbacks, the first node whose callbacks decide); an agent node means no match. */
  node: TreeNode;
  /**
   * True when the turn would end in the agent's fallback: exploration ended on the agent (nothing
   * fits), or the climbs looped (`LOOP`), as `send` does.
   */
  noMatch: boolean;
  /** The `explore-decision` events, hop by hop, across every explore step of the turn. */
  decisions: Extract<AgentEvent, { type: 'explore-decision' }>[];
  /**
   * Nodes the turn executed and went past: `empty` and `switch` nodes without callbacks where
   * exploration stopped (a threshold on an intermediate node); from each, the turn explores again,
   * climbing with the node blacklisted, exactly as `send` does.
   */
  passedThrough: number[];
  /**
   * The id of the fitted embedder the message was routed with, as the trace's `fittedSpace`: absent
   * in the unfitted space; with a cascade, the space the gate chose (`routingRuntime`).
   */
  fittedSpace?: string;
}

/**
 * Routes `text` as the first interaction of a session does (from the primary agent, or
 * `startNodeId`), without running callbacks or touching sessions: the real explore step, and, where
 * exploration stops on an `empty` or `switch` node without callbacks, what the step loop does next
 * (execute nothing, explore again from it: climb with it blacklisted, fail counter and loop guard
 * included). It stops on the first node that answers the user or has callbacks that would decide.
 * Used by routing evaluation, lint and `TreeAgent.route`.
 */
export async function routeText(
  runtime: AgentRuntime,
  text: string,
  options: RouteOptions = {},
): Promise<RouteResult> {
  const chosen = await routingRuntime(runtime, text, routeIn);
  // A cascade that kept its first space has routed the message already, from the primary agent.
  const sameRoute = options.startNodeId === undefined && options.thresholds === undefined;
  return chosen.firstLeg && sameRoute ? chosen.firstLeg : routeIn(chosen.runtime, text, options);
}

/** `routeText` in `runtime`'s own space, whatever its cascade says (`routingRuntime`'s first leg). */
export async function routeIn(
  runtime: AgentRuntime,
  text: string,
  options: RouteOptions = {},
): Promise<RouteResult> {
  const result = await routeWith(runtime, text, options);
  return runtime.exploreEmbedder !== runtime.embedder
    ? { ...result, fittedSpace: runtime.exploreEmbedder.id }
    : result;
}

async function routeWith(runtime: AgentRuntime, text: string, options: RouteOptions): Promise<RouteResult> {
  const tree = options.thresholds === undefined ? runtime.tree : overridden(runtime, options.thresholds);
  const startNodeId = options.startNodeId ?? tree.primaryAgent.id;
  const decisions: RouteResult['decisions'] = [];
  const passedThrough: number[] = [];
  let vector: Promise<Float32Array> | null = null;
  const direction = () => {
    vector ??= embedTexts(
      runtime.exploreEmbedder,
      [text],
      runtime.messageCache ?? runtime.embeddingCache,
    ).then(([first]) => first!);
    return vector;
  };
  const search = runtime.chunkSearch(direction);
  const constraints = new ExploreConstraints();
  const climbedFrom = new Set<number>();
  let start = startNodeId;
  let moved = false;
  let lastExecutedId: number | null = null;
  for (let executed = 0; ; executed++) {
    let looped = false;
    const { node, effects } = await explore({ tree, search, start, moved, lastExecutedId, constraints });
    for (const effect of effects) {
      if (effect.type === 'climb') {
        // send raises LOOP here (reach the anchor twice from one node): the agent's fallback answers.
        if (climbedFrom.has(effect.nodeId)) looped = true;
        climbedFrom.add(effect.nodeId);
      } else if (effect.event.type === 'explore-decision') decisions.push(effect.event);
    }
    if (looped || executed >= runtime.limits.maxSteps) {
      const agent = tree.node(node.agentId ?? tree.primaryAgent.id);
      return { node: agent, noMatch: true, decisions, passedThrough };
    }
    if (node.type === 'agent') return { node, noMatch: true, decisions, passedThrough };
    if (!passesThrough(node)) return { node, noMatch: false, decisions, passedThrough };
    passedThrough.push(node.id);
    lastExecutedId = node.id;
    start = node.id;
    moved = false;
  }
}

/** Where and how `routeText` routes. */
export interface RouteOptions {
  /** Node to explore from (default: the primary agent). */
  startNodeId?: number;
  /**
   * Route as if the routing nodes had these thresholds: a number for every routing node (as a root's
   * `defaultSimilarityThreshold` with no node setting one), or thresholds by node id (the others as they are).
   */
  thresholds?: ThresholdOverride;
}

/** Thresholds to route with instead of the tree's: one for every routing node, or some by node id. */
export type ThresholdOverride = number | ReadonlyMap<number, number>;

const overrides = new WeakMap<AgentRuntime, { key: string; tree: Tree }>();

/** The runtime's tree with the thresholds replaced (the last one is kept per runtime: evaluations route many texts with one override). */
function overridden(runtime: AgentRuntime, thresholds: ThresholdOverride): Tree {
  const key = typeof thresholds === 'number' ? String(thresholds) : JSON.stringify([...thresholds]);
  const cached = overrides.get(runtime);
  if (cached?.key === key) return cached.tree;
  const tree = withThresholds(runtime.tree, (node) =>
    typeof thresholds === 'number'
      ? node.children.length
        ? thresholds
        : undefined
      : thresholds.get(node.id),
  );
  overrides.set(runtime, { key, tree });
  return tree;
}

/** An `empty` or `switch` node without callbacks: the step loop executes nothing there and explores on. */
function passesThrough(node: TreeNode): boolean {
  if (node.type !== 'empty' && node.type !== 'switch') return false;
  return beforeOf(node) === undefined && afterOf(node) === undefined;
}
