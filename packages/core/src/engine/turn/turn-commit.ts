import { turnFactOf } from '../../analytics/turn-fact-of.js';
import { outboundOfTurn } from '../../channel/channel-outbound.js';
import { redactCommit } from '../../privacy/redact-commit.js';
import type { Redactor } from '../../privacy/redactor.js';
import type { AgentOutput } from '../../protocol/events.js';
import type { SessionCommit } from '../../session/session-store.js';
import type { Turn } from './turn.js';

/** What a turn records besides the session: redaction of what is stored, and the turn facts. */
export interface TurnRecording {
  /** Redacts what is stored (history, pending message, turn facts); `null`: nothing is redacted. */
  redactor: Redactor | null;
  /** Attach the turn's analytics row to its commit (docs/analytics.md). */
  facts: boolean;
}

/**
 * The one commit of an answered turn, assembled in one place: the session as the turn left it
 * (`Turn.commit()`, which throws `SESSION_STATE` for a state that cannot be stored), redacted when
 * asked; the turn's analytics row (docs/analytics.md) and its handoff's webhook events
 * (docs/handoff.md) and a messaging channel's receipt of the update (docs/channels.md) riding in the
 * same write; `endsInteraction` when the turn holds the store's lock,
 * so the store may free it in that write. The caller checks for cancellation after `Turn.commit()`.
 */
export function turnCommit(
  turn: Turn,
  session: SessionCommit,
  output: AgentOutput,
  recording: TurnRecording,
  holdsLock: boolean,
): SessionCommit {
  const commit = recording.redactor ? redactCommit(session, recording.redactor) : session;
  if (recording.facts) commit.facts = [turnFact(turn, recording, output.status, null)];
  const handoffEvents = turn.handoff.eventsOf(turn.sessionId, commit);
  if (handoffEvents.length) commit.handoffEvents = handoffEvents;
  // The platform's id of the update, in the same commit (exactly once, docs/channels.md), and the
  // answer's outbox rows with it: a crash after the commit cannot lose the answer.
  const { inbound, replyTo } = turn.input;
  if (inbound) commit.inbound = inbound;
  if (inbound && replyTo) {
    const outbound = outboundOfTurn(turn.sessionId, inbound, replyTo, output);
    if (outbound.length) commit.outbound = outbound;
  }
  return holdsLock ? { ...commit, endsInteraction: true } : commit;
}

/** The turn's fact from its trace: the user's message redacted as stored, the latency up to now. */
export function turnFact(
  turn: Turn,
  recording: TurnRecording,
  outcome: AgentOutput['status'] | 'error',
  errorCode: string | null,
) {
  const { runtime, input } = turn;
  const output = turn.output();
  const start = turn.trace[0];
  const nodeId = output.nodeId;
  return turnFactOf({
    sessionId: output.sessionId,
    turn: output.turn,
    at: start?.type === 'turn-start' ? start.at : runtime.now().toISOString(),
    treeVersion: runtime.tree.contentHash,
    outcome,
    errorCode,
    nodeId,
    agentId: nodeId === null ? null : (runtime.tree.nodes.get(nodeId)?.agentId ?? null),
    failCounter: output.failCounter,
    latencyMs: performance.now() - turn.startedAt,
    message: recording.redactor ? recording.redactor.redact(input.message).text : input.message,
    trace: turn.trace,
  });
}
