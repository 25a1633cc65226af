import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** The hash of each session's token (the server's `SessionTokens`). */
export const SESSION_TOKEN_SCHEMA: SchemaMigrations = {
  component: 'session_tokens',
  migrations: [
    `CREATE TABLE session_tokens (
       session_id TEXT PRIMARY KEY NOT NULL,
       token_hash TEXT NOT NULL,
       created_at TEXT NOT NULL
     ) WITHOUT ROWID;`,
  ],
};

/**
 * The server's session tokens (`SessionTokens` of `@treeagent/server`: the SHA-256 of each session's
 * token, never the token) in the SQLite file, so a restarted server — or another process on the same
 * file — still recognises the sessions it handed out. `openSqlite` opens it with the other stores.
 *
 * @example
 * const data = openSqlite('.data');
 * await serve({ agent, sessionTokens: data.sessionTokens });
 */
export class SqliteSessionTokens {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #insert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #delete: Database.Statement;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, SESSION_TOKEN_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite session tokens (${database.file})`);
    const db = database.connection;
    this.#insert = db.prepare(
      `INSERT INTO session_tokens (session_id, token_hash, created_at) VALUES (?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`,
    );
    this.#select = db.prepare('SELECT token_hash FROM session_tokens WHERE session_id = ?');
    this.#delete = db.prepare('DELETE FROM session_tokens WHERE session_id = ?');
    database.retain();
  }

  /** Records a session and the SHA-256 (hex) of its token. */
  async save(sessionId: string, tokenHash: string): Promise<void> {
    this.#run(`save the token of session "${sessionId}"`, () => {
      this.#insert.run(sessionId, tokenHash, new Date().toISOString());
      this.#database.wrote();
    });
  }

  /** The token hash of a session, or `null` when no server on this file created it. */
  async find(sessionId: string): Promise<string | null> {
    return this.#run(`read the token of session "${sessionId}"`, () => {
      const row = this.#select.get(sessionId) as { token_hash: string } | undefined;
      return row?.token_hash ?? null;
    });
  }

  async delete(sessionId: string): Promise<void> {
    this.#run(`delete the token of session "${sessionId}"`, () => {
      this.#delete.run(sessionId);
      this.#database.wrote();
    });
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }

  #run<T>(what: string, body: () => T): T {
    return this.#handle.run(what, body);
  }
}
