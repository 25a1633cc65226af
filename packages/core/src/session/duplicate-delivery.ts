import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { InboundReceipt } from '../protocol/channel.js';

/** The error of a redelivered update: its receipt is already in the store (docs/channels.md, "Exactly once"). */
export function duplicateDelivery(
  sessionId: string,
  receipt: InboundReceipt,
): TreeAgentError<'DUPLICATE_DELIVERY'> {
  return new TreeAgentError(
    'DUPLICATE_DELIVERY',
    `Update ${receipt.messageId} of channel "${receipt.channel}" already ran a turn of session "${sessionId}"; a redelivery runs nothing (answer the platform 200 and drop it).`,
    { details: { sessionId, channel: receipt.channel, messageId: receipt.messageId } },
  );
}

/** The key of a receipt in a store. */
export function receiptKey(receipt: InboundReceipt): string {
  return `${receipt.channel}\u0000${receipt.messageId}`;
}
