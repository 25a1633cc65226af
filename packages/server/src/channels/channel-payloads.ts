import type { HistoryEntry } from '@treeagent/core';
import type { ChannelPayload } from '@treeagent/core/adapter';
import { handoffNotice } from '@treeagent/core/client';
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
    // Channels carry the two notices that change who answers; the rest are the console's business.
    const { key, values } = handoffNotice(transition, serverMessage(language, 'handoff.anOperator'));
    const notice =
      key === 'joined' ? 'operator-joined' : key === 'closed' || key === 'handedBack' ? 'handed-back' : null;
    if (!notice) return [];
    const operatorName = transition.type === 'start' ? null : (transition.operator?.name ?? null);
    return [
      { type: 'notice', notice, operatorName, text: serverMessage(language, `handoff.${key}`, values) },
    ];
  });
}
