import type { FileMetadata } from './file-metadata.js';

/**
 * One conversation on a messaging platform, as a channel sees it: the channel it arrived on (the
 * name in the server's configuration), the platform's conversation (a chat, a thread, a phone
 * number) and the user in it. The server maps it to one stable session (`ChannelStore.sessionOf`).
 */
export interface ChannelConversation {
  /** The channel's name in the configuration (`telegram`, `support-whatsapp`, …). */
  channel: string;
  /** The platform's id of the conversation (Telegram's chat id, Slack's channel id, a WhatsApp number). */
  conversationId: string;
  /** The platform's id of the user. */
  userId: string;
  /** The thread to answer in, where the platform has threads (Slack's `thread_ts`). */
  threadId?: string | null;
  /** Platform data the channel needs to answer (Teams' service URL); plain JSON. */
  reply?: Record<string, string>;
}

/**
 * The platform's id of an update that ran a turn (docs/channels.md, "Exactly once"). A session store
 * records it in the same transaction as the turn's commit and refuses a second commit with the same
 * receipt, so a redelivered update never runs a turn twice.
 */
export interface InboundReceipt {
  channel: string;
  /** The platform's id of the update, the same on every redelivery. */
  messageId: string;
}

/** Something to send on a channel, as it waits in the outbox (plain JSON). */
export type ChannelPayload =
  | {
      type: 'text';
      text: string;
      /** The options to offer (native buttons where the channel has them, else a numbered list). */
      options: string[];
      /** The operator who wrote it, when people have the conversation. */
      operatorName?: string | null;
    }
  | { type: 'file'; file: FileMetadata; caption?: string | null }
  | {
      type: 'notice';
      /** A handoff started, an operator joined, or the agent has the conversation again. */
      notice: 'handoff-started' | 'operator-joined' | 'handed-back';
      operatorName: string | null;
      text: string;
    };

/** A message waiting in the channel outbox (or dead-lettered), with its attempts so far. */
export interface ChannelDelivery {
  /** Unique and stable: the same delivery added twice is kept once. */
  id: string;
  sessionId: string;
  conversation: ChannelConversation;
  payload: ChannelPayload;
  attempts: number;
  status: 'pending' | 'dead';
  /** ISO timestamp of the next attempt (for `dead`: when it was given up). */
  nextAttemptAt: string;
  lastError: string | null;
}

/** What a channel identity holds (personal-data export, docs/privacy.md). */
export interface ChannelIdentity {
  sessionId: string;
  conversation: ChannelConversation;
  /** ISO timestamp of the first message. */
  createdAt: string;
}
