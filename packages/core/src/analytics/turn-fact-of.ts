import type { AgentEvent, TurnStatus } from '../protocol/events.js';
import type { TurnDecisionFact, TurnFact, TurnFactStatus } from '../protocol/turn-fact.js';

/** What `turnFactOf` needs besides the trace. */
export interface TurnFactInput {
  sessionId: string;
  turn: number;
  /** ISO time the turn started. */
  at: string;
  treeVersion: string;
  /** How the turn ended: an output status, or `error` for a turn that failed. */
  outcome: TurnStatus | 'error';
  /** Code of the error that failed the turn (for `outcome: 'error'`). */
  errorCode?: string | null;
  nodeId: number | null;
  agentId: number | null;
  failCounter: number;
  latencyMs: number;
  /** The user's message, already redacted. */
  message: string;
  /** The turn's events, in order. */
  trace: readonly AgentEvent[];
}

/**
 * The turn's analytics row (docs/analytics.md), computed from its trace in one pass: its status, the
 * explore decisions with their margins to the runner-up, the lowest margin and the model tokens.
 * Pure: the engine calls it once per turn, just before the commit.
 */
export function turnFactOf(input: TurnFactInput): TurnFact {
  const decisions: TurnDecisionFact[] = [];
  let low: TurnDecisionFact | null = null;
  let inputTokens: number | null = null;
  let outputTokens: number | null = null;
  let handedOff = false;
  let fallbackError: string | null = null;
  let resumed = false;
  let agentId = input.agentId;
  for (const event of input.trace) {
    if (event.type === 'explore-decision') {
      if (event.action !== 'descend' && event.action !== 'below-threshold' && event.action !== 'climb')
        continue;
      const best = event.best;
      const runnerUp = best?.runnerUp ?? null;
      const decision: TurnDecisionFact = {
        nodeId: event.nodeId,
        childId: best?.childId ?? null,
        similarity: best?.similarity ?? null,
        runnerUpId: runnerUp?.childId ?? null,
        margin: best && runnerUp ? best.similarity - runnerUp.similarity : null,
        threshold: event.threshold,
        descended: event.action === 'descend',
      };
      decisions.push(decision);
      if (decision.margin !== null && (low === null || decision.margin < low.margin!)) low = decision;
    } else if (event.type === 'model-call') {
      if (event.inputTokens !== undefined) inputTokens = (inputTokens ?? 0) + event.inputTokens;
      if (event.outputTokens !== undefined) outputTokens = (outputTokens ?? 0) + event.outputTokens;
    } else if (event.type === 'fallback') {
      fallbackError = event.error.code === 'NO_MATCH' ? null : event.error.code;
      resumed = event.resumes === true && event.error.code === 'NO_MATCH';
      agentId ??= event.agentId;
    } else if (event.type === 'no-match') {
      agentId ??= event.agentId;
    } else if ((event.type as string).startsWith('handoff')) {
      // The handoff events of the operator console (docs/analytics.md): the turn went to a human.
      handedOff = true;
    }
  }
  // A message a pending question (a form's) took through the fallback was understood: answered.
  const status: TurnFactStatus = handedOff
    ? 'handed-off'
    : resumed && input.outcome === 'fallback-no-match'
      ? 'answered'
      : statusOf(input.outcome);
  return {
    sessionId: input.sessionId,
    turn: input.turn,
    at: input.at,
    treeVersion: input.treeVersion,
    status,
    errorCode:
      input.outcome === 'error'
        ? (input.errorCode ?? 'ERROR')
        : input.outcome === 'fallback-error'
          ? (fallbackError ?? 'ERROR')
          : null,
    nodeId: input.nodeId,
    agentId,
    bestSimilarity: decisions[0]?.similarity ?? null,
    minMargin: low?.margin ?? null,
    lowMarginNodeId: low?.nodeId ?? null,
    lowMarginChildId: low?.childId ?? null,
    lowMarginRunnerUpId: low?.runnerUpId ?? null,
    failCounter: input.failCounter,
    latencyMs: input.latencyMs,
    inputTokens,
    outputTokens,
    message: input.message,
    decisions,
  };
}

function statusOf(outcome: TurnStatus | 'error'): TurnFactStatus {
  // A string switch: an output status added later (a handoff) maps by name, anything unknown to error.
  switch (outcome as string) {
    case 'handed-off':
      return 'handed-off';
    case 'answered':
      return 'answered';
    case 'no-match':
      return 'no-match';
    case 'fallback-no-match':
    case 'fallback-error':
      return 'fallback';
    default:
      return 'error';
  }
}
