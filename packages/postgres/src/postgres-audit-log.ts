import { TreeAgentError } from '@treeagent/core';
import type pg from 'pg';
import type { PostgresOperatorStoreOptions } from './postgres-operator-sessions.js';
import { quoteIdent, retriedOnce, type StorePool, sessionTable, storeError, storePool } from './sql.js';

type AuditValue = string | number | boolean | null;

/** One operator action (`AuditEntry` of `@treeagent/server`). */
interface AuditEntry {
  at: Date;
  actorId: string;
  actorRole: string | null;
  action: string;
  sessionId: string | null;
  detail: Record<string, AuditValue>;
}

interface AuditRecord extends AuditEntry {
  id: number;
}

interface AuditQuery {
  sessionId?: string;
  actorId?: string;
  action?: string;
  beforeId?: number;
  limit?: number;
}

interface Row {
  id: string;
  at: Date;
  actor_id: string;
  actor_role: string | null;
  action: string;
  session_id: string | null;
  detail: Record<string, AuditValue>;
}

/**
 * The audit log of operator actions (`AuditLog` of `@treeagent/server`) in PostgreSQL, table
 * `<prefix>audit_log`, shared by every server process. Rows are only appended; ids increase.
 */
export class PostgresAuditLog {
  /** Quoted, schema-qualified table name. */
  readonly table: string;
  readonly #store: StorePool;
  readonly #schema: string;
  readonly #prefix: string;
  readonly #autoMigrate: boolean;
  readonly #migrateOnce = retriedOnce(() => this.migrate());
  #closed = false;

  constructor(options: PostgresOperatorStoreOptions) {
    this.#schema = options.schema ?? 'public';
    const prefix = options.tablePrefix ?? 'treeagent_';
    this.#prefix = prefix;
    this.table = sessionTable(this.#schema, `${prefix}audit_log`, 'audit log table');
    this.#store = storePool(options, 'SESSION_STORE', 'PostgresAuditLog');
    this.#autoMigrate = options.autoMigrate ?? true;
  }

  /** Creates the schema and the table when missing (idempotent, safe from several processes). */
  async migrate(): Promise<void> {
    const pool = this.#store.pool;
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.#schema)}`);
      await pool.query(`
        CREATE TABLE IF NOT EXISTS ${this.table} (
          id bigserial PRIMARY KEY,
          at timestamptz NOT NULL,
          actor_id text NOT NULL,
          actor_role text,
          action text NOT NULL,
          session_id text,
          detail jsonb NOT NULL
        )`);
      // Index names live in the table's schema: the prefix keeps them apart from other installs'.
      const index = (suffix: string) => quoteIdent(`${this.#prefix}audit_log_${suffix}`);
      await pool.query(`CREATE INDEX IF NOT EXISTS ${index('by_session')} ON ${this.table} (session_id, id)`);
      await pool.query(`CREATE INDEX IF NOT EXISTS ${index('by_actor')} ON ${this.table} (actor_id, id)`);
    } catch (error) {
      const { rows } = await pool
        .query<{ ready: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ready', [this.table])
        .catch(() => ({ rows: [{ ready: false }] }));
      if (!rows[0]?.ready)
        throw storeError(error, 'SESSION_STORE', 'create the audit log table', this.#store.endpoint);
    }
  }

  async append(entry: AuditEntry): Promise<AuditRecord> {
    return this.#run(`append "${entry.action}" to the audit log`, async (pool) => {
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO ${this.table} (at, actor_id, actor_role, action, session_id, detail)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [
          entry.at,
          entry.actorId,
          entry.actorRole,
          entry.action,
          entry.sessionId,
          JSON.stringify(entry.detail),
        ],
      );
      return { ...entry, detail: { ...entry.detail }, id: Number(rows[0]!.id) };
    });
  }

  async list(query: AuditQuery = {}): Promise<AuditRecord[]> {
    return this.#run('read the audit log', async (pool) => {
      const where: string[] = [];
      const values: unknown[] = [];
      const add = (sql: string, value: unknown) => {
        values.push(value);
        where.push(sql.replace('?', `$${values.length}`));
      };
      if (query.sessionId !== undefined) add('session_id = ?', query.sessionId);
      if (query.actorId !== undefined) add('actor_id = ?', query.actorId);
      if (query.action !== undefined) add('action = ?', query.action);
      if (query.beforeId !== undefined) add('id < ?', query.beforeId);
      values.push(Math.min(Math.max(Math.trunc(query.limit ?? 100), 1), 1000));
      const { rows } = await pool.query<Row>(
        `SELECT * FROM ${this.table} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY id DESC LIMIT $${values.length}`,
        values,
      );
      return rows.map((row) => ({
        id: Number(row.id),
        at: row.at,
        actorId: row.actor_id,
        actorRole: row.actor_role,
        action: row.action,
        sessionId: row.session_id,
        detail: row.detail,
      }));
    });
  }

  /** Ends the pool (unless it was given). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#store.ownsPool) await this.#store.pool.end();
  }

  async #run<T>(operation: string, body: (pool: pg.Pool) => Promise<T>): Promise<T> {
    if (this.#closed) throw new TreeAgentError('SESSION_STORE', 'The PostgresAuditLog is closed.');
    if (this.#autoMigrate) await this.#migrateOnce();
    try {
      return await body(this.#store.pool);
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', operation, this.#store.endpoint);
    }
  }
}
