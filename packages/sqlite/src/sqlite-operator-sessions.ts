import type {
  ExternalOperatorIdentity,
  OperatorSessionRecord,
  OperatorSessions,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** Operator logins by the hash of their token (the server's `OperatorSessions`). */
export const OPERATOR_SESSION_SCHEMA: SchemaMigrations = {
  component: 'operator_sessions',
  migrations: [
    `CREATE TABLE operator_sessions (
       token_hash TEXT PRIMARY KEY NOT NULL,
       operator_id TEXT NOT NULL,
       created_at TEXT NOT NULL,
       expires_at TEXT NOT NULL
     ) WITHOUT ROWID;
     CREATE INDEX operator_sessions_by_expiry ON operator_sessions (expires_at);`,
    // A single sign-on login's identity (JSON), so every process on the file recognises it.
    'ALTER TABLE operator_sessions ADD COLUMN identity TEXT;',
  ],
};

/**
 * The server's operator logins (`OperatorSessions` of `@treeagent/core/adapter`: the SHA-256 of each login
 * token, never the token) in the SQLite file, so an operator stays logged in across a restart and
 * on every process on the same file. `openSqlite` opens it with the other stores.
 *
 * @example
 * const data = openSqlite('.data');
 * await serve({ agent, operators: { directory, sessions: data.operatorSessions, auditLog: data.auditLog } });
 */
export class SqliteOperatorSessions implements OperatorSessions {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #insert: Database.Statement;
  readonly #select: Database.Statement;
  readonly #delete: Database.Statement;
  readonly #deleteExpired: Database.Statement;
  readonly #deleteOperator: Database.Statement;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, OPERATOR_SESSION_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(
      database,
      'SESSION_STORE',
      `The SQLite operator logins (${database.file})`,
    );
    const db = database.connection;
    this.#insert = db.prepare(
      `INSERT INTO operator_sessions (token_hash, operator_id, created_at, expires_at, identity)
       VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (token_hash) DO UPDATE SET operator_id = excluded.operator_id,
         created_at = excluded.created_at, expires_at = excluded.expires_at, identity = excluded.identity`,
    );
    this.#select = db.prepare(
      'SELECT operator_id, created_at, expires_at, identity FROM operator_sessions WHERE token_hash = ?',
    );
    this.#delete = db.prepare('DELETE FROM operator_sessions WHERE token_hash = ?');
    this.#deleteExpired = db.prepare('DELETE FROM operator_sessions WHERE expires_at < ?');
    this.#deleteOperator = db.prepare('DELETE FROM operator_sessions WHERE operator_id = ?');
    database.retain();
  }

  async save(tokenHash: string, record: OperatorSessionRecord): Promise<void> {
    this.#handle.run(`save the login of operator "${record.operatorId}"`, () => {
      this.#insert.run(
        tokenHash,
        record.operatorId,
        record.createdAt.toISOString(),
        record.expiresAt.toISOString(),
        record.identity ? JSON.stringify(record.identity) : null,
      );
      this.#database.wrote();
    });
  }

  async find(tokenHash: string): Promise<OperatorSessionRecord | null> {
    return this.#handle.run('read an operator login', () => {
      const row = this.#select.get(tokenHash) as
        | { operator_id: string; created_at: string; expires_at: string; identity: string | null }
        | undefined;
      return row
        ? {
            operatorId: row.operator_id,
            createdAt: new Date(row.created_at),
            expiresAt: new Date(row.expires_at),
            ...(row.identity ? { identity: JSON.parse(row.identity) as ExternalOperatorIdentity } : {}),
          }
        : null;
    });
  }

  async delete(tokenHash: string): Promise<void> {
    this.#handle.run('delete an operator login', () => {
      if (this.#delete.run(tokenHash).changes) this.#database.wrote();
    });
  }

  async deleteExpired(now: Date): Promise<number> {
    return this.#handle.run('delete expired operator logins', () => {
      const { changes } = this.#deleteExpired.run(now.toISOString());
      if (changes) this.#database.wrote();
      return changes;
    });
  }

  async deleteOperator(operatorId: string): Promise<number> {
    return this.#handle.run(`delete the logins of operator "${operatorId}"`, () => {
      const { changes } = this.#deleteOperator.run(operatorId);
      if (changes) this.#database.wrote();
      return changes;
    });
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
