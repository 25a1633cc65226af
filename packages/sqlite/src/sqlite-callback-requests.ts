import {
  CALLBACK_REQUEST_COLUMNS,
  type CallbackRequest,
  type CallbackRequestRow,
  type CallbackRequests,
  callbackRequestOfRow,
  callbackRequestValues,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** Users' callback requests left out of hours (the server's `CallbackRequests`). */
export const CALLBACK_SCHEMA: SchemaMigrations = {
  component: 'callbacks',
  migrations: [
    `CREATE TABLE callback_request (
       id TEXT PRIMARY KEY NOT NULL,
       session_id TEXT NOT NULL,
       team TEXT NOT NULL,
       contact_kind TEXT NOT NULL,
       contact TEXT NOT NULL,
       day TEXT NOT NULL,
       from_time TEXT NOT NULL,
       to_time TEXT NOT NULL,
       status TEXT NOT NULL,
       created_at TEXT NOT NULL,
       done_at TEXT,
       done_by TEXT
     ) WITHOUT ROWID;
     CREATE UNIQUE INDEX callback_request_open ON callback_request (session_id) WHERE status = 'open';
     CREATE INDEX callback_request_session ON callback_request (session_id);`,
  ],
};

const COLUMNS = CALLBACK_REQUEST_COLUMNS.join(', ');

/**
 * Callback requests (`CallbackRequests` of `@treeagent/core/adapter`) in the SQLite file, seen by
 * every process on it; at most one open per session (a partial unique index). `openSqlite` opens it
 * with the other stores.
 */
export class SqliteCallbackRequests implements CallbackRequests {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #insert: Database.Statement;
  readonly #all: Database.Statement;
  readonly #get: Database.Statement;
  readonly #done: Database.Statement;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, CALLBACK_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(
      database,
      'SESSION_STORE',
      `The SQLite callback requests (${database.file})`,
    );
    const db = database.connection;
    this.#insert = db.prepare(
      `INSERT INTO callback_request (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    );
    this.#all = db.prepare(`SELECT ${COLUMNS} FROM callback_request ORDER BY created_at, id`);
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM callback_request WHERE id = ?`);
    this.#done = db.prepare(
      `UPDATE callback_request SET status = 'done', done_at = ?, done_by = ? WHERE id = ? AND status = 'open'`,
    );
    database.retain();
  }

  async add(request: CallbackRequest): Promise<boolean> {
    return this.#handle.run(`keep the callback request of session "${request.sessionId}"`, () => {
      const { changes } = this.#insert.run(...callbackRequestValues(request));
      if (changes > 0) this.#database.wrote();
      return changes > 0;
    });
  }

  async list(filter: { status?: CallbackRequest['status']; teams?: readonly string[] } = {}) {
    return this.#handle.run('read the callback requests', () =>
      (this.#all.all() as CallbackRequestRow[])
        .map(callbackRequestOfRow)
        .filter(
          (item) =>
            (!filter.status || item.status === filter.status) &&
            (!filter.teams || filter.teams.includes(item.team)),
        ),
    );
  }

  async get(id: string): Promise<CallbackRequest | null> {
    return this.#handle.run(`read the callback request "${id}"`, () => {
      const row = this.#get.get(id) as CallbackRequestRow | undefined;
      return row ? callbackRequestOfRow(row) : null;
    });
  }

  async done(id: string, operatorId: string, at: Date): Promise<boolean> {
    return this.#handle.run(`mark the callback request "${id}" done`, () => {
      const { changes } = this.#done.run(at.toISOString(), operatorId, id);
      if (changes > 0) this.#database.wrote();
      return changes > 0;
    });
  }

  async sessionRequests(sessionIds: readonly string[]): Promise<CallbackRequest[]> {
    if (sessionIds.length === 0) return [];
    return this.#handle.run('read the callback requests of sessions', () =>
      (
        this.#database.connection
          .prepare(
            `SELECT ${COLUMNS} FROM callback_request WHERE session_id IN (${sessionIds.map(() => '?').join(', ')})
             ORDER BY created_at, id`,
          )
          .all(...sessionIds) as CallbackRequestRow[]
      ).map(callbackRequestOfRow),
    );
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    return this.#handle.run('delete the callback requests of sessions', () => {
      const { changes } = this.#database.connection
        .prepare(`DELETE FROM callback_request WHERE session_id IN (${sessionIds.map(() => '?').join(', ')})`)
        .run(...sessionIds);
      this.#database.wrote();
      return changes;
    });
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
