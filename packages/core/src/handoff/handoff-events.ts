import { createHash } from 'node:crypto';
import type { HandoffState } from '../protocol/handoff.js';
import type { HandoffEvent } from '../protocol/handoff-outbox.js';
import type { HistoryEntry } from '../protocol/history-entry.js';

/**
 * The id of a handoff's event: the same for the same transition in every process and on every
 * retry (a hash of the session, the handoff's start and the type), so a receiver deduplicates on it
 * and an outbox never holds a transition twice.
 */
export function handoffEventId(sessionId: string, since: string, type: HandoffEvent['type']): string {
  const hash = createHash('sha256').update(`${sessionId}\n${since}\n${type}`).digest('hex');
  return `${hash.slice(0, 8)}-${hash.slice(8, 12)}-${hash.slice(12, 16)}-${hash.slice(16, 20)}-${hash.slice(20, 32)}`;
}

/**
 * The webhook events of one commit (docs/handoff.md): `handoff.ended` for an `end` row (about the
 * handoff as it was before), `handoff.started` for a `start` row (about the handoff after). Claims,
 * releases and replies make none.
 */
export function handoffEventsOf(
  sessionId: string,
  before: HandoffState | null | undefined,
  after: HandoffState | null | undefined,
  entries: readonly HistoryEntry[],
): HandoffEvent[] {
  const events: HandoffEvent[] = [];
  for (const entry of entries) {
    const transition = entry.handoff;
    if (transition?.type === 'end' && before) {
      events.push({
        id: handoffEventId(sessionId, before.since, 'handoff.ended'),
        type: 'handoff.ended',
        at: entry.at,
        sessionId,
        queue: before.queue,
        reason: before.reason,
        summary: before.summary,
        outcome: transition.outcome,
        operator: transition.operator,
      });
    } else if (transition?.type === 'start' && after) {
      events.push({
        id: handoffEventId(sessionId, after.since, 'handoff.started'),
        type: 'handoff.started',
        at: after.since,
        sessionId,
        queue: after.queue,
        reason: after.reason,
        summary: after.summary,
      });
    }
  }
  return events;
}
