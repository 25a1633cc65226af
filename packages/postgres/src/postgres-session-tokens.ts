import { TreeAgentError } from '@treeagent/core';
import type pg from 'pg';
import { runMigration } from './migration.js';
import {
  quoteIdent,
  retriedOnce,
  type StorePool,
  sessionTable,
  storeError,
  storePool,
  vacuum,
} from './sql.js';

export interface PostgresSessionTokensOptions {
  /** A `postgres://` URL or a pg `PoolConfig`. Required unless `pool` is given. */
  connection?: string | pg.PoolConfig;
  /** An existing pg pool (left open by `close()`), e.g. the one of your other stores. */
  pool?: pg.Pool;
  /** Schema of the table; created when missing. Default `public`. */
  schema?: string;
  /** Prefix of the table name: `<prefix>session_tokens`. Default `treeagent_`. */
  tablePrefix?: string;
  /** Create the table on first use (idempotent). Default `true`. */
  autoMigrate?: boolean;
}

/**
 * The server's session tokens (`SessionTokens` of `@treeagent/server`: the SHA-256 of each session's
 * token, never the token) in PostgreSQL, so that every server process behind a load balancer — and
 * a restarted one — accepts the sessions any of them handed out.
 *
 * @example
 * const sessionTokens = new PostgresSessionTokens({ connection: process.env.DATABASE_URL });
 * await serve({ agent, sessionTokens });
 */
export class PostgresSessionTokens {
  /** Quoted, schema-qualified table name. */
  readonly table: string;
  readonly #store: StorePool;
  readonly #schema: string;
  readonly #prefix: string;
  readonly #autoMigrate: boolean;
  readonly #migrateOnce = retriedOnce(() => this.migrate());
  #closed = false;

  constructor(options: PostgresSessionTokensOptions) {
    this.#schema = options.schema ?? 'public';
    const prefix = options.tablePrefix ?? 'treeagent_';
    this.#prefix = prefix;
    this.table = sessionTable(this.#schema, `${prefix}session_tokens`, 'session tokens table');
    this.#store = storePool(options, 'SESSION_STORE', 'PostgresSessionTokens');
    this.#autoMigrate = options.autoMigrate ?? true;
  }

  get #pool(): pg.Pool {
    return this.#store.pool;
  }

