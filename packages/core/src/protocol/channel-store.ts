import type { ChannelConversation, ChannelDelivery, ChannelIdentity, ChannelPayload } from './channel.js';
import type { ChannelInbox } from './channel-inbox.js';

/** A message to add to the outbox. */
export interface ChannelDeliveryInput {
  id: string;
  sessionId: string;
  conversation: ChannelConversation;
  payload: ChannelPayload;
}

/**
 * What a server keeps for its messaging channels (docs/channels.md): the stable mapping of a
 * platform conversation to a session, and the durable outbox of messages to send. The outbox keeps
 * the order of each conversation: `lease` gives at most the oldest pending message of a
 * conversation, and not while an earlier one is leased. In memory here (`InMemoryChannelStore`);
 * SQLite and PostgreSQL in their packages; all pass `describeChannelStore`
 * (`@treeagent/core/conformance`).
 */
export interface ChannelStore {
  /**
   * The session of a platform conversation: the same for the same channel and conversation id, in
   * every process and after restarts; created on first use (`newSessionId`). The stored conversation
   * is updated with the latest thread and reply data.
   */
  sessionOf(conversation: ChannelConversation, newSessionId: string, now: Date): Promise<string>;
  /** The conversation a session belongs to, or `null` when it did not come from a channel. */
  conversationOf(sessionId: string): Promise<ChannelConversation | null>;
  /** Adds messages to send now; an id already there is ignored. Their order is the order of sending. */
  enqueue(deliveries: readonly ChannelDeliveryInput[], now: Date): Promise<void>;
  /**
   * Leases at most `limit` due messages for `leaseMs`, at most one per conversation (its oldest
   * pending one, and none while that one is leased); the attempt count grows by one.
   */
  lease(now: Date, limit: number, leaseMs: number): Promise<ChannelDelivery[]>;
  /** Sent: it leaves the outbox. */
  delivered(id: string): Promise<void>;
  /** An attempt failed: retried at `retryAt`, or dead-lettered when `retryAt` is `null`. */
  failed(id: string, error: string, retryAt: Date | null, now: Date): Promise<void>;
  /** Pending and dead messages per channel (the metrics). */
  counts(): Promise<{ channel: string; pending: number; dead: number }[]>;
  /** Dead-lettered messages, most recent first (at most `limit`, default 100). */
  deadLetters(limit?: number): Promise<ChannelDelivery[]>;
  /** Puts a dead-lettered message back in line; false when there is none with this id. */
  retry(id: string, now: Date): Promise<boolean>;
  /**
   * The sessions of a platform user on a channel (every conversation they wrote in), oldest first:
   * how a personal data request finds a channel user's data (docs/privacy.md).
   */
  sessionsOfUser(channel: string, userId: string): Promise<string[]>;
  /** The identities and undelivered messages of `sessionIds` (one user's data on request). */
  sessionData(
    sessionIds: readonly string[],
  ): Promise<{ identities: ChannelIdentity[]; deliveries: ChannelDelivery[] }>;
  /** Deletes the identities, messages and inbox entries of `sessionIds`; returns how many rows went. */
  deleteSessions(sessionIds: readonly string[]): Promise<number>;
  /**
   * The durable inbox of incoming messages, in the same storage (docs/channels.md, "The inbox"). The
   * server needs it to run a messaging channel; memory, SQLite and PostgreSQL have one.
   */
  inbox?(): ChannelInbox;
}
