import type { HandoffRequest, HandoffState, HandoffTransition } from '../../protocol/handoff.js';
import type { HistoryEntry } from '../../protocol/history-entry.js';
import type { LocalizedText } from '../../protocol/localized-text.js';

/**
 * A one-line description of a handoff transition: the `content` of its history row. A start without
 * a reason (the user's view of it, where the reason is blanked) ends at the queue.
 */
export function describeHandoff(transition: HandoffTransition): string {
  switch (transition.type) {
    case 'start': {
      const handed = `The conversation was handed to people (queue "${transition.queue}")`;
      return transition.reason ? `${handed}: ${transition.reason}` : `${handed}.`;
    }
    case 'claim':
      return `${transition.operator.name} joined the conversation.`;
    case 'release':
      return `${transition.operator.name} left the conversation; it waits for another operator.`;
    case 'end':
      if (transition.outcome === 'user-returned') return 'The user went back to the assistant.';
      return transition.outcome === 'closed'
        ? `${transition.operator?.name ?? 'An operator'} closed the conversation; the assistant answers again.`
        : `${transition.operator?.name ?? 'An operator'} handed the conversation back to the assistant.`;
  }
}

/** The `system` history row of a handoff transition. */
export function handoffRow(transition: HandoffTransition, turn: number, at: string): HistoryEntry {
  return { role: 'system', content: describeHandoff(transition), turn, at, handoff: transition };
}

/** The handoff state a request starts. */
export function startedHandoff(
  request: HandoffRequest,
  nodeId: number,
  turn: number,
  at: string,
  localize: (text: LocalizedText) => string,
): HandoffState {
  return {
    reason: request.reason,
    queue: request.queue ?? 'default',
    summary: request.summary ?? null,
    message: request.message == null ? null : localize(request.message) || null,
    returnOption: request.returnOption == null ? null : localize(request.returnOption) || null,
    since: at,
    turn,
    nodeId,
    operator: null,
    claimedAt: null,
  };
}

/** Whether a user message (typed or selected) is the handoff's return option. */
export function isReturnOption(state: HandoffState, message: string, selectedOption: string | null): boolean {
  const option = state.returnOption?.trim().toLowerCase();
  if (!option) return false;
  return selectedOption?.trim().toLowerCase() === option || message.trim().toLowerCase() === option;
}
