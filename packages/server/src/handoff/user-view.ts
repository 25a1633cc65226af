import type { AgentOutput, HandoffState, HandoffTransition, HistoryEntry } from '@treeagent/core';
import { describeHandoff, type OperatorRef } from '@treeagent/core/adapter';
import type { SessionEventHandoff } from '../api-types.js';

/**
 * What a user reads of the people who had their session: the operator's display name, never the
 * login id (the id is blanked to `''`); and of a handoff, never why it was made nor its summary —
 * `reason` and `summary` are for the operators (docs/concepts.md, "Handoff"): blanked to `''` and
 * `null`. One rule for everything a session token reads — the history (`GET /sessions/:id/history`),
 * the event stream, and a turn's output — while operators and the audit log keep them.
 */
export function publicOperator(operator: OperatorRef): OperatorRef {
  return { id: '', name: operator.name };
}

/** The handoff as a user's page sees it: the queue, since when, and the name of the operator (never the operator's login). */
export function publicHandoff(state: HandoffState | null | undefined): SessionEventHandoff | null {
  if (!state) return null;
  return {
    status: state.operator ? 'claimed' : 'waiting',
    queue: state.queue,
    since: state.since,
    operatorName: state.operator?.name ?? null,
    message: state.message,
    returnOption: state.returnOption,
  };
}

/** A handoff transition as a user sees it: its operator by name only, a start without its reason. */
export function publicTransition<T extends HandoffTransition | { type: 'held'; queue: string }>(
  transition: T,
): T {
  if (transition.type === 'start') return { ...transition, reason: '' };
  if (!('operator' in transition) || !transition.operator) return transition;
  return { ...transition, operator: publicOperator(transition.operator) };
}

/** A history entry as a user sees it: an operator by name only; a handoff row described from its public transition. */
export function publicEntry(entry: HistoryEntry): HistoryEntry {
  if (!entry.operator && !entry.handoff) return entry;
  const { operator, handoff, ...rest } = entry;
  const transition = handoff ? publicTransition(handoff) : undefined;
  return {
    ...rest,
    ...(transition ? { content: describeHandoff(transition), handoff: transition } : {}),
    ...(operator ? { operator: publicOperator(operator) } : {}),
  };
}

/** A turn's output as a user sees it: the handoff's operator by name only, without its reason and summary. */
export function publicOutput<T extends Pick<AgentOutput, 'handoff'>>(output: T): T {
  const { handoff } = output;
  if (!handoff) return output;
  return {
    ...output,
    handoff: {
      ...handoff,
      reason: '',
      summary: null,
      operator: handoff.operator ? publicOperator(handoff.operator) : null,
    },
  };
}
