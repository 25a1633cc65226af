import type { HistoryEntry, OutputMessage } from '@treeagent/core/client';
import { isFollowup, startTurn, type Turn } from './turn-model';

/**
 * Rebuilds the turns of a session from `GET /history`: the user's message and the agent's
 * messages of each turn, with the sources they cited. The history keeps no events, so restored turns
 * have no debug data, and dynamic attachments are not part of it (their placeholders show as text).
 */
export function restoreHistory(history: readonly HistoryEntry[]): Turn[] {
  const byTurn = new Map<number, HistoryEntry[]>();
  for (const entry of history) {
    const entries = byTurn.get(entry.turn) ?? [];
    entries.push(entry);
    byTurn.set(entry.turn, entries);
  }
  const turns: Turn[] = [];
  for (const [number, entries] of byTurn) {
    const user = entries.find((entry) => entry.role === 'user');
    const turn = startTurn(
      number,
      {
        text: user?.content ?? '',
        selectedOption: user?.selectedOption ?? null,
        attachments: user?.attachments ?? [],
      },
      null,
      0,
      user?.at ?? null,
    );
    const answers = entries.filter((entry) => entry.role === 'assistant' && !isFollowup(entry));
    const messages = answers.map(
      (entry, index): OutputMessage => ({
        id: `${number}-restored-${index + 1}`,
        nodeId: entry.nodeId ?? 0,
        type: entry.content === null ? 'none' : 'static',
        content: entry.content,
        options: entry.options ?? [],
        attachments: entry.attachments ?? [],
        dynamicAttachments: [],
        sources: entry.sources ?? [],
        waitInteraction: entry.waitInteraction ?? false,
        isWarning: entry.isWarning ?? false,
      }),
    );
    turns.push({
      ...turn,
      restored: true,
      followups: entries.filter(isFollowup),
      messages: messages.map((message, index) => ({
        id: message.id,
        nodeId: answers[index]!.nodeId ?? null,
        streaming: false,
        text: message.content ?? '',
        message,
      })),
    });
  }
  return turns;
}

/** The node the session is at after its history: where the last agent message came from. */
export function lastNodeOf(history: readonly HistoryEntry[]): number | null {
  return history.filter((entry) => entry.role === 'assistant' && !entry.operator).at(-1)?.nodeId ?? null;
}
