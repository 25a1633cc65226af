import {
  SATISFACTION_RATING_COLUMNS,
  type SatisfactionRating,
  type SatisfactionRatingRow,
  type SatisfactionRatings,
  satisfactionRatingOfRow,
  satisfactionRatingValues,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** The users' ratings of conversations with people (the server's `SatisfactionRatings`). */
export const SATISFACTION_SCHEMA: SchemaMigrations = {
  component: 'satisfaction',
  migrations: [
    `CREATE TABLE satisfaction_rating (
       session_id TEXT PRIMARY KEY NOT NULL,
       rating INTEGER NOT NULL,
       comment TEXT,
       operator_id TEXT,
       team TEXT NOT NULL,
       tree_version TEXT NOT NULL,
       at TEXT NOT NULL
     ) WITHOUT ROWID;
     CREATE INDEX satisfaction_rating_at ON satisfaction_rating (at);`,
  ],
};

/**
 * The users' ratings (`SatisfactionRatings` of `@treeagent/core/adapter`) in the SQLite file, one per
 * session, seen by every process on it. `openSqlite` opens it with the other stores.
 */
export class SqliteSatisfactionRatings implements SatisfactionRatings {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #insert: Database.Statement;
  readonly #list: Database.Statement;
  readonly #forget: Database.Statement;
  readonly #comment: Database.Statement;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, SATISFACTION_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(
      database,
      'SESSION_STORE',
      `The SQLite satisfaction ratings (${database.file})`,
    );
    const db = database.connection;
    this.#insert = db.prepare(
      `INSERT INTO satisfaction_rating (${SATISFACTION_RATING_COLUMNS.join(', ')})
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO NOTHING`,
    );
    this.#list = db.prepare(
      `SELECT ${SATISFACTION_RATING_COLUMNS.join(', ')} FROM satisfaction_rating
       WHERE at >= ? ORDER BY at, session_id`,
    );
    this.#forget = db.prepare('DELETE FROM satisfaction_rating WHERE session_id = ?');
    this.#comment = db.prepare(
      'UPDATE satisfaction_rating SET comment = ? WHERE session_id = ? AND comment IS NULL',
    );
    database.retain();
  }

  async add(rating: SatisfactionRating): Promise<boolean> {
    return this.#handle.run(`keep the rating of session "${rating.sessionId}"`, () => {
      const { changes } = this.#insert.run(...satisfactionRatingValues(rating));
      if (changes > 0) this.#database.wrote();
      return changes > 0;
    });
  }

  async list(since?: Date): Promise<SatisfactionRating[]> {
    return this.#handle.run('read the satisfaction ratings', () =>
      (this.#list.all(since ? since.toISOString() : '') as SatisfactionRatingRow[]).map(
        satisfactionRatingOfRow,
      ),
    );
  }

  async forget(sessionId: string): Promise<boolean> {
    return this.#handle.run(`forget the rating of session "${sessionId}"`, () => {
      const { changes } = this.#forget.run(sessionId);
      this.#database.wrote();
      return changes > 0;
    });
  }

  async comment(sessionId: string, comment: string): Promise<boolean> {
    return this.#handle.run(`add the comment to the rating of session "${sessionId}"`, () => {
      const { changes } = this.#comment.run(comment, sessionId);
      if (changes > 0) this.#database.wrote();
      return changes > 0;
    });
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
