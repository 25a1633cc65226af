import type { HistoryEntry, OperatorRef, StoredTurnFact } from '@treeagent/core/client';
import type { HandoffSummary, OperatorMessageRequest } from '../../../../src/api-types';

/** "3 min", "1 h 05 min": how long a session has waited. */
export function formatWait(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.floor(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** A queue item's state line: waiting, claimed by whom ("you" for the operator looking), or closed at what time. */
export function queueStatusText(
  item: HandoffSummary,
  operatorId: string,
  timeOf: (iso: string) => string,
): string {
  if (item.status === 'waiting') return 'Waiting';
  if (item.status === 'claimed')
    return `Claimed by ${item.operator?.id === operatorId ? 'you' : item.operator?.name}`;
  return `Closed ${item.closedAt ? timeOf(item.closedAt) : ''}`;
}

/** Who has an open session, as its header says: nobody (closed: the assistant has it), you, another operator, or nobody yet. */
export function holderText(open: boolean, holder: OperatorRef | null, mine: boolean): string {
  if (!open) return 'Closed: the assistant has this session.';
  return holder ? `Claimed by ${mine ? 'you' : holder.name}` : 'Waiting';
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
  if (entry.role === 'user') return { who: 'User', kind: 'user' };
  if (entry.operator) return { who: entry.operator.name, kind: 'operator' };
  const node = entry.nodeId !== undefined && nodeLabel ? ` · ${nodeLabel(entry.nodeId)}` : '';
  return { who: `Assistant${node}`, kind: 'agent' };
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
