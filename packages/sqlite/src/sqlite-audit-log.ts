import {
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  type AuditRecord,
  type AuditValue,
  auditLimit,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** The append-only audit log of operator actions (the server's `AuditLog`). */
export const AUDIT_SCHEMA: SchemaMigrations = {
  component: 'audit_log',
  migrations: [
    `CREATE TABLE audit_log (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       at TEXT NOT NULL,
       actor_id TEXT NOT NULL,
       actor_role TEXT,
       action TEXT NOT NULL,
       session_id TEXT,
       detail TEXT NOT NULL
     );
     CREATE INDEX audit_log_by_session ON audit_log (session_id, id);
     CREATE INDEX audit_log_by_actor ON audit_log (actor_id, id);`,
  ],
};

interface Row {
  id: number;
  at: string;
  actor_id: string;
  actor_role: string | null;
  action: string;
  session_id: string | null;
  detail: string;
}

/**
 * The audit log of operator actions (`AuditLog` of `@treeagent/core/adapter`) in the SQLite file: who
 * logged in, claimed, wrote to, handed back and closed which session. Rows are only appended.
 * `openSqlite` opens it with the other stores.
 */
export class SqliteAuditLog implements AuditLog {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #insert: Database.Statement;
  readonly #connection: Database.Database;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, AUDIT_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite audit log (${database.file})`);
    this.#connection = database.connection;
    this.#insert = this.#connection.prepare(
      `INSERT INTO audit_log (at, actor_id, actor_role, action, session_id, detail) VALUES (?, ?, ?, ?, ?, ?)
       RETURNING id`,
    );
    database.retain();
  }

  async append(entry: AuditEntry): Promise<AuditRecord> {
    return this.#handle.run(`append "${entry.action}" to the audit log`, () => {
      const { id } = this.#insert.get(
        entry.at.toISOString(),
        entry.actorId,
        entry.actorRole,
        entry.action,
        entry.sessionId,
        JSON.stringify(entry.detail),
      ) as { id: number };
      this.#database.wrote();
      return { ...entry, detail: { ...entry.detail }, id };
    });
  }

  async list(query: AuditQuery = {}): Promise<AuditRecord[]> {
    return this.#handle.run('read the audit log', () => {
      const where: string[] = [];
      const values: (string | number)[] = [];
      const add = (sql: string, value: string | number) => {
        where.push(sql);
        values.push(value);
      };
      if (query.sessionId !== undefined) add('session_id = ?', query.sessionId);
      if (query.actorId !== undefined) add('actor_id = ?', query.actorId);
      if (query.action !== undefined) add('action = ?', query.action);
      if (query.beforeId !== undefined) add('id < ?', query.beforeId);
      const limit = auditLimit(query);
      const rows = this.#connection
        .prepare(
          `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
        )
        .all(...values, limit) as Row[];
      return rows.map((row) => ({
        id: row.id,
        at: new Date(row.at),
        actorId: row.actor_id,
        actorRole: row.actor_role,
        action: row.action,
        sessionId: row.session_id,
        detail: JSON.parse(row.detail) as Record<string, AuditValue>,
      }));
    });
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
