import type { HistoryEntry } from '@treeagent/core';
import type { QueueEntry } from '@treeagent/core/adapter';
import type { HandoffSummary } from '../api-types.js';

/** A queue entry as the console lists it: waiting time, the user's last messages, counts. */
export function summaryOf(
  entry: QueueEntry,
  history: HistoryEntry[],
  now: number,
  channel: string | null = null,
): HandoffSummary {
  const lastMessages = history
    .filter((item) => item.role === 'user' && item.content)
    .slice(-3)
    .map((item) => item.content!);
  return {
    sessionId: entry.sessionId,
    status: entry.status,
    queue: entry.queue,
    reason: entry.reason,
    summary: entry.summary,
    since: entry.since,
    waitingMs: Math.max(0, now - Date.parse(entry.since)),
    operator: entry.operator,
    claimedAt: entry.claimedAt,
    lastUserMessageAt: entry.lastUserMessageAt,
    closedAt: entry.closedAt,
    outcome: entry.outcome,
    lastMessages,
    noteCount: entry.notes.length,
    channel,
  };
}
