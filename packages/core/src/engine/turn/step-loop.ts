import { validateAfterOutput, validateFallbackOutput } from '../../callbacks/validate-outputs.js';
import { summarizeError } from '../../errors/summarize-error.js';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import { explore } from '../../explore/explore.js';
import { createLinks } from '../../tree/links.js';
import { afterOf, beforeOf, fallbackOf } from '../../tree/node-callbacks.js';
import type { AfterSpecial, FallbackSpecial } from '../../tree/specials.js';
import type { TreeNode } from '../../tree/tree-node.js';
import { executeNode } from './execute/execute-node.js';
import type { Position } from './position.js';
import { resumePosition, startPosition, targetNode } from './start-position.js';
import type { Turn } from './turn.js';

/**
 * Runs the step loop (docs/concepts.md §4) from the start position until a node answers the user.
 *
 * This is the one place that changes the turn: the steps (explore, the callbacks, `executeNode`)
 * compute and return a result — explore its events and climbs, execute its `ExecuteResult` — and
 * `advance` / `recover` apply it through the turn's intent-named operations (`countExecution`,
 * `applyExecution`, `climbFrom`, `beginFallback`, `endWithNoMatch`).
 */
export async function runSteps(turn: Turn): Promise<void> {
  let position: Position = await startPosition(turn);
  while (position.step !== 'done') {
    turn.checkAbort();
    try {
      position = await advance(turn, position);
    } catch (error) {
      position = await recover(turn, error, position);
    }
  }
}

async function advance(turn: Turn, position: Exclude<Position, { step: 'done' }>): Promise<Position> {
  const { tree } = turn.runtime;
  const node = tree.node(position.nodeId);
  switch (position.step) {
    case 'explore':
      return exploreFrom(turn, node, position.moved);
    case 'before':
      if (node.type === 'agent') return { step: 'explore', nodeId: node.id, moved: false };
      return timed(turn, node, 'before', async () => {
        const before = beforeOf(node);
        if (before) await turn.call(node, 'before', before, [await turn.selfOf(node), turn.context]);
        return { step: 'execute', nodeId: node.id };
      });
    case 'execute':
      // Counted before the step starts: a step past maxSteps never starts, so starts and ends pair.
      turn.countExecution(node);
      return timed(turn, node, 'execute', async () => {
        await turn.selfOf(node);
        const result = await executeNode(turn, node);
        turn.applyExecution(node, result);
        return result.endsTurn
          ? { step: 'done' }
          : { step: 'after', nodeId: node.id, special: result.special };
      });
    case 'after':
      return timed(turn, node, 'after', () => runAfter(turn, node, position.special));
  }
}

async function timed(
  turn: Turn,
  node: TreeNode,
  step: 'before' | 'execute' | 'after',
  run: () => Promise<Position>,
): Promise<Position> {
  turn.emit({ type: 'step-start', nodeId: node.id, step });
  const started = performance.now();
  try {
    const next = await run();
    turn.emit({ type: 'step-end', nodeId: node.id, step, durationMs: performance.now() - started });
    return next;
  } catch (error) {
    // Every step-start has its step-end, also when the step fails (the error's code says why).
    const code = TreeAgentError.isInstance(error) ? error.code : 'INTERNAL';
    turn.emit({
      type: 'step-end',
      nodeId: node.id,
      step,
      durationMs: performance.now() - started,
      error: code,
    });
    throw error;
  }
}

async function exploreFrom(turn: Turn, start: TreeNode, moved: boolean): Promise<Position> {
  const { tree } = turn.runtime;
  const { node: reached, effects } = await explore({
    tree,
    search: turn.chunkSearch,
    start: start.id,
    moved,
    lastExecutedId: turn.lastExecutedId,
    constraints: turn.context.exploreStrategy.constraints,
    climbed: turn.climbed,
  });
  // Exploration returns what it did; the loop applies it in order (a repeated climb throws LOOP here).
  for (const effect of effects) {
    if (effect.type === 'climb') turn.climbFrom(effect.nodeId, effect.reason);
    else turn.emit(effect.event);
  }
  turn.emit({ type: 'explore-end', nodeId: reached.id, direction: turn.context.exploreStrategy.direction });
  if (reached.type === 'agent') {
    throw new TreeAgentError(
      'NO_MATCH',
      `Nothing in agent ${reached.id} fits the message: exploration ended on the agent itself.`,
      {
        nodeId: reached.id,
        details: { agentId: reached.id },
      },
    );
  }
  return { step: 'before', nodeId: reached.id };
}

