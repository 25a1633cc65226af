import {
  CALLBACK_REQUEST_COLUMNS,
  type CallbackRequest,
  type CallbackRequestRow,
  type CallbackRequests,
  callbackRequestOfRow,
  callbackRequestValues,
} from '@treeagent/core/adapter';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

const COLUMNS = CALLBACK_REQUEST_COLUMNS.join(', ');

/**
 * Users' callback requests left out of hours (`CallbackRequests` of `@treeagent/core/adapter`) in
 * PostgreSQL, table `<prefix>callback_request`, seen by every server process; at most one open per
 * session (a partial unique index).
 *
 * @example
 * handoff: { queue, callbacks: new PostgresCallbackRequests({ connection }) }
 */
export class PostgresCallbackRequests extends PostgresSideTable implements CallbackRequests {
  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'callback_request', 'callback request table', 'PostgresCallbackRequests');
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         id text PRIMARY KEY,
         session_id text NOT NULL,
         team text NOT NULL,
         contact_kind text NOT NULL,
         contact text NOT NULL,
         day text NOT NULL,
         from_time text NOT NULL,
         to_time text NOT NULL,
         status text NOT NULL,
         created_at timestamptz NOT NULL,
         done_at timestamptz,
         done_by text
       )`,
      `CREATE UNIQUE INDEX IF NOT EXISTS ${this.index('callback_request_open')} ON ${this.table} (session_id) WHERE status = 'open'`,
    ];
  }

  async add(request: CallbackRequest): Promise<boolean> {
    return this.run(`keep the callback request of session "${request.sessionId}"`, async (pool) => {
      const { rowCount } = await pool.query(
        `INSERT INTO ${this.table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT DO NOTHING`,
        callbackRequestValues(request),
      );
      return (rowCount ?? 0) > 0;
    });
  }

  async list(filter: { status?: CallbackRequest['status']; teams?: readonly string[] } = {}) {
    return this.run('read the callback requests', async (pool) => {
      const { rows } = await pool.query<CallbackRequestRow>(
        `SELECT ${COLUMNS} FROM ${this.table}
         WHERE ($1::text IS NULL OR status = $1) AND ($2::text[] IS NULL OR team = ANY($2))
         ORDER BY created_at, id COLLATE "C"`,
        [filter.status ?? null, filter.teams ? [...filter.teams] : null],
      );
      return rows.map(callbackRequestOfRow);
    });
  }

  async get(id: string): Promise<CallbackRequest | null> {
    return this.run(`read the callback request "${id}"`, async (pool) => {
      const { rows } = await pool.query<CallbackRequestRow>(
        `SELECT ${COLUMNS} FROM ${this.table} WHERE id = $1`,
        [id],
      );
      return rows[0] ? callbackRequestOfRow(rows[0]) : null;
    });
  }

  async done(id: string, operatorId: string, at: Date): Promise<boolean> {
    return this.run(`mark the callback request "${id}" done`, async (pool) => {
      const { rowCount } = await pool.query(
        `UPDATE ${this.table} SET status = 'done', done_at = $2, done_by = $3 WHERE id = $1 AND status = 'open'`,
        [id, at, operatorId],
      );
      return (rowCount ?? 0) > 0;
    });
  }

  async sessionRequests(sessionIds: readonly string[]): Promise<CallbackRequest[]> {
    return this.run('read the callback requests of sessions', async (pool) => {
      const { rows } = await pool.query<CallbackRequestRow>(
        `SELECT ${COLUMNS} FROM ${this.table} WHERE session_id = ANY($1) ORDER BY created_at, id COLLATE "C"`,
        [[...sessionIds]],
      );
      return rows.map(callbackRequestOfRow);
    });
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    return this.run('delete the callback requests of sessions', async (pool) => {
      const { rowCount } = await pool.query(`DELETE FROM ${this.table} WHERE session_id = ANY($1)`, [
        [...sessionIds],
      ]);
      return rowCount ?? 0;
    });
  }
}