  /**
   * Creates the schema and the table when missing, and adds the columns of later versions:
   * idempotent, and safe when several processes start at once (see `runMigration`).
   */
  async migrate(): Promise<void> {
    try {
      await runMigration(this.#pool, {
        schema: this.#schema,
        statements: [
          `
        CREATE TABLE IF NOT EXISTS ${this.table} (
          session_id text PRIMARY KEY,
          token_hash text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now()
        )`,
          // Expiry: idle time counts from the last use.
          `ALTER TABLE ${this.table} ADD COLUMN IF NOT EXISTS last_used_at timestamptz NOT NULL DEFAULT now()`,
          // The user a session was created for (personal data requests, docs/privacy.md).
          `ALTER TABLE ${this.table} ADD COLUMN IF NOT EXISTS user_id text`,
          `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${this.#prefix}session_tokens_by_user`)}
           ON ${this.table} (user_id, created_at) WHERE user_id IS NOT NULL`,
        ],
      });
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', 'create the session tokens table', this.#store.endpoint);
    }
  }

  /** Records a session and the SHA-256 (hex) of its token. */
  async save(sessionId: string, tokenHash: string, userId: string | null = null): Promise<void> {
    await this.#run(`save the token of session "${sessionId}"`, () =>
      this.#pool.query(
        `INSERT INTO ${this.table} (session_id, token_hash, user_id) VALUES ($1, $2, $3)
         ON CONFLICT (session_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = now(),
           last_used_at = now(), user_id = excluded.user_id`,
        [sessionId, tokenHash, userId],
      ),
    );
  }

  /** The token hash of a session, or `null` when no server on this database created it. */
  async find(sessionId: string): Promise<string | null> {
    return this.#run(`read the token of session "${sessionId}"`, async () => {
      const { rows } = await this.#pool.query<{ token_hash: string }>(
        `SELECT token_hash FROM ${this.table} WHERE session_id = $1`,
        [sessionId],
      );
      return rows[0]?.token_hash ?? null;
    });
  }

  async delete(sessionId: string): Promise<void> {
    await this.#run(`delete the token of session "${sessionId}"`, () =>
      this.#pool.query(`DELETE FROM ${this.table} WHERE session_id = $1`, [sessionId]),
    );
  }

  /** The token hash and timestamps of a session, or `null`. */
  async info(
    sessionId: string,
  ): Promise<{ tokenHash: string; createdAt: Date; lastUsedAt: Date; userId: string | null } | null> {
    return this.#run(`read the token of session "${sessionId}"`, async () => {
      const { rows } = await this.#pool.query<{
        token_hash: string;
        created_at: Date;
        last_used_at: Date;
        user_id: string | null;
      }>(`SELECT token_hash, created_at, last_used_at, user_id FROM ${this.table} WHERE session_id = $1`, [
        sessionId,
      ]);
      const row = rows[0];
      return row
        ? {
            tokenHash: row.token_hash,
            createdAt: row.created_at,
            lastUsedAt: row.last_used_at,
            userId: row.user_id,
          }
        : null;
    });
  }

  /** Records a use of the session at `at`. */
  async touch(sessionId: string, at: Date): Promise<void> {
    await this.#run(`record a use of session "${sessionId}"`, () =>
      this.#pool.query(
        `UPDATE ${this.table} SET last_used_at = $1 WHERE session_id = $2 AND last_used_at < $1`,
        [at, sessionId],
      ),
    );
  }

  /**
   * Removes and returns up to `limit` expired sessions in one statement; rows another process is
   * claiming at the same moment are skipped (`FOR UPDATE SKIP LOCKED`), so no session is claimed
   * twice and sweepers in several processes never wait for each other.
   */
  async claimExpired(cutoff: { idleBefore: Date; createdBefore: Date }, limit: number): Promise<string[]> {
    return this.#run('claim expired sessions', async () => {
      const { rows } = await this.#pool.query<{ session_id: string }>(
        `DELETE FROM ${this.table} WHERE session_id IN (
           SELECT session_id FROM ${this.table} WHERE last_used_at < $1 OR created_at < $2
           LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING session_id`,
        [cutoff.idleBefore, cutoff.createdBefore, limit],
      );
      return rows.map((row) => row.session_id);
    });
  }

  /** The sessions saved for `userId`, oldest first (an index on the user). */
  async userSessions(userId: string): Promise<string[]> {
    return this.#run('find the sessions of a user', async () => {
      const { rows } = await this.#pool.query<{ session_id: string }>(
        `SELECT session_id FROM ${this.table} WHERE user_id = $1 ORDER BY created_at, session_id`,
        [userId],
      );
      return rows.map((row) => row.session_id);
    });
  }

  /** Forgets every session of `userId` in one statement; returns their ids. */
  async deleteUser(userId: string): Promise<string[]> {
    return this.#run('delete the sessions of a user', async () => {
      const { rows } = await this.#pool.query<{ session_id: string }>(
        `DELETE FROM ${this.table} WHERE user_id = $1 RETURNING session_id`,
        [userId],
      );
      return rows.map((row) => row.session_id).sort();
    });
  }

  /** `VACUUM` of its table after a deletion (see `vacuum` in sql.ts; docs/privacy.md). */
  async purgeDeleted(): Promise<void> {
    await this.#run('vacuum the session tokens table', () => vacuum(this.#pool, [this.table]));
  }

  /** Ends the pool (unless it was given). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#store.ownsPool) await this.#pool.end();
  }

  async #run<T>(operation: string, body: () => Promise<T>): Promise<T> {
    if (this.#closed) throw new TreeAgentError('SESSION_STORE', 'The PostgresSessionTokens is closed.');
    if (this.#autoMigrate) await this.#migrateOnce();
    try {
      return await body();
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', operation, this.#store.endpoint);
    }
  }
}