async function runAfter(turn: Turn, node: TreeNode, special: AfterSpecial): Promise<Position> {
  const after = afterOf(node);
  if (!after) return { step: 'explore', nodeId: node.id, moved: false };
  const output = await turn.call(node, 'after', after, [
    await turn.selfOf(node),
    turn.context,
    special,
    createLinks(node.id, node.links),
  ]);
  const { handoff, ...decision } = validateAfterOutput(node.id, output);
  turn.emit({ type: 'after-output', nodeId: node.id, ...decision });
  if (handoff) {
    // The session goes to people: the turn ends here (runTurn applies the handoff).
    turn.handoff.request(handoff, node.id);
    return { step: 'done' };
  }
  if (decision.outcome === 'failure') return reachAnchor(turn, node);
  if (decision.nodeTarget === null) return { step: 'explore', nodeId: node.id, moved: false };
  const target = targetNode(turn.runtime.tree, decision.nodeTarget, node.id, 'after');
  if (decision.resume) return resumePosition(turn, target, node.id, 'after');
  return decision.step === 'before'
    ? { step: 'before', nodeId: target.id }
    : { step: 'explore', nodeId: target.id, moved: false };
}

/** reach_anchor (docs/concepts.md §5): fail counter +1, blacklist the node, explore from its nearest anchor as if moved. */
function reachAnchor(turn: Turn, node: TreeNode): Position {
  turn.climbFrom(node.id, 'failure-outcome');
  turn.context.exploreStrategy.constraints.blacklist.add(node.id, 'node');
  turn.emit({ type: 'blacklist-add', kind: 'node', ids: [node.id], reason: 'failure-outcome' });
  return { step: 'explore', nodeId: node.anchorId ?? node.agentId ?? node.id, moved: true };
}

/**
 * Routes an error to the `fallback` of the agent it happened in (docs/concepts.md §7); a no-match without
 * fallback ends the turn with status `no-match`. Anything else is rethrown: the turn fails and
 * nothing is committed.
 */
async function recover(turn: Turn, error: unknown, position: Position): Promise<Position> {
  if (!TreeAgentError.isInstance(error) || position.step === 'done') throw error;
  if (error.code === 'ABORTED' || error.code.startsWith('SESSION_') || error.code === 'INVALID_INPUT')
    throw error;
  const { tree } = turn.runtime;
  const failing = tree.node(position.nodeId);
  const agentId = TreeAgentError.hasCode(error, 'NO_MATCH') ? error.details.agentId : failing.agentId;
  if (agentId === null) throw error;
  const agent = tree.node(agentId);
  const fallback = fallbackOf(agent);
  const summary = summarizeError(error);
  if (!fallback) {
    if (error.code !== 'NO_MATCH') throw error;
    turn.endWithNoMatch(agentId);
    return { step: 'done' };
  }
  turn.beginFallback(error);
  const origin = error.nodeId ?? failing.id;
  const special: FallbackSpecial = {
    error: { code: error.code, message: error.message },
    nodeId: origin,
    step: position.step,
    noMatch: error.code === 'NO_MATCH',
  };
  const output = await turn.call(agent, 'fallback', fallback, [
    await turn.selfOf(agent),
    turn.context,
    special,
    createLinks(agent.id, agent.links),
  ]);
  const { nodeTarget: target, resumes } = validateFallbackOutput(agent.id, output);
  if (target === origin || target === agentId) {
    throw new TreeAgentError(
      'INVALID_CALLBACK_OUTPUT',
      `The fallback of agent ${agentId} targets node ${target}, where the error started. Target another node (for example one that apologises), to avoid a loop.`,
      { nodeId: agentId, callback: 'fallback', cause: error },
    );
  }
  targetNode(tree, target, agentId, 'fallback');
  turn.emit({
    type: 'fallback',
    agentId,
    error: summary,
    nodeTarget: target,
    ...(resumes ? { resumes: true } : {}),
  });
  return { step: 'before', nodeId: target };
}
