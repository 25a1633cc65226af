import type { ChannelConversation, InboundReceipt } from '../../protocol/channel.js';
import type { FileMetadata } from '../../protocol/file-metadata.js';

/** The user's message and what travels with it; read-only: the agent builds a redacted copy rather than changing it. */
export interface TurnInput {
  readonly message: string;
  readonly attachments: FileMetadata[];
  readonly clientMetadata: Record<string, unknown>;
  readonly selectedOption: string | null;
  readonly signal?: AbortSignal;
  /** The platform's id of the update (a messaging channel), recorded in the turn's commit. */
  readonly inbound?: InboundReceipt;
  /** The channel conversation to answer on: the answer goes to its outbox in the turn's commit. */
  readonly replyTo?: ChannelConversation;
}
