import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** A session's token hash and timestamps (`SessionTokenInfo` of `@treeagent/server`). */
export interface SessionTokenInfo {
  tokenHash: string;
  createdAt: Date;
  lastUsedAt: Date;
  userId: string | null;
}

/** The hash of each session's token (the server's `SessionTokens`). */
export const SESSION_TOKEN_SCHEMA: SchemaMigrations = {
  component: 'session_tokens',
  migrations: [
    `CREATE TABLE session_tokens (
       session_id TEXT PRIMARY KEY NOT NULL,
       token_hash TEXT NOT NULL,
       created_at TEXT NOT NULL
     ) WITHOUT ROWID;`,
    // Expiry: idle time counts from the last use.
    `ALTER TABLE session_tokens ADD COLUMN last_used_at TEXT;
     UPDATE session_tokens SET last_used_at = created_at;
     CREATE INDEX session_tokens_by_last_use ON session_tokens (last_used_at);
     CREATE INDEX session_tokens_by_creation ON session_tokens (created_at);`,
    // The user a session was created for (personal data requests, docs/privacy.md).
    `ALTER TABLE session_tokens ADD COLUMN user_id TEXT;
     CREATE INDEX session_tokens_by_user ON session_tokens (user_id, created_at) WHERE user_id IS NOT NULL;`,
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
  readonly #info: Database.Statement;
  readonly #touch: Database.Statement;
  readonly #claim: (idleBefore: string, createdBefore: string, limit: number) => string[];
  readonly #userSessions: Database.Statement;
  readonly #deleteUser: (userId: string) => string[];

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, SESSION_TOKEN_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite session tokens (${database.file})`);
    const db = database.connection;
    this.#insert = db.prepare(
      `INSERT INTO session_tokens (session_id, token_hash, created_at, last_used_at, user_id) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at,
         last_used_at = excluded.last_used_at, user_id = excluded.user_id`,
    );
    this.#info = db.prepare(
      'SELECT token_hash, created_at, last_used_at, user_id FROM session_tokens WHERE session_id = ?',
    );
    this.#touch = db.prepare(
      'UPDATE session_tokens SET last_used_at = ? WHERE session_id = ? AND last_used_at < ?',
    );
    const expired = db.prepare(
      'SELECT session_id FROM session_tokens WHERE last_used_at < ? OR created_at < ? LIMIT ?',
    );
    const remove = db.prepare('DELETE FROM session_tokens WHERE session_id = ?');
    // BEGIN IMMEDIATE: processes on the same file claim one after the other, never the same session.
    const claim = db.transaction((idleBefore: string, createdBefore: string, limit: number) => {
      const ids = (expired.all(idleBefore, createdBefore, limit) as { session_id: string }[]).map(
        (row) => row.session_id,
      );
      for (const id of ids) remove.run(id);
      return ids;
    });
    this.#claim = (idleBefore, createdBefore, limit) => claim.immediate(idleBefore, createdBefore, limit);
    this.#userSessions = db.prepare(
      'SELECT session_id FROM session_tokens WHERE user_id = ? ORDER BY created_at, session_id',
    );
    const removeUser = db.transaction((userId: string) => {
      const ids = (this.#userSessions.all(userId) as { session_id: string }[]).map((row) => row.session_id);
      for (const id of ids) remove.run(id);
      return ids;
    });
    this.#deleteUser = (userId) => removeUser.immediate(userId);
    this.#select = db.prepare('SELECT token_hash FROM session_tokens WHERE session_id = ?');
    this.#delete = db.prepare('DELETE FROM session_tokens WHERE session_id = ?');
    database.retain();
  }

  /** Records a session and the SHA-256 (hex) of its token. */
  async save(sessionId: string, tokenHash: string, userId: string | null = null): Promise<void> {
    this.#run(`save the token of session "${sessionId}"`, () => {
      const now = new Date().toISOString();
      this.#insert.run(sessionId, tokenHash, now, now, userId);
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

  /** The token hash and timestamps of a session, or `null`. */
  async info(sessionId: string): Promise<SessionTokenInfo | null> {
    return this.#run(`read the token of session "${sessionId}"`, () => {
      const row = this.#info.get(sessionId) as
        | { token_hash: string; created_at: string; last_used_at: string; user_id: string | null }
        | undefined;
      return row
        ? {
            tokenHash: row.token_hash,
            createdAt: new Date(row.created_at),
            lastUsedAt: new Date(row.last_used_at),
            userId: row.user_id,
          }
        : null;
    });
  }

  /** Records a use of the session at `at`. */
  async touch(sessionId: string, at: Date): Promise<void> {
    this.#run(`record a use of session "${sessionId}"`, () => {
      const iso = at.toISOString();
      if (this.#touch.run(iso, sessionId, iso).changes) this.#database.wrote();
    });
  }

  /** Removes and returns up to `limit` expired sessions, in one `BEGIN IMMEDIATE` transaction. */
  async claimExpired(cutoff: { idleBefore: Date; createdBefore: Date }, limit: number): Promise<string[]> {
    return this.#run('claim expired sessions', () => {
      const ids = this.#claim(cutoff.idleBefore.toISOString(), cutoff.createdBefore.toISOString(), limit);
      if (ids.length) this.#database.wrote();
      return ids;
    });
  }

  /** The sessions saved for `userId`, oldest first (the `session_tokens_by_user` index). */
  async userSessions(userId: string): Promise<string[]> {
    return this.#run('find the sessions of a user', () =>
      (this.#userSessions.all(userId) as { session_id: string }[]).map((row) => row.session_id),
    );
  }

  /** Forgets every session of `userId` in one `BEGIN IMMEDIATE` transaction; returns their ids. */
  async deleteUser(userId: string): Promise<string[]> {
    return this.#run('delete the sessions of a user', () => {
      const ids = this.#deleteUser(userId);
      if (ids.length) this.#database.wrote();
      return ids;
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

  #run<T>(what: string, body: () => T): T {
    return this.#handle.run(what, body);
  }
}
