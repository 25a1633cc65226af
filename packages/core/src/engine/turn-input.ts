import type { InboundReceipt } from '../protocol/channel.js';
import type { FileMetadata } from '../protocol/file-metadata.js';

/** The user's message and what travels with it. */
export interface TurnInput {
  message: string;
  attachments: FileMetadata[];
  clientMetadata: Record<string, unknown>;
  selectedOption: string | null;
  signal?: AbortSignal;
  /** The platform's id of the update (a messaging channel), recorded in the turn's commit. */
  inbound?: InboundReceipt;
}
