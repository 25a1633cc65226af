import { TreeAgentError } from '@treeagent/core';
import type pg from 'pg';
import { quoteIdent, retriedOnce, type StorePool, sessionTable, storeError, storePool } from './sql.js';

/** Options of `PostgresOperatorSessions` and `PostgresAuditLog` (like those of `PostgresSessionTokens`). */
export interface PostgresOperatorStoreOptions {
  /** A `postgres://` URL or a pg `PoolConfig`. Required unless `pool` is given. */
  connection?: string | pg.PoolConfig;
  /** An existing pg pool (left open by `close()`), e.g. the one of your other stores. */
  pool?: pg.Pool;
  /** Schema of the table; created when missing. Default `public`. */
  schema?: string;
  /** Prefix of the table name. Default `treeagent_`. */
  tablePrefix?: string;
  /** Create the table on first use (idempotent). Default `true`. */
  autoMigrate?: boolean;
}

/** One operator login (`OperatorSessionRecord` of `@treeagent/server`). */
interface OperatorSessionRecord {
  operatorId: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * The server's operator logins (`OperatorSessions` of `@treeagent/server`: the SHA-256 of each login
 * token, never the token) in PostgreSQL, table `<prefix>operator_sessions`, so an operator who
 * logged in through one server process is recognised by all of them.
 *
 * @example
 * const sessions = new PostgresOperatorSessions({ connection: process.env.DATABASE_URL });
 * await serve({ agent, operators: { directory, sessions, auditLog: new PostgresAuditLog({ connection }) } });
 */
export class PostgresOperatorSessions {
  /** Quoted, schema-qualified table name. */
  readonly table: string;
  readonly #store: StorePool;
  readonly #schema: string;
  readonly #autoMigrate: boolean;
  readonly #migrateOnce = retriedOnce(() => this.migrate());
  #closed = false;

  constructor(options: PostgresOperatorStoreOptions) {
    this.#schema = options.schema ?? 'public';
    const prefix = options.tablePrefix ?? 'treeagent_';
    this.table = sessionTable(this.#schema, `${prefix}operator_sessions`, 'operator sessions table');
    this.#store = storePool(options, 'SESSION_STORE', 'PostgresOperatorSessions');
    this.#autoMigrate = options.autoMigrate ?? true;
  }

  /** Creates the schema and the table when missing (idempotent, safe from several processes). */
  async migrate(): Promise<void> {
    const pool = this.#store.pool;
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.#schema)}`);
      await pool.query(`
        CREATE TABLE IF NOT EXISTS ${this.table} (
          token_hash text PRIMARY KEY,
          operator_id text NOT NULL,
          created_at timestamptz NOT NULL,
          expires_at timestamptz NOT NULL
        )`);
    } catch (error) {
      const { rows } = await pool
        .query<{ ready: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ready', [this.table])
        .catch(() => ({ rows: [{ ready: false }] }));
      if (!rows[0]?.ready)
        throw storeError(error, 'SESSION_STORE', 'create the operator sessions table', this.#store.endpoint);
    }
  }

  async save(tokenHash: string, record: OperatorSessionRecord): Promise<void> {
    await this.#run(`save the login of operator "${record.operatorId}"`, (pool) =>
      pool.query(
        `INSERT INTO ${this.table} (token_hash, operator_id, created_at, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (token_hash) DO UPDATE SET operator_id = excluded.operator_id,
           created_at = excluded.created_at, expires_at = excluded.expires_at`,
        [tokenHash, record.operatorId, record.createdAt, record.expiresAt],
      ),
    );
  }

  async find(tokenHash: string): Promise<OperatorSessionRecord | null> {
    return this.#run('read an operator login', async (pool) => {
      const { rows } = await pool.query<{ operator_id: string; created_at: Date; expires_at: Date }>(
        `SELECT operator_id, created_at, expires_at FROM ${this.table} WHERE token_hash = $1`,
        [tokenHash],
      );
      const row = rows[0];
      return row
        ? { operatorId: row.operator_id, createdAt: row.created_at, expiresAt: row.expires_at }
        : null;
    });
  }

  async delete(tokenHash: string): Promise<void> {
    await this.#run('delete an operator login', (pool) =>
      pool.query(`DELETE FROM ${this.table} WHERE token_hash = $1`, [tokenHash]),
    );
  }

  async deleteExpired(now: Date): Promise<number> {
    return this.#run('delete expired operator logins', async (pool) => {
      const result = await pool.query(`DELETE FROM ${this.table} WHERE expires_at < $1`, [now]);
      return result.rowCount ?? 0;
    });
  }

  /** Ends the pool (unless it was given). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#store.ownsPool) await this.#store.pool.end();
  }

  async #run<T>(operation: string, body: (pool: pg.Pool) => Promise<T>): Promise<T> {
    if (this.#closed) throw new TreeAgentError('SESSION_STORE', 'The PostgresOperatorSessions is closed.');
    if (this.#autoMigrate) await this.#migrateOnce();
    try {
      return await body(this.#store.pool);
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', operation, this.#store.endpoint);
    }
  }
}
