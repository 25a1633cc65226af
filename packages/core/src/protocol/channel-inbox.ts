import type { ChannelConversation } from './channel.js';
import type { FileMetadata } from './file-metadata.js';

/**
 * A verified, parsed message of a messaging channel as it waits in the inbox: written before the
 * platform's webhook is answered, so an acknowledged message survives a crash (docs/channels.md,
 * "The inbox"). Plain JSON.
 */
export interface ChannelInboxInput {
  /** The channel's name. */
  channel: string;
  /** The platform's id of the update: with `channel`, the entry's key (a redelivery adds nothing). */
  messageId: string;
  /** The session of the conversation (`ChannelStore.sessionOf`). */
  sessionId: string;
  conversation: ChannelConversation;
  /** What the user wrote (personal data: exported and deleted with the session). */
  text: string;
  /** The option the user chose with a button, or `null`. */
  selectedOption: string | null;
  /** The user's files, already in the file store under the session. */
  attachments: FileMetadata[];
}

/** An inbox entry with its processing state. */
export interface ChannelInboxEntry extends ChannelInboxInput {
  /** `pending` until its turn ran (then it leaves the inbox); `failed` when it was given up. */
  status: 'pending' | 'failed';
  /** How many times it was taken (leased). */
  attempts: number;
  /** ISO timestamp: when it may be taken next (past a lease or a retry's delay); for `failed`, when it was given up. */
  nextAttemptAt: string;
  /** Why the last attempt failed (no message text), or `null`. */
  lastError: string | null;
  /** ISO timestamp of its arrival. */
  receivedAt: string;
}

/**
 * The durable inbox of the messaging channels (docs/channels.md): each verified incoming message is
 * added before the platform is answered, and a worker in every server process leases entries, runs
 * their turns and removes them. Like the outbox it keeps each conversation's order: `lease` gives at
 * most the oldest pending entry of a conversation (channel and conversation id), and none while that
 * one is leased or waits for its retry. In memory (`InMemoryChannelInbox`), SQLite and PostgreSQL;
 * all pass `describeChannelInbox` (`@treeagent/core/conformance`).
 */
export interface ChannelInbox {
  /** Adds a message to run now; `false` (nothing changed) when its channel and message id are there already. */
  add(entry: ChannelInboxInput, now: Date): Promise<boolean>;
  /**
   * Leases at most `limit` due entries for `leaseMs`, at most one per conversation (its oldest pending
   * entry, none while that one is leased), oldest first; the attempt count grows by one. An entry
   * leased by a process that died is due again when its lease ends.
   */
  lease(now: Date, limit: number, leaseMs: number): Promise<ChannelInboxEntry[]>;
  /**
   * Extends the lease of an entry whose turn is still running to `until` (the worker renews it while
   * it runs, so a short lease finds a dead process's entries soon without taking a live one's); `false`
   * when the entry is no longer pending.
   */
  renew(channel: string, messageId: string, until: Date): Promise<boolean>;
  /** Its turn ran (or had run): the entry leaves the inbox. Nothing happens when it is not there. */
  done(channel: string, messageId: string): Promise<void>;
  /** An attempt failed: taken again at `retryAt`, or given up (`failed`, kept with `error`) when `retryAt` is `null`. */
  failed(channel: string, messageId: string, error: string, retryAt: Date | null, now: Date): Promise<void>;
  /** Puts a given-up entry back in line (attempts from zero); `false` when there is no failed entry with this key. */
  retry(channel: string, messageId: string, now: Date): Promise<boolean>;
  /** Entries given up, most recent first (at most `limit`, default 100): what staff sees. */
  failures(limit?: number): Promise<ChannelInboxEntry[]>;
  /** Pending and failed entries per channel (the metrics and the admin's list). */
  counts(): Promise<{ channel: string; pending: number; failed: number }[]>;
  /** The entries of `sessionIds`, oldest first (one user's data on request). */
  sessionEntries(sessionIds: readonly string[]): Promise<ChannelInboxEntry[]>;
  /** Deletes the entries of `sessionIds`; returns how many went. */
  deleteSessions(sessionIds: readonly string[]): Promise<number>;
}
