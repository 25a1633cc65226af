import { validateBeforeRunOutput } from '../../callbacks/validate-outputs.js';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import { matchesStoredOption } from '../../privacy/stored-option.js';
import type { OutputMessage } from '../../protocol/output-message.js';
import { createLinks } from '../../tree/links.js';
import { aNode } from '../../tree/node-type-article.js';
import type { AfterSpecial } from '../../tree/specials.js';
import type { Tree } from '../../tree/tree.js';
import type { TreeNode } from '../../tree/tree-node.js';
import type { Position } from './position.js';
import type { StepContext } from './step-context.js';
import type { TurnHandoff } from './turn-handoff.js';

/** What the start position reads of its turn, and the two changes it may ask for. */
export interface StartContext extends StepContext {
  readonly record: { readonly turn: number };
  readonly lastExecutedId: number | null;
  readonly pendingMessage: OutputMessage | null;
  /** The last executed node of an agent's subtree, as the session remembers it. */
  agentPosition(agentId: number): number | undefined;
  /** `resume: true`: the agent continues from `nodeId`. */
  resumeAt(nodeId: number): void;
  /** The session's last node is gone from the tree: start over. */
  forgetLostNode(lostNodeId: number): void;
  /**
   * The turn's handoff: where a hand-back to a node asked the agent to continue (docs/concepts.md
   * §11), and `beforeRun` handing the session to people.
   */
  readonly handoff: Pick<TurnHandoff, 'startAt' | 'clearStartAt' | 'request'>;
}

/**
 * Where the interaction starts (docs/concepts.md §4): `beforeRun`'s target if it gives one; otherwise the
 * primary agent on the first interaction, or the after step of the last executed node.
 */
export async function startPosition(turn: StartContext): Promise<Position> {
  const { tree } = turn.runtime;
  const root = tree.root;
  if (root.definition.type === 'root' && root.definition.beforeRun) {
    const self = await turn.selfOf(root);
    const special = {
      isFirstInteraction: turn.record.turn === 0,
      lastNodeId: turn.lastExecutedId,
      selectedOption: turn.input.selectedOption,
    };
    const output = await turn.call(root, 'beforeRun', root.definition.beforeRun, [
      self,
      turn.context,
      special,
      createLinks(root.id, root.links),
    ]);
    const decision = validateBeforeRunOutput(root.id, output);
    if (decision.handoff) {
      turn.handoff.request(decision.handoff, root.id);
      return { step: 'done' };
    }
    if (decision.nodeTarget !== null) {
      const target = targetNode(tree, decision.nodeTarget, root.id, 'beforeRun');
      if (decision.resume) return resumePosition(turn, target, root.id, 'beforeRun');
      return decision.step === 'before'
        ? { step: 'before', nodeId: target.id }
        : { step: 'explore', nodeId: target.id, moved: false };
    }
  }
  const handBack = turn.handoff.startAt;
  if (handBack) {
    // An operator handed the session back at a node: the agent continues there, once.
    turn.handoff.clearStartAt();
    if (tree.has(handBack.nodeTarget)) {
      const target = targetNode(tree, handBack.nodeTarget, root.id, 'hand-back');
      if (handBack.resume) return resumePosition(turn, target, root.id, 'hand-back');
      return handBack.step === 'before'
        ? { step: 'before', nodeId: target.id }
        : { step: 'explore', nodeId: target.id, moved: false };
    }
    turn.forgetLostNode(handBack.nodeTarget);
    return { step: 'explore', nodeId: tree.primaryAgent.id, moved: false };
  }
  const last = turn.lastExecutedId;
  if (last === null) return { step: 'explore', nodeId: tree.primaryAgent.id, moved: false };
  if (!tree.has(last)) {
    turn.forgetLostNode(last);
    return { step: 'explore', nodeId: tree.primaryAgent.id, moved: false };
  }
  return afterPosition(turn, tree.node(last));
}

/** The after step of a node waiting for the user's reply, with the special it gets. */
export function afterPosition(turn: StartContext, node: TreeNode): Position {
  return { step: 'after', nodeId: node.id, special: resumedSpecial(turn, node) };
}

/** `resume: true`: continue `agent` from its own last executed node, or explore it if it has none. */
export function resumePosition(
  turn: StartContext,
  agent: TreeNode,
  fromNodeId: number,
  callback: string,
): Position {
  if (agent.type !== 'agent') {
    throw new TreeAgentError(
      'INVALID_STEP',
      `The "${callback}" callback of node ${fromNodeId} asked to resume node ${agent.id}, ${aNode(agent.type)} node. resume: true needs an agent node as nodeTarget.`,
      { nodeId: fromNodeId, callback },
    );
  }
  const { tree } = turn.runtime;
  const position = turn.agentPosition(agent.id);
  if (position === undefined || !tree.has(position) || !tree.isInSubtree(position, agent.id)) {
    return { step: 'explore', nodeId: agent.id, moved: false };
  }
  turn.resumeAt(position);
  return afterPosition(turn, tree.node(position));
}

/** Resolves a node target, rejecting unknown nodes and the root. */
export function targetNode(tree: Tree, id: number, fromNodeId: number, callback: string): TreeNode {
  if (!tree.has(id)) {
    throw new TreeAgentError(
      'UNKNOWN_NODE',
      `The "${callback}" callback of node ${fromNodeId} targets node ${id}, which is not in the tree. Use an id of the effective tree (links.<name> avoids hard-coded ids).`,
      { nodeId: fromNodeId, callback, details: { nodeTarget: id } },
    );
  }
  const node = tree.node(id);
  if (node.type === 'root') {
    throw new TreeAgentError(
      'INVALID_STEP',
      `The "${callback}" callback of node ${fromNodeId} targets the root, which cannot run. Target an agent or a node below it.`,
      {
        nodeId: fromNodeId,
        callback,
      },
    );
  }
  return node;
}

function resumedSpecial(turn: StartContext, node: TreeNode): AfterSpecial {
  switch (node.type) {
    case 'emit': {
      const message = turn.pendingMessage?.nodeId === node.id ? turn.pendingMessage : null;
      return { kind: 'emit', message, selectedOption: selectedOption(turn, message?.options ?? []) };
    }
    case 'llm':
      return { kind: 'llm', text: '', object: null, failResponseFormat: false, attempts: 0 };
    case 'query':
      return { kind: 'query', query: null, chunks: [], nextOffset: null };
    default:
      return { kind: 'empty' };
  }
}

function selectedOption(turn: StartContext, options: readonly string[]): string | null {
  const chosen = turn.input.selectedOption;
  if (chosen !== null) {
    // The stored options are redacted (docs/privacy.md); with `liveTurn` the client shows the value.
    if (options.length && !options.some((option) => matchesStoredOption(option, chosen))) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `selectedOption ${JSON.stringify(chosen)} is not one of the options of the last message (${options.map((o) => JSON.stringify(o)).join(', ')}).`,
        { details: { selectedOption: chosen, options } },
      );
    }
    return chosen;
  }
  const typed = turn.input.message.trim();
  const lower = typed.toLowerCase();
  const option = options.find((stored) => stored.trim().toLowerCase() === lower);
  if (option !== undefined) return option;
  return options.some((stored) => matchesStoredOption(stored, typed)) ? typed : null;
}
