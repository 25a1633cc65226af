import {
  type HandoffNote,
  type HandoffQueue,
  type OpenQueueTally,
  type QueueEntry,
  type QueueQuery,
  queueLimit,
} from '@treeagent/core/adapter';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

/**
 * The queue of handed-off sessions (`HandoffQueue` of `@treeagent/core/adapter`) in PostgreSQL, table
 * `<prefix>handoff_queue`: every server process lists the same queue. Notes are appended in one
 * statement, so two operators writing at once both keep theirs.
 */
export class PostgresHandoffQueue extends PostgresSideTable implements HandoffQueue {
  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'handoff_queue', 'handoff queue table', 'PostgresHandoffQueue');
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         session_id text PRIMARY KEY,
         status text NOT NULL,
         queue text NOT NULL,
         since timestamptz NOT NULL,
         closed_at timestamptz,
         entry jsonb NOT NULL
       )`,
      `CREATE INDEX IF NOT EXISTS ${this.index('handoff_queue_open')} ON ${this.table} (status, since)`,
      `CREATE INDEX IF NOT EXISTS ${this.index('handoff_queue_closed')} ON ${this.table} (closed_at)`,
    ];
  }

  /** Creates or replaces a session's entry; with no notes given, the stored notes are kept. */
  async put(entry: QueueEntry): Promise<void> {
    await this.run(`save the queue entry of session "${entry.sessionId}"`, (pool) =>
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
    return this.run(`read the queue entry of session "${sessionId}"`, async (pool) => {
      const { rows } = await pool.query<{ entry: QueueEntry }>(
        `SELECT entry FROM ${this.table} WHERE session_id = $1`,
        [sessionId],
      );
      return rows[0]?.entry ?? null;
    });
  }

  async list(query: QueueQuery = {}): Promise<QueueEntry[]> {
    return this.run('read the handoff queue', async (pool) => {
      const status = query.status ?? 'open';
      const values: unknown[] = [queueLimit(query)];
      const byStatus =
        status === 'open' ? `status IN ('waiting', 'claimed')` : `status = $${values.push(status)}`;
      const byQueue = query.queue === undefined ? '' : `AND queue = $${values.push(query.queue)}`;
      const order = status === 'closed' ? 'closed_at DESC' : 'since, session_id';
      const { rows } = await pool.query<{ entry: QueueEntry }>(
        `SELECT entry FROM ${this.table} WHERE ${byStatus} ${byQueue} ORDER BY ${order} LIMIT $1`,
        values,
      );
      return rows.map((row) => row.entry);
    });
  }

  async tallyOpen(): Promise<OpenQueueTally[]> {
    return this.run('count the handoff queue', async (pool) => {
      const { rows } = await pool.query<{
        queue: string;
        status: OpenQueueTally['status'];
        count: string;
        oldest: Date;
      }>(
        `SELECT queue, status, COUNT(*) AS count, MIN(since) AS oldest FROM ${this.table}
         WHERE status IN ('waiting', 'claimed') GROUP BY queue, status
         ORDER BY queue COLLATE "C", status COLLATE "C"`,
      );
      return rows.map(({ queue, status, count, oldest }) => ({
        queue,
        status,
        count: Number(count),
        oldestSince: oldest.toISOString(),
      }));
    });
  }

  async addNote(sessionId: string, note: HandoffNote): Promise<void> {
    await this.run(`add a note to session "${sessionId}"`, (pool) =>
      pool.query(
        `UPDATE ${this.table} SET entry = jsonb_set(entry, '{notes}', (entry->'notes') || $2::jsonb) WHERE session_id = $1`,
        [sessionId, JSON.stringify([note])],
      ),
    );
  }

  async delete(sessionId: string): Promise<void> {
    await this.run(`delete the queue entry of session "${sessionId}"`, (pool) =>
      pool.query(`DELETE FROM ${this.table} WHERE session_id = $1`, [sessionId]),
    );
  }
}
