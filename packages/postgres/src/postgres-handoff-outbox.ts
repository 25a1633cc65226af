import {
  deadLetterLimit,
  type HandoffEvent,
  type HandoffOutbox,
  type OutboxDelivery,
} from '@treeagent/core/adapter';
import type pg from 'pg';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

interface Row {
  event: HandoffEvent;
  added_at?: Date;
  attempts: number;
  status: 'pending' | 'dead';
  next_attempt_at: Date;
  last_error: string | null;
}

const delivery = (row: Row): OutboxDelivery => ({
  event: row.event,
  attempts: row.attempts,
  status: row.status,
  nextAttemptAt: row.next_attempt_at.toISOString(),
  lastError: row.last_error,
});

/**
 * The webhook's outbox (`HandoffOutbox` of `@treeagent/core/adapter`) in PostgreSQL, table
 * `<prefix>handoff_outbox`. `PostgresSessionStore.handoffOutbox()` writes a transition's events in
 * the transition's own commit; every process may run a delivery loop: a lease takes due rows with
 * `FOR UPDATE SKIP LOCKED` and moves their next attempt past the lease, so each attempt is made by
 * one process, and an attempt cut short by a crash is made again once the lease ends.
 */
export class PostgresHandoffOutbox extends PostgresSideTable implements HandoffOutbox {
  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'handoff_outbox', 'handoff outbox table', 'PostgresHandoffOutbox');
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         id text PRIMARY KEY,
         event jsonb NOT NULL,
         status text NOT NULL,
         attempts integer NOT NULL,
         next_attempt_at timestamptz NOT NULL,
         last_error text,
         added_at timestamptz NOT NULL
       )`,
      `CREATE INDEX IF NOT EXISTS ${this.index('handoff_outbox_due')} ON ${this.table} (status, next_attempt_at)`,
    ];
  }

  /** Creates the table when missing (before a session store writes to it in a commit). */
  async ready(): Promise<void> {
    await this.run('create the handoff outbox table', async () => {});
  }

  /** Inserts `events` with `client` (a session store's commit transaction); ids already there are skipped. */
  async insertWith(
    client: pg.ClientBase | pg.Pool,
    events: readonly HandoffEvent[],
    now: Date,
  ): Promise<void> {
    if (events.length === 0) return;
    await client.query(
      `INSERT INTO ${this.table} (id, event, status, attempts, next_attempt_at, added_at)
       SELECT e->>'id', e, 'pending', 0, $2, $2 FROM jsonb_array_elements($1::jsonb) AS e
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(events), now],
    );
  }

  async add(events: readonly HandoffEvent[], now: Date): Promise<void> {
    await this.run('add handoff events to the outbox', (pool) => this.insertWith(pool, events, now));
  }

  async lease(now: Date, limit: number, leaseMs: number): Promise<OutboxDelivery[]> {
    if (limit < 1) return [];
    return this.run('lease handoff events of the outbox', async (pool) => {
      const { rows } = await pool.query<Row>(
        `UPDATE ${this.table} SET attempts = attempts + 1, next_attempt_at = $2
          WHERE id IN (SELECT id FROM ${this.table}
                        WHERE status = 'pending' AND next_attempt_at <= $1
                        ORDER BY next_attempt_at, added_at, id LIMIT $3
                        FOR UPDATE SKIP LOCKED)
          RETURNING event, attempts, status, next_attempt_at, last_error, added_at`,
        [now, new Date(now.getTime() + leaseMs), limit],
      );
      return rows.sort(compareRows).map(delivery);
    });
  }

  async delivered(id: string): Promise<void> {
    await this.run(`remove the delivered handoff event ${id}`, (pool) =>
      pool.query(`DELETE FROM ${this.table} WHERE id = $1`, [id]),
    );
  }

  async failed(id: string, error: string, retryAt: Date | null): Promise<void> {
    await this.run(`record a failed delivery of handoff event ${id}`, (pool) =>
      pool.query(
        `UPDATE ${this.table} SET last_error = $2,
           status = CASE WHEN $3::timestamptz IS NULL THEN 'dead' ELSE status END,
           next_attempt_at = COALESCE($3::timestamptz, now())
         WHERE id = $1`,
        [id, error, retryAt],
      ),
    );
  }

  async counts(): Promise<{ pending: number; dead: number }> {
    return this.run('count the handoff outbox', async (pool) => {
      const { rows } = await pool.query<{ status: string; count: string }>(
        `SELECT status, count(*) AS count FROM ${this.table} GROUP BY status`,
      );
      const of = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
      return { pending: of('pending'), dead: of('dead') };
    });
  }

  async deadLetters(limit?: number): Promise<OutboxDelivery[]> {
    return this.run('read the dead letters of the handoff outbox', async (pool) => {
      const { rows } = await pool.query<Row>(
        `SELECT event, attempts, status, next_attempt_at, last_error FROM ${this.table}
          WHERE status = 'dead' ORDER BY next_attempt_at DESC, id LIMIT $1`,
        [deadLetterLimit(limit)],
      );
      return rows.map(delivery);
    });
  }

  async sessionDeliveries(sessionIds: readonly string[]): Promise<OutboxDelivery[]> {
    if (sessionIds.length === 0) return [];
    return this.run(`read the webhook deliveries of ${sessionIds.length} sessions`, async (pool) => {
      const { rows } = await pool.query<Row>(
        `SELECT event, attempts, status, next_attempt_at, last_error FROM ${this.table}
          WHERE event->>'sessionId' = ANY($1::text[]) ORDER BY added_at, id`,
        [[...sessionIds]],
      );
      return rows.map(delivery);
    });
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    return this.run(`delete the webhook deliveries of ${sessionIds.length} sessions`, async (pool) => {
      const { rowCount } = await pool.query(
        `DELETE FROM ${this.table} WHERE event->>'sessionId' = ANY($1::text[])`,
        [[...sessionIds]],
      );
      return rowCount ?? 0;
    });
  }

  async retry(id: string, now: Date): Promise<boolean> {
    return this.run(`put handoff event ${id} back in line`, async (pool) => {
      const result = await pool.query(
        `UPDATE ${this.table} SET status = 'pending', attempts = 0, next_attempt_at = $2
          WHERE id = $1 AND status = 'dead'`,
        [id, now],
      );
      return result.rowCount === 1;
    });
  }
}

/** Leased rows in the order they were added (`RETURNING` keeps no order). */
function compareRows(a: Row, b: Row): number {
  const byAdded = (a.added_at?.getTime() ?? 0) - (b.added_at?.getTime() ?? 0);
  return byAdded || (a.event.id < b.event.id ? -1 : a.event.id > b.event.id ? 1 : 0);
}
