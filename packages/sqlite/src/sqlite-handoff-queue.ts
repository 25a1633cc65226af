import {
  type HandoffNote,
  type HandoffQueue,
  type OpenQueueTally,
  type QueueEntry,
  type QueueQuery,
  queueLimit,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** The queue of handed-off sessions (the server's `HandoffQueue`). */
export const HANDOFF_QUEUE_SCHEMA: SchemaMigrations = {
  component: 'handoff_queue',
  migrations: [
    `CREATE TABLE handoff_queue (
       session_id TEXT PRIMARY KEY NOT NULL,
       status TEXT NOT NULL,
       queue TEXT NOT NULL,
       since TEXT NOT NULL,
       closed_at TEXT,
       entry TEXT NOT NULL
     ) WITHOUT ROWID;
     CREATE INDEX handoff_queue_open ON handoff_queue (status, since);
     CREATE INDEX handoff_queue_closed ON handoff_queue (closed_at);`,
  ],
};

/**
 * The queue of handed-off sessions (`HandoffQueue` of `@treeagent/core/adapter`) in the SQLite file, so
 * the operator console finds the waiting sessions after a restart. `openSqlite` opens it with the
 * other stores.
 */
export class SqliteHandoffQueue implements HandoffQueue {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #select: Database.Statement;
  readonly #tally: Database.Statement;
  readonly #put: (entry: QueueEntry) => void;
  readonly #addNote: (sessionId: string, note: HandoffNote) => void;
  readonly #delete: Database.Statement;
  readonly #connection: Database.Database;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, HANDOFF_QUEUE_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite handoff queue (${database.file})`);
    const db = database.connection;
    this.#connection = db;
    this.#select = db.prepare('SELECT entry FROM handoff_queue WHERE session_id = ?');
    this.#tally = db.prepare(
      `SELECT queue, status, COUNT(*) AS count, MIN(since) AS oldest FROM handoff_queue
       WHERE status IN ('waiting', 'claimed') GROUP BY queue, status ORDER BY queue, status`,
    );
    const upsert = db.prepare(
      `INSERT INTO handoff_queue (session_id, status, queue, since, closed_at, entry) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET status = excluded.status, queue = excluded.queue,
         since = excluded.since, closed_at = excluded.closed_at, entry = excluded.entry`,
    );
    const write = (entry: QueueEntry) =>
      upsert.run(
        entry.sessionId,
        entry.status,
        entry.queue,
        entry.since,
        entry.closedAt,
        JSON.stringify(entry),
      );
    const read = (sessionId: string) => {
      const row = this.#select.get(sessionId) as { entry: string } | undefined;
      return row ? (JSON.parse(row.entry) as QueueEntry) : null;
    };
    // BEGIN IMMEDIATE: notes written by two processes at once are both kept.
    const put = db.transaction((entry: QueueEntry) => {
      const notes = entry.notes.length ? entry.notes : (read(entry.sessionId)?.notes ?? []);
      write({ ...entry, notes });
    });
    this.#put = (entry) => put.immediate(entry);
    const addNote = db.transaction((sessionId: string, note: HandoffNote) => {
      const entry = read(sessionId);
      if (entry) write({ ...entry, notes: [...entry.notes, note] });
    });
    this.#addNote = (sessionId, note) => addNote.immediate(sessionId, note);
    this.#delete = db.prepare('DELETE FROM handoff_queue WHERE session_id = ?');
    database.retain();
  }

  async put(entry: QueueEntry): Promise<void> {
    this.#handle.run(`save the queue entry of session "${entry.sessionId}"`, () => {
      this.#put(entry);
      this.#database.wrote();
    });
  }

  async get(sessionId: string): Promise<QueueEntry | null> {
    return this.#handle.run(`read the queue entry of session "${sessionId}"`, () => {
      const row = this.#select.get(sessionId) as { entry: string } | undefined;
      return row ? (JSON.parse(row.entry) as QueueEntry) : null;
    });
  }

  async list(query: QueueQuery = {}): Promise<QueueEntry[]> {
    return this.#handle.run('read the handoff queue', () => {
      const status = query.status ?? 'open';
      const limit = queueLimit(query);
      const byQueue = query.queue === undefined ? '' : 'AND queue = ?';
      const byStatus = status === 'open' ? `status IN ('waiting', 'claimed')` : 'status = ?';
      const order = status === 'closed' ? 'closed_at DESC' : 'since, session_id';
      const sql = `SELECT entry FROM handoff_queue WHERE ${byStatus} ${byQueue} ORDER BY ${order} LIMIT ?`;
      const values = [
        ...(status === 'open' ? [] : [status]),
        ...(query.queue === undefined ? [] : [query.queue]),
        limit,
      ];
      return (this.#connection.prepare(sql).all(...values) as { entry: string }[]).map(
        (row) => JSON.parse(row.entry) as QueueEntry,
      );
    });
  }

  async tallyOpen(): Promise<OpenQueueTally[]> {
    return this.#handle.run('count the handoff queue', () =>
      (
        this.#tally.all() as {
          queue: string;
          status: OpenQueueTally['status'];
          count: number;
          oldest: string;
        }[]
      ).map(({ queue, status, count, oldest }) => ({ queue, status, count, oldestSince: oldest })),
    );
  }

  async addNote(sessionId: string, note: HandoffNote): Promise<void> {
    this.#handle.run(`add a note to session "${sessionId}"`, () => {
      this.#addNote(sessionId, note);
      this.#database.wrote();
    });
  }

  async delete(sessionId: string): Promise<void> {
    this.#handle.run(`delete the queue entry of session "${sessionId}"`, () => {
      if (this.#delete.run(sessionId).changes) this.#database.wrote();
    });
  }

  /** Empties the WAL after a deletion, so no earlier image of deleted rows stays in it (docs/privacy.md). */
  async purgeDeleted(): Promise<void> {
    this.#handle.purgeDeleted();
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
