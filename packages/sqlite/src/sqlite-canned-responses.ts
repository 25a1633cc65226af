import {
  type CannedResponse,
  type CannedResponseRow,
  type CannedResponses,
  cannedResponseOfRow,
  duplicateShortcut,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** The help desk's canned responses (the server's `CannedResponses`). */
export const CANNED_RESPONSES_SCHEMA: SchemaMigrations = {
  component: 'canned_responses',
  migrations: [
    `CREATE TABLE canned_response (
       id TEXT PRIMARY KEY NOT NULL,
       shortcut TEXT NOT NULL,
       team TEXT NOT NULL,
       text TEXT NOT NULL,
       updated_at TEXT NOT NULL,
       UNIQUE (shortcut, team)
     ) WITHOUT ROWID;`,
  ],
};

/**
 * Canned responses (`CannedResponses` of `@treeagent/core/adapter`) in the SQLite file, seen by every
 * process on it; a shortcut is unique within its team (`''` stands for every team in the table).
 * `openSqlite` opens it with the other stores.
 */
export class SqliteCannedResponses implements CannedResponses {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #upsert: Database.Statement;
  readonly #list: Database.Statement;
  readonly #remove: Database.Statement;
  /** Writes the response unless another id has its shortcut and team; `false` when taken. */
  readonly #save: (response: CannedResponse) => boolean;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, CANNED_RESPONSES_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(
      database,
      'SESSION_STORE',
      `The SQLite canned responses (${database.file})`,
    );
    const db = database.connection;
    this.#upsert = db.prepare(
      `INSERT INTO canned_response (id, shortcut, team, text, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET shortcut = excluded.shortcut, team = excluded.team,
         text = excluded.text, updated_at = excluded.updated_at`,
    );
    this.#list = db.prepare(
      'SELECT id, shortcut, team, text, updated_at FROM canned_response ORDER BY shortcut, team',
    );
    this.#remove = db.prepare('DELETE FROM canned_response WHERE id = ?');
    const taken = db.prepare('SELECT 1 FROM canned_response WHERE shortcut = ? AND team = ? AND id <> ?');
    this.#save = db.transaction((response: CannedResponse) => {
      const team = response.team ?? '';
      if (taken.get(response.shortcut, team, response.id)) return false;
      this.#upsert.run(response.id, response.shortcut, team, response.text, response.updatedAt.toISOString());
      return true;
    }).immediate;
    database.retain();
  }

  async save(response: CannedResponse): Promise<void> {
    this.#handle.checkOpen(`save the canned response "/${response.shortcut}"`);
    // The check and the write in one transaction, so the duplicate's error is the same as memory's.
    const taken = this.#handle.run(`save the canned response "/${response.shortcut}"`, () => {
      const written = this.#save(response);
      if (written) this.#database.wrote();
      return !written;
    });
    if (taken) throw duplicateShortcut(response);
  }

  async list(): Promise<CannedResponse[]> {
    return this.#handle.run('read the canned responses', () =>
      (this.#list.all() as CannedResponseRow[]).map(cannedResponseOfRow),
    );
  }

  async remove(id: string): Promise<boolean> {
    return this.#handle.run(`remove the canned response "${id}"`, () => {
      const { changes } = this.#remove.run(id);
      this.#database.wrote();
      return changes > 0;
    });
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
