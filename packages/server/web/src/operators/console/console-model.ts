import type { HistoryEntry, OperatorRef, StoredTurnFact } from '@treeagent/core/client';
import type { HandoffSummary, OperatorMessageRequest } from '../../../../src/api-types';
import { tOf } from '../../i18n/use-t';

/** "3 min", "1 h 05 min": how long a session has waited. */
export function formatWait(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const t = tOf('console');
  if (minutes < 1) return t('wait.seconds', { seconds: Math.max(0, Math.floor(ms / 1000)) });
  if (minutes < 60) return t('wait.minutes', { minutes });
  return t('wait.hours', { hours: Math.floor(minutes / 60), minutes: String(minutes % 60).padStart(2, '0') });
}

/** A queue item's state line: waiting, claimed by whom ("you" for the operator looking), or closed at what time. */
export function queueStatusText(
  item: HandoffSummary,
  operatorId: string,
  timeOf: (iso: string) => string,
): string {
  const t = tOf('console');
  if (item.status === 'waiting') return t('status.waiting');
  if (item.status === 'claimed')
    return item.operator?.id === operatorId
      ? t('status.claimedByYou')
      : t('status.claimedBy', { name: item.operator?.name });
  return item.closedAt ? t('status.closedAt', { time: timeOf(item.closedAt) }) : t('status.closed');
}

/** Who has an open session, as its header says: nobody (closed: the assistant has it), you, another operator, or nobody yet. */
export function holderText(open: boolean, holder: OperatorRef | null, mine: boolean): string {
  const t = tOf('console');
  if (!open) return t('status.assistantHas');
  if (!holder) return t('status.waiting');
  return mine ? t('status.claimedByYou') : t('status.claimedBy', { name: holder.name });
}

/** An operator's reply as the API takes it: the text trimmed, the comma-separated options, the uploaded files' ids. */
export function replyRequest(
  reply: string,
  options: string,
  attachmentIds: readonly string[],
): OperatorMessageRequest {
  const optionList = options
    .split(',')
    .map((option) => option.trim())
    .filter(Boolean);
  return {
    content: reply.trim(),
    ...(optionList.length ? { options: optionList } : {}),
    ...(attachmentIds.length ? { attachments: [...attachmentIds] } : {}),
  };
}

/** The stored facts of a turn (`null` facts: the session store keeps none). */
export function factOf(facts: StoredTurnFact[] | null, turn: number): StoredTurnFact | undefined {
  return facts?.findLast((fact) => fact.turn === turn);
}

/** The transcript's rows: each history entry, and after a turn's last row the facts of that turn (when kept). */
export function transcriptRows(
  history: readonly HistoryEntry[],
  facts: StoredTurnFact[] | null,
): { entry: HistoryEntry; index: number; fact: StoredTurnFact | undefined }[] {
  return history.map((entry, index) => ({
    entry,
    index,
    fact: history[index + 1]?.turn === entry.turn ? undefined : factOf(facts, entry.turn),
  }));
}

/** Who wrote a transcript row, and its kind (for its style): the user, an operator by name, or the assistant and its node. */
export function speakerOf(
  entry: HistoryEntry,
  nodeLabel: ((id: number) => string) | null,
): { who: string; kind: 'user' | 'operator' | 'agent' } {
  const t = tOf('console');
  if (entry.role === 'user') return { who: t('transcript.user'), kind: 'user' };
  if (entry.operator) return { who: entry.operator.name, kind: 'operator' };
  const node = entry.nodeId !== undefined && nodeLabel ? ` · ${nodeLabel(entry.nodeId)}` : '';
  return { who: `${t('transcript.assistant')}${node}`, kind: 'agent' };
}

/** The set with `sessionId` in or out (the same set when nothing changes, so nothing re-renders). */
export function withTyping(
  current: ReadonlySet<string>,
  sessionId: string,
  on: boolean,
): ReadonlySet<string> {
  if (current.has(sessionId) === on) return current;
  const next = new Set(current);
  if (on) next.add(sessionId);
  else next.delete(sessionId);
  return next;
}

/**
 * The line under the reason: the queue, how long the user has waited — still waiting, or how long
 * they waited before an operator took the conversation — or that it is closed, and the session.
 */
export function panelHead(handoff: HandoffSummary, sessionId: string, now: number): string {
  const t = tOf('console');
  const values = { queue: handoff.queue, session: sessionId.slice(0, 12) };
  if (handoff.status === 'closed') return t('panel.headClosed', values);
  const since = Date.parse(handoff.since);
  if (handoff.status === 'claimed' && handoff.claimedAt)
    return t('panel.headClaimed', { ...values, wait: formatWait(Date.parse(handoff.claimedAt) - since) });
  return t('panel.head', { ...values, wait: formatWait(now - since) });
}
