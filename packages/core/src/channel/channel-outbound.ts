import type { ChannelConversation, ChannelPayload, InboundReceipt } from '../protocol/channel.js';
import type { ChannelDeliveryInput } from '../protocol/channel-store.js';
import type { AgentOutput } from '../protocol/events.js';

/** What a turn sends on a channel: each message's text with its options, then its files. */
export function payloadsOfOutput(output: Pick<AgentOutput, 'messages'>): ChannelPayload[] {
  return output.messages.flatMap((message): ChannelPayload[] => {
    const payloads: ChannelPayload[] = [];
    if (message.content || message.options.length)
      payloads.push({ type: 'text', text: message.content ?? '', options: [...message.options] });
    for (const file of message.attachments) payloads.push({ type: 'file', file });
    return payloads;
  });
}

/**
 * A turn's answer as outbox rows for the conversation it came from (docs/channels.md, "Outbound
 * delivery"): ids `<channel>:<message id>:<n>`, stable, so the same answer is never queued twice.
 */
export function outboundOfTurn(
  sessionId: string,
  receipt: InboundReceipt,
  conversation: ChannelConversation,
  output: Pick<AgentOutput, 'messages'>,
): ChannelDeliveryInput[] {
  return payloadsOfOutput(output).map((payload, index) => ({
    id: `${receipt.channel}:${receipt.messageId}:${index}`,
    sessionId,
    conversation,
    payload,
  }));
}
