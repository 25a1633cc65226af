import {
  type ChannelInbox,
  type ChannelInboxEntry,
  type ChannelInboxInput,
  type ChannelInboxRow,
  channelDeadLetterLimit,
  channelInboxEntryOfRow,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** The messaging channels' inbox: incoming messages kept from the webhook's answer to their turn. */
export const CHANNEL_INBOX_SCHEMA: SchemaMigrations = {
  component: 'channel_inbox',
  migrations: [
    `CREATE TABLE channel_inbox (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       channel TEXT NOT NULL,
       message_id TEXT NOT NULL,
       conversation_id TEXT NOT NULL,
       session_id TEXT NOT NULL,
       conversation TEXT NOT NULL,
       text TEXT NOT NULL,
       selected_option TEXT,
       attachments TEXT NOT NULL,
       status TEXT NOT NULL,
       attempts INTEGER NOT NULL,
       next_attempt_at TEXT NOT NULL,
       last_error TEXT,
       received_at TEXT NOT NULL,
       UNIQUE (channel, message_id)
     );
     CREATE INDEX channel_inbox_by_conversation ON channel_inbox (channel, conversation_id, status, seq);
     CREATE INDEX channel_inbox_by_session ON channel_inbox (session_id);`,
  ],
};

type Row = ChannelInboxRow;

const COLUMNS =
  'channel, message_id, session_id, conversation, text, selected_option, attachments, status, attempts, next_attempt_at, last_error, received_at';

/**
 * The messaging channels' inbox (`ChannelInbox` of `@treeagent/core/adapter`) in the SQLite file,
 * shared by every process on it. A lease is one `BEGIN IMMEDIATE` transaction, so two processes never
 * take the same entry; it takes only the oldest pending entry of each conversation, so a
 * conversation's messages run in order.
 */
export class SqliteChannelInbox implements ChannelInbox {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #add: Database.Statement;
  readonly #lease: (now: string, limit: number, until: string) => Row[];
  readonly #done: Database.Statement;
  readonly #renew: Database.Statement;
  readonly #failed: Database.Statement;
  readonly #failures: Database.Statement;
  readonly #retry: Database.Statement;
  readonly #counts: Database.Statement;
  readonly #sessionEntries: Database.Statement;
  readonly #deleteSessions: Database.Statement;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, CHANNEL_INBOX_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite channel inbox (${database.file})`);
    const db = database.connection;
    this.#add = db.prepare(
      `INSERT INTO channel_inbox
         (channel, message_id, conversation_id, session_id, conversation, text, selected_option, attachments,
          status, attempts, next_attempt_at, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (channel, message_id) DO NOTHING`,
    );
    // The head of each conversation (its oldest pending entry), when it is due.
    const due = db.prepare(
      `SELECT i.seq FROM channel_inbox i
         JOIN (SELECT min(seq) AS seq FROM channel_inbox WHERE status = 'pending'
                GROUP BY channel, conversation_id) head ON head.seq = i.seq
        WHERE i.next_attempt_at <= ? ORDER BY i.seq LIMIT ?`,
    );
    const take = db.prepare(
      `UPDATE channel_inbox SET attempts = attempts + 1, next_attempt_at = ? WHERE seq = ? RETURNING ${COLUMNS}`,
    );
    const lease = db.transaction((now: string, limit: number, until: string) =>
      (due.all(now, limit) as { seq: number }[]).map((row) => take.get(until, row.seq) as Row),
    );
    this.#lease = (now, limit, until) => lease.immediate(now, limit, until);
    this.#done = db.prepare('DELETE FROM channel_inbox WHERE channel = ? AND message_id = ?');
    this.#renew = db.prepare(
      `UPDATE channel_inbox SET next_attempt_at = ? WHERE channel = ? AND message_id = ? AND status = 'pending'`,
    );
    this.#failed = db.prepare(
      `UPDATE channel_inbox SET last_error = ?,
         status = CASE WHEN ? IS NULL THEN 'failed' ELSE status END, next_attempt_at = coalesce(?, ?)
       WHERE channel = ? AND message_id = ?`,
    );
    this.#failures = db.prepare(
      `SELECT ${COLUMNS} FROM channel_inbox WHERE status = 'failed' ORDER BY next_attempt_at DESC, seq DESC LIMIT ?`,
    );
    this.#retry = db.prepare(
      `UPDATE channel_inbox SET status = 'pending', attempts = 0, next_attempt_at = ?
        WHERE channel = ? AND message_id = ? AND status = 'failed'`,
    );
    this.#counts = db.prepare(
      `SELECT channel, sum(status = 'pending') AS pending, sum(status = 'failed') AS failed
         FROM channel_inbox GROUP BY channel ORDER BY channel`,
    );
    const inSessions = 'session_id IN (SELECT value FROM json_each(?))';
    this.#sessionEntries = db.prepare(
      `SELECT ${COLUMNS} FROM channel_inbox WHERE ${inSessions} ORDER BY seq`,
    );
    this.#deleteSessions = db.prepare(`DELETE FROM channel_inbox WHERE ${inSessions}`);
    database.retain();
  }

  async add(entry: ChannelInboxInput, now: Date): Promise<boolean> {
    return this.#handle.run(
      `add update ${entry.messageId} of channel "${entry.channel}" to the inbox`,
      () => {
        const at = now.toISOString();
        const added =
          this.#add.run(
            entry.channel,
            entry.messageId,
            entry.conversation.conversationId,
            entry.sessionId,
            JSON.stringify(entry.conversation),
            entry.text,
            entry.selectedOption,
            JSON.stringify(entry.attachments),
            at,
            at,
          ).changes === 1;
        if (added) this.#database.wrote();
        return added;
      },
    );
  }

  async lease(now: Date, limit: number, leaseMs: number): Promise<ChannelInboxEntry[]> {
    if (limit < 1) return [];
    return this.#handle.run('lease entries of the channel inbox', () => {
      const until = new Date(now.getTime() + leaseMs).toISOString();
      const rows = this.#lease(now.toISOString(), Math.trunc(limit), until);
      if (rows.length) this.#database.wrote();
      return rows.map(channelInboxEntryOfRow);
    });
  }

  async renew(channel: string, messageId: string, until: Date): Promise<boolean> {
    return this.#handle.run(`renew the lease of update ${messageId} of channel "${channel}"`, () => {
      const renewed = this.#renew.run(until.toISOString(), channel, messageId).changes === 1;
      if (renewed) this.#database.wrote();
      return renewed;
    });
  }

  /** Removes an entry in the caller's transaction (a session store's commit of the entry's turn). */
  doneInTransaction(channel: string, messageId: string): void {
    this.#done.run(channel, messageId);
  }

  async done(channel: string, messageId: string): Promise<void> {
    this.#handle.run(`remove update ${messageId} of channel "${channel}" from the inbox`, () => {
      if (this.#done.run(channel, messageId).changes) this.#database.wrote();
    });
  }

  async failed(
    channel: string,
    messageId: string,
    error: string,
    retryAt: Date | null,
    now: Date,
  ): Promise<void> {
    this.#handle.run(`record a failed turn of update ${messageId} of channel "${channel}"`, () => {
      const retry = retryAt?.toISOString() ?? null;
      if (this.#failed.run(error, retry, retry, now.toISOString(), channel, messageId).changes)
        this.#database.wrote();
    });
  }

  async retry(channel: string, messageId: string, now: Date): Promise<boolean> {
    return this.#handle.run(`put update ${messageId} of channel "${channel}" back in line`, () => {
      const changed = this.#retry.run(now.toISOString(), channel, messageId).changes === 1;
      if (changed) this.#database.wrote();
      return changed;
    });
  }

  async failures(limit?: number): Promise<ChannelInboxEntry[]> {
    return this.#handle.run('read the failed entries of the channel inbox', () =>
      (this.#failures.all(channelDeadLetterLimit(limit)) as Row[]).map(channelInboxEntryOfRow),
    );
  }

  async counts(): Promise<{ channel: string; pending: number; failed: number }[]> {
    return this.#handle.run('count the channel inbox', () =>
      (this.#counts.all() as { channel: string; pending: number; failed: number }[]).map((row) => ({
        channel: row.channel,
        pending: Number(row.pending),
        failed: Number(row.failed),
      })),
    );
  }

  async sessionEntries(sessionIds: readonly string[]): Promise<ChannelInboxEntry[]> {
    if (sessionIds.length === 0) return [];
    return this.#handle.run(`read the channel inbox of ${sessionIds.length} sessions`, () =>
      (this.#sessionEntries.all(JSON.stringify(sessionIds)) as Row[]).map(channelInboxEntryOfRow),
    );
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    return this.#handle.run(`delete the channel inbox of ${sessionIds.length} sessions`, () => {
      const deleted = this.#deleteSessions.run(JSON.stringify(sessionIds)).changes;
      if (deleted) this.#database.wrote();
      return deleted;
    });
  }

  /** Empties the WAL after a deletion (`SqliteDatabase.purgeDeleted`). */
  async purgeDeleted(): Promise<void> {
    this.#handle.purgeDeleted();
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
