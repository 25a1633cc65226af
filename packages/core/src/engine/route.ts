import { ExploreConstraints } from '../context/explore-strategy.js';
import { embedTexts } from '../embedding/embed-texts.js';
import { explore } from '../explore/explore.js';
import type { AgentEvent } from '../protocol/events.js';
import type { TreeNode } from '../tree/tree-node.js';
import type { AgentRuntime } from './runtime.js';

/** Where exploration takes a message on a fresh session, and why. */
export interface RouteResult {
  /** The node exploration stops on; an agent node means no match. */
  node: TreeNode;
  /** True when exploration ended on the agent (nothing fits). */
  noMatch: boolean;
  /** The `explore-decision` events, hop by hop. */
  decisions: Extract<AgentEvent, { type: 'explore-decision' }>[];
}

/**
 * Runs the real explore step for `text` as on the first interaction of a session (from the primary
 * agent, or `startNodeId`), without callbacks or sessions. Used by routing evaluation and lint.
 */
export async function routeText(
  runtime: AgentRuntime,
  text: string,
  startNodeId = runtime.tree.primaryAgent.id,
): Promise<RouteResult> {
  const decisions: RouteResult['decisions'] = [];
  let vector: Promise<Float32Array> | null = null;
  const direction = () => {
    vector ??= embedTexts(runtime.embedder, [text], runtime.embeddingCache).then(([first]) => first!);
    return vector;
  };
  const node = await explore({
    tree: runtime.tree,
    search: runtime.chunkSearch(direction),
    start: startNodeId,
    moved: false,
    lastExecutedId: null,
    constraints: new ExploreConstraints(),
    onFail: () => {},
    emit: (event) => {
      if (event.type === 'explore-decision') decisions.push(event);
    },
  });
  return { node, noMatch: node.type === 'agent', decisions };
}
