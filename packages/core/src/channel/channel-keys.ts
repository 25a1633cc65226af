import type { ChannelConversation } from '../protocol/channel.js';

/** `limit` of `deadLetters`, bounded. */
export function channelDeadLetterLimit(limit: number | undefined): number {
  return Math.min(Math.max(Math.trunc(limit ?? 100), 1), 1000);
}

/** The key of a conversation in a channel store. */
export function conversationKey(
  conversation: Pick<ChannelConversation, 'channel' | 'conversationId'>,
): string {
  return `${conversation.channel}\u0000${conversation.conversationId}`;
}
