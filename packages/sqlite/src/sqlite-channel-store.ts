import {
  type ChannelConversation,
  type ChannelDelivery,
  type ChannelDeliveryInput,
  type ChannelIdentity,
  type ChannelStore,
  channelDeadLetterLimit,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { SqliteChannelInbox } from './sqlite-channel-inbox.js';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** The messaging channels' identities (conversation → session) and outbox. */
export const CHANNEL_SCHEMA: SchemaMigrations = {
  component: 'channels',
  migrations: [
    `CREATE TABLE channel_identities (
       channel TEXT NOT NULL,
       conversation_id TEXT NOT NULL,
       session_id TEXT NOT NULL UNIQUE,
       conversation TEXT NOT NULL,
       created_at TEXT NOT NULL,
       PRIMARY KEY (channel, conversation_id)
     ) WITHOUT ROWID;
     CREATE TABLE channel_outbox (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       id TEXT NOT NULL UNIQUE,
       channel TEXT NOT NULL,
       conversation_id TEXT NOT NULL,
       session_id TEXT NOT NULL,
       conversation TEXT NOT NULL,
       payload TEXT NOT NULL,
       status TEXT NOT NULL,
       attempts INTEGER NOT NULL,
       next_attempt_at TEXT NOT NULL,
       last_error TEXT
     );
     CREATE INDEX channel_outbox_by_conversation ON channel_outbox (channel, conversation_id, status, seq);
     CREATE INDEX channel_outbox_by_session ON channel_outbox (session_id);`,
  ],
};

interface Row {
  id: string;
  session_id: string;
  conversation: string;
  payload: string;
  status: 'pending' | 'dead';
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
}

const COLUMNS = 'id, session_id, conversation, payload, status, attempts, next_attempt_at, last_error';

const delivery = (row: Row): ChannelDelivery => ({
  id: row.id,
  sessionId: row.session_id,
  conversation: JSON.parse(row.conversation) as ChannelConversation,
  payload: JSON.parse(row.payload) as ChannelDelivery['payload'],
  attempts: row.attempts,
  status: row.status,
  nextAttemptAt: row.next_attempt_at,
  lastError: row.last_error,
});

/**
 * The messaging channels' store (`ChannelStore` of `@treeagent/core/adapter`) in the SQLite file:
 * the conversation → session mapping and the outbox, shared by every process on the file. A lease is
 * one `BEGIN IMMEDIATE` transaction, so two processes never lease the same message; it takes only the
 * oldest pending message of each conversation, so a conversation's messages go out in order.
 */
export class SqliteChannelStore implements ChannelStore {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #sessionOf: (conversation: ChannelConversation, newSessionId: string, now: string) => string;
  readonly #conversationOf: Database.Statement;
  readonly #enqueue: (deliveries: readonly ChannelDeliveryInput[], now: string) => void;
  readonly #insertInTransaction: (deliveries: readonly ChannelDeliveryInput[], now: string) => void;
  readonly #lease: (now: string, limit: number, until: string) => Row[];
  readonly #delete: Database.Statement;
  readonly #failed: Database.Statement;
  readonly #counts: Database.Statement;
  readonly #dead: Database.Statement;
  readonly #retry: Database.Statement;
  readonly #identities: Database.Statement;
  readonly #sessionsOfUser: Database.Statement;
  readonly #deliveries: Database.Statement;
  readonly #deleteSessions: (sessionIds: readonly string[]) => number;
  #inbox: SqliteChannelInbox | null = null;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, CHANNEL_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite channel store (${database.file})`);
    const db = database.connection;
    const findIdentity = db.prepare(
      'SELECT session_id FROM channel_identities WHERE channel = ? AND conversation_id = ?',
    );
    const insertIdentity = db.prepare(
      `INSERT INTO channel_identities (channel, conversation_id, session_id, conversation, created_at)
       VALUES (?, ?, ?, ?, ?)`,
    );
    const updateIdentity = db.prepare(
      'UPDATE channel_identities SET conversation = ? WHERE channel = ? AND conversation_id = ?',
    );
    const sessionOf = db.transaction(
      (conversation: ChannelConversation, newSessionId: string, now: string) => {
        const json = JSON.stringify(conversation);
        const known = findIdentity.get(conversation.channel, conversation.conversationId) as
          | { session_id: string }
          | undefined;
        if (known) {
          updateIdentity.run(json, conversation.channel, conversation.conversationId);
          return known.session_id;
        }
        insertIdentity.run(conversation.channel, conversation.conversationId, newSessionId, json, now);
        return newSessionId;
      },
    );
    this.#sessionOf = (conversation, newSessionId, now) =>
      sessionOf.immediate(conversation, newSessionId, now);
    this.#conversationOf = db.prepare('SELECT conversation FROM channel_identities WHERE session_id = ?');
    const insert = db.prepare(
      `INSERT INTO channel_outbox
         (id, channel, conversation_id, session_id, conversation, payload, status, attempts, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?) ON CONFLICT (id) DO NOTHING`,
    );
    const enqueue = db.transaction((deliveries: readonly ChannelDeliveryInput[], now: string) => {
      for (const item of deliveries) {
        insert.run(
          item.id,
          item.conversation.channel,
          item.conversation.conversationId,
          item.sessionId,
          JSON.stringify(item.conversation),
          JSON.stringify(item.payload),
          now,
        );
      }
    });
    this.#enqueue = (deliveries, now) => enqueue.immediate(deliveries, now);
    this.#insertInTransaction = (deliveries, now) => enqueue(deliveries, now);
    // The head of each conversation (its oldest pending message), when it is due.
    const due = db.prepare(
      `SELECT o.seq FROM channel_outbox o
         JOIN (SELECT min(seq) AS seq FROM channel_outbox WHERE status = 'pending'
                GROUP BY channel, conversation_id) head ON head.seq = o.seq
        WHERE o.next_attempt_at <= ? ORDER BY o.seq LIMIT ?`,
    );
    const take = db.prepare(
      `UPDATE channel_outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE seq = ? RETURNING ${COLUMNS}`,
    );
    const lease = db.transaction((now: string, limit: number, until: string) =>
      (due.all(now, limit) as { seq: number }[]).map((row) => take.get(until, row.seq) as Row),
    );
    this.#lease = (now, limit, until) => lease.immediate(now, limit, until);
    this.#delete = db.prepare('DELETE FROM channel_outbox WHERE id = ?');
    this.#failed = db.prepare(
      `UPDATE channel_outbox SET last_error = ?,
         status = CASE WHEN ? IS NULL THEN 'dead' ELSE status END, next_attempt_at = coalesce(?, ?)
       WHERE id = ?`,
    );
    this.#counts = db.prepare(
      `SELECT channel, sum(status = 'pending') AS pending, sum(status = 'dead') AS dead
         FROM channel_outbox GROUP BY channel ORDER BY channel`,
    );
    this.#dead = db.prepare(
      `SELECT ${COLUMNS} FROM channel_outbox WHERE status = 'dead' ORDER BY next_attempt_at DESC, seq DESC LIMIT ?`,
    );
    this.#retry = db.prepare(
      `UPDATE channel_outbox SET status = 'pending', attempts = 0, next_attempt_at = ? WHERE id = ? AND status = 'dead'`,
    );
    const inSessions = 'session_id IN (SELECT value FROM json_each(?))';
    this.#sessionsOfUser = db.prepare(
      `SELECT session_id FROM channel_identities
        WHERE channel = ? AND json_extract(conversation, '$.userId') = ? ORDER BY created_at, session_id`,
    );
    this.#identities = db.prepare(
      `SELECT session_id, conversation, created_at FROM channel_identities WHERE ${inSessions} ORDER BY created_at, session_id`,
    );
    this.#deliveries = db.prepare(`SELECT ${COLUMNS} FROM channel_outbox WHERE ${inSessions} ORDER BY seq`);
    const deleteDeliveries = db.prepare(`DELETE FROM channel_outbox WHERE ${inSessions}`);
    const deleteIdentities = db.prepare(`DELETE FROM channel_identities WHERE ${inSessions}`);
    const deleteSessions = db.transaction(
      (ids: string) => deleteDeliveries.run(ids).changes + deleteIdentities.run(ids).changes,
    );
    this.#deleteSessions = (sessionIds) => deleteSessions.immediate(JSON.stringify(sessionIds));
    database.retain();
  }

  /** The inbox of incoming messages, in the same file (table `channel_inbox`). */
  inbox(): SqliteChannelInbox {
    this.#inbox ??= this.#handle.run('open the channel inbox', () => new SqliteChannelInbox(this.#database));
    return this.#inbox;
  }

  async sessionOf(conversation: ChannelConversation, newSessionId: string, now: Date): Promise<string> {
    return this.#handle.run(`map a conversation of channel "${conversation.channel}" to its session`, () => {
      const sessionId = this.#sessionOf(conversation, newSessionId, now.toISOString());
      this.#database.wrote();
      return sessionId;
    });
  }

  async conversationOf(sessionId: string): Promise<ChannelConversation | null> {
    return this.#handle.run(`read the channel conversation of session "${sessionId}"`, () => {
      const row = this.#conversationOf.get(sessionId) as { conversation: string } | undefined;
      return row ? (JSON.parse(row.conversation) as ChannelConversation) : null;
    });
  }

  /** Adds `deliveries` in the caller's transaction (a session store's commit); ids already there are skipped. */
  insertInTransaction(deliveries: readonly ChannelDeliveryInput[], now: Date): void {
    this.#insertInTransaction(deliveries, now.toISOString());
  }

  async enqueue(deliveries: readonly ChannelDeliveryInput[], now: Date): Promise<void> {
    if (deliveries.length === 0) return;
    this.#handle.run('add messages to the channel outbox', () => {
      this.#enqueue(deliveries, now.toISOString());
      this.#database.wrote();
    });
  }

  async lease(now: Date, limit: number, leaseMs: number): Promise<ChannelDelivery[]> {
    if (limit < 1) return [];
    return this.#handle.run('lease messages of the channel outbox', () => {
      const until = new Date(now.getTime() + leaseMs).toISOString();
      const rows = this.#lease(now.toISOString(), Math.trunc(limit), until);
      if (rows.length) this.#database.wrote();
      return rows.map(delivery);
    });
  }

  async delivered(id: string): Promise<void> {
    this.#handle.run(`remove the sent channel message ${id}`, () => {
      if (this.#delete.run(id).changes) this.#database.wrote();
    });
  }

  async failed(id: string, error: string, retryAt: Date | null, now: Date): Promise<void> {
    this.#handle.run(`record a failed send of channel message ${id}`, () => {
      const retry = retryAt?.toISOString() ?? null;
      if (this.#failed.run(error, retry, retry, now.toISOString(), id).changes) this.#database.wrote();
    });
  }

  async counts(): Promise<{ channel: string; pending: number; dead: number }[]> {
    return this.#handle.run('count the channel outbox', () =>
      (this.#counts.all() as { channel: string; pending: number; dead: number }[]).map((row) => ({
        channel: row.channel,
        pending: Number(row.pending),
        dead: Number(row.dead),
      })),
    );
  }

  async deadLetters(limit?: number): Promise<ChannelDelivery[]> {
    return this.#handle.run('read the dead letters of the channel outbox', () =>
      (this.#dead.all(channelDeadLetterLimit(limit)) as Row[]).map(delivery),
    );
  }

  async retry(id: string, now: Date): Promise<boolean> {
    return this.#handle.run(`put channel message ${id} back in line`, () => {
      const changed = this.#retry.run(now.toISOString(), id).changes === 1;
      if (changed) this.#database.wrote();
      return changed;
    });
  }

  async sessionsOfUser(channel: string, userId: string): Promise<string[]> {
    return this.#handle.run(`find the channel sessions of a user of "${channel}"`, () =>
      (this.#sessionsOfUser.all(channel, userId) as { session_id: string }[]).map((row) => row.session_id),
    );
  }

  async sessionData(
    sessionIds: readonly string[],
  ): Promise<{ identities: ChannelIdentity[]; deliveries: ChannelDelivery[] }> {
    if (sessionIds.length === 0) return { identities: [], deliveries: [] };
    return this.#handle.run(`read the channel data of ${sessionIds.length} sessions`, () => {
      const ids = JSON.stringify(sessionIds);
      const identities = (
        this.#identities.all(ids) as { session_id: string; conversation: string; created_at: string }[]
      ).map((row) => ({
        sessionId: row.session_id,
        conversation: JSON.parse(row.conversation) as ChannelConversation,
        createdAt: row.created_at,
      }));
      return { identities, deliveries: (this.#deliveries.all(ids) as Row[]).map(delivery) };
    });
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    const inbox = await this.inbox().deleteSessions(sessionIds);
    return this.#handle.run(`delete the channel data of ${sessionIds.length} sessions`, () => {
      const deleted = this.#deleteSessions(sessionIds);
      if (deleted) this.#database.wrote();
      return inbox + deleted;
    });
  }

  /** Empties the WAL after a deletion (`SqliteDatabase.purgeDeleted`). */
  async purgeDeleted(): Promise<void> {
    this.#handle.purgeDeleted();
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    await this.#inbox?.close();
    this.#handle.close();
  }
}
