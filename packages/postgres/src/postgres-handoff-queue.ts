import { TreeAgentError } from '@treeagent/core';
import type pg from 'pg';
import type { PostgresOperatorStoreOptions } from './postgres-operator-sessions.js';
import { quoteIdent, retriedOnce, type StorePool, sessionTable, storeError, storePool } from './sql.js';

interface HandoffNote {
  at: string;
  operator: { id: string; name: string };
  text: string;
}

/** A queue entry (`QueueEntry` of `@treeagent/server`). */
interface QueueEntry {
  sessionId: string;
  status: 'waiting' | 'claimed' | 'closed';
  queue: string;
  reason: string;
  summary: string | null;
  since: string;
  operator: { id: string; name: string } | null;
  claimedAt: string | null;
  lastUserMessageAt: string | null;
  closedAt: string | null;
  outcome: 'handed-back' | 'closed' | 'user-returned' | null;
  notes: HandoffNote[];
}

/**
 * The queue of handed-off sessions (`HandoffQueue` of `@treeagent/server`) in PostgreSQL, table
 * `<prefix>handoff_queue`: every server process lists the same queue. Notes are appended in one
 * statement, so two operators writing at once both keep theirs.
 */
export class PostgresHandoffQueue {
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
    this.#prefix = options.tablePrefix ?? 'treeagent_';
    this.table = sessionTable(this.#schema, `${this.#prefix}handoff_queue`, 'handoff queue table');
    this.#store = storePool(options, 'SESSION_STORE', 'PostgresHandoffQueue');
    this.#autoMigrate = options.autoMigrate ?? true;
  }

  /** Creates the schema, the table and its indexes when missing (idempotent, safe from several processes). */
  async migrate(): Promise<void> {
    const pool = this.#store.pool;
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.#schema)}`);
      await pool.query(`
        CREATE TABLE IF NOT EXISTS ${this.table} (
          session_id text PRIMARY KEY,
          status text NOT NULL,
          queue text NOT NULL,
          since timestamptz NOT NULL,
          closed_at timestamptz,
          entry jsonb NOT NULL
        )`);
      const index = (suffix: string) => quoteIdent(`${this.#prefix}handoff_queue_${suffix}`);
      await pool.query(`CREATE INDEX IF NOT EXISTS ${index('open')} ON ${this.table} (status, since)`);
      await pool.query(`CREATE INDEX IF NOT EXISTS ${index('closed')} ON ${this.table} (closed_at)`);
    } catch (error) {
      const { rows } = await pool
        .query<{ ready: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ready', [this.table])
        .catch(() => ({ rows: [{ ready: false }] }));
      if (!rows[0]?.ready)
        throw storeError(error, 'SESSION_STORE', 'create the handoff queue table', this.#store.endpoint);
    }
  }

  /** Creates or replaces a session's entry; with no notes given, the stored notes are kept. */
  async put(entry: QueueEntry): Promise<void> {
    await this.#run(`save the queue entry of session "${entry.sessionId}"`, (pool) =>
      pool.query(
        `INSERT INTO ${this.table} AS q (session_id, status, queue, since, closed_at, entry)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb)
         ON CONFLICT (session_id) DO UPDATE SET status = excluded.status, queue = excluded.queue,
           since = excluded.since, closed_at = excluded.closed_at,
           entry = CASE WHEN jsonb_array_length(excluded.entry->'notes') = 0
                        THEN jsonb_set(excluded.entry, '{notes}', q.entry->'notes')
                        ELSE excluded.entry END`,
        [entry.sessionId, entry.status, entry.queue, entry.since, entry.closedAt, JSON.stringify(entry)],
      ),
    );
  }

  async get(sessionId: string): Promise<QueueEntry | null> {
    return this.#run(`read the queue entry of session "${sessionId}"`, async (pool) => {
      const { rows } = await pool.query<{ entry: QueueEntry }>(
        `SELECT entry FROM ${this.table} WHERE session_id = $1`,
        [sessionId],
      );
      return rows[0]?.entry ?? null;
    });
  }

  async list(
    query: { status?: 'open' | 'closed'; queue?: string; limit?: number } = {},
  ): Promise<QueueEntry[]> {
    return this.#run('read the handoff queue', async (pool) => {
      const status = query.status ?? 'open';
      const limit = Math.min(Math.max(Math.trunc(query.limit ?? 200), 1), 1000);
      const byQueue = query.queue === undefined ? '' : 'AND queue = $2';
      const sql =
        status === 'open'
          ? `SELECT entry FROM ${this.table} WHERE status IN ('waiting', 'claimed') ${byQueue} ORDER BY since, session_id LIMIT $1`
          : `SELECT entry FROM ${this.table} WHERE status = 'closed' ${byQueue} ORDER BY closed_at DESC LIMIT $1`;
      const { rows } = await pool.query<{ entry: QueueEntry }>(
        sql,
        query.queue === undefined ? [limit] : [limit, query.queue],
      );
      return rows.map((row) => row.entry);
    });
  }

  async addNote(sessionId: string, note: HandoffNote): Promise<void> {
    await this.#run(`add a note to session "${sessionId}"`, (pool) =>
      pool.query(
        `UPDATE ${this.table} SET entry = jsonb_set(entry, '{notes}', (entry->'notes') || $2::jsonb) WHERE session_id = $1`,
        [sessionId, JSON.stringify([note])],
      ),
    );
  }

  async delete(sessionId: string): Promise<void> {
    await this.#run(`delete the queue entry of session "${sessionId}"`, (pool) =>
      pool.query(`DELETE FROM ${this.table} WHERE session_id = $1`, [sessionId]),
    );
  }

  /** Ends the pool (unless it was given). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#store.ownsPool) await this.#store.pool.end();
  }

  async #run<T>(operation: string, body: (pool: pg.Pool) => Promise<T>): Promise<T> {
    if (this.#closed) throw new TreeAgentError('SESSION_STORE', 'The PostgresHandoffQueue is closed.');
    if (this.#autoMigrate) await this.#migrateOnce();
    try {
      return await body(this.#store.pool);
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', operation, this.#store.endpoint);
    }
  }
}
