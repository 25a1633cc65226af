import type { CallbackRequest, CallbackRequests } from '@treeagent/core/adapter';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

interface Row {
  id: string;
  session_id: string;
  team: string;
  contact_kind: string;
  contact: string;
  day: string;
  from_time: string;
  to_time: string;
  status: string;
  created_at: Date;
  done_at: Date | null;
  done_by: string | null;
}

const COLUMNS =
  'id, session_id, team, contact_kind, contact, day, from_time, to_time, status, created_at, done_at, done_by';

function requestOf(row: Row): CallbackRequest {
  return {
    id: row.id,
    sessionId: row.session_id,
    team: row.team,
    contact: { kind: row.contact_kind as CallbackRequest['contact']['kind'], value: row.contact },
    window: { date: row.day, from: row.from_time, to: row.to_time },
    status: row.status as CallbackRequest['status'],
    createdAt: row.created_at,
    doneAt: row.done_at,
    doneBy: row.done_by,
  };
}

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
        [
          request.id,
          request.sessionId,
          request.team,
          request.contact.kind,
          request.contact.value,
          request.window.date,
          request.window.from,
          request.window.to,
          request.status,
          request.createdAt,
          request.doneAt,
          request.doneBy,
        ],
      );
      return (rowCount ?? 0) > 0;
    });
  }

  async list(filter: { status?: CallbackRequest['status']; teams?: readonly string[] } = {}) {
    return this.run('read the callback requests', async (pool) => {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${this.table}
         WHERE ($1::text IS NULL OR status = $1) AND ($2::text[] IS NULL OR team = ANY($2))
         ORDER BY created_at, id COLLATE "C"`,
        [filter.status ?? null, filter.teams ? [...filter.teams] : null],
      );
      return rows.map(requestOf);
    });
  }

  async get(id: string): Promise<CallbackRequest | null> {
    return this.run(`read the callback request "${id}"`, async (pool) => {
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM ${this.table} WHERE id = $1`, [id]);
      return rows[0] ? requestOf(rows[0]) : null;
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
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${this.table} WHERE session_id = ANY($1) ORDER BY created_at, id COLLATE "C"`,
        [[...sessionIds]],
      );
      return rows.map(requestOf);
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
