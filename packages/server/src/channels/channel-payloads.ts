import type { HistoryEntry } from '@treeagent/core';
import type { ChannelPayload } from '@treeagent/core/adapter';
import { serverMessage } from '../i18n/server-messages.js';

/**
 * What an operator's action sends on a channel: the operator's messages (with their name, options and
 * files), and a notice when an operator joins or gives the conversation back, in `language` (the
 * `server` catalogs; the engine records it in English). The operator's login id never leaves the server.
 */
export function payloadsOfHandoffEntries(
  entries: readonly HistoryEntry[],
  language = 'en',
): ChannelPayload[] {
  return entries.flatMap((entry): ChannelPayload[] => {
    if (entry.role === 'assistant' && entry.operator) {
      const operatorName = entry.operator.name;
      const payloads: ChannelPayload[] = [];
      if (entry.content || entry.options?.length)
        payloads.push({
          type: 'text',
          text: entry.content ?? '',
          options: [...(entry.options ?? [])],
          operatorName,
        });
      for (const file of entry.attachments ?? []) payloads.push({ type: 'file', file });
      return payloads;
    }
    const transition = entry.handoff;
    if (entry.role !== 'system' || !transition || !entry.content) return [];
    if (transition.type === 'claim')
      return [
        {
          type: 'notice',
          notice: 'operator-joined',
          operatorName: transition.operator.name,
          text: serverMessage(language, 'handoff.joined', { name: transition.operator.name }),
        },
      ];
    if (transition.type === 'end' && transition.outcome !== 'user-returned')
      return [
        {
          type: 'notice',
          notice: 'handed-back',
          operatorName: transition.operator?.name ?? null,
          text: serverMessage(
            language,
            transition.outcome === 'closed' ? 'handoff.closed' : 'handoff.handedBack',
            {
              name: transition.operator?.name ?? serverMessage(language, 'handoff.anOperator'),
            },
          ),
        },
      ];
    return [];
  });
}
