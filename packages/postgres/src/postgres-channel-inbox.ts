import {
  type ChannelInbox,
  type ChannelInboxEntry,
  type ChannelInboxInput,
  type ChannelInboxRow,
  channelDeadLetterLimit,
  channelInboxEntryOfRow,
} from '@treeagent/core/adapter';
import type pg from 'pg';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

/** A row as `pg` reads it back (`jsonb` decoded, times as `Date`), with its order of arrival. */
type Row = ChannelInboxRow & { seq: string };

const COLUMNS =
  'seq, channel, message_id, session_id, conversation, text, selected_option, attachments, status, attempts, next_attempt_at, last_error, received_at';

/**
 * The messaging channels' inbox (`ChannelInbox` of `@treeagent/core/adapter`) in PostgreSQL: table
 * `<prefix>channel_inbox`, shared by every server process. A lease takes the head of each
 * conversation (its oldest pending entry) with `FOR UPDATE SKIP LOCKED` and moves its next attempt
 * past the lease, so each entry runs in one process at a time and a conversation's messages in order.
 */
export class PostgresChannelInbox extends PostgresSideTable implements ChannelInbox {
  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'channel_inbox', 'channel inbox table', 'PostgresChannelInbox');
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         seq bigserial PRIMARY KEY,
         channel text NOT NULL,
         message_id text NOT NULL,
         conversation_id text NOT NULL,
         session_id text NOT NULL,
         conversation jsonb NOT NULL,
         text text NOT NULL,
         selected_option text,
         attachments jsonb NOT NULL,
         status text NOT NULL,
         attempts integer NOT NULL,
         next_attempt_at timestamptz NOT NULL,
         last_error text,
         received_at timestamptz NOT NULL,
         UNIQUE (channel, message_id)
       )`,
      `CREATE INDEX IF NOT EXISTS ${this.index('channel_inbox_by_conversation')} ON ${this.table} (channel, conversation_id, status, seq)`,
      `CREATE INDEX IF NOT EXISTS ${this.index('channel_inbox_by_session')} ON ${this.table} (session_id)`,
    ];
  }

  async add(entry: ChannelInboxInput, now: Date): Promise<boolean> {
    return this.run(
      `add update ${entry.messageId} of channel "${entry.channel}" to the inbox`,
      async (pool) => {
        const result = await pool.query(
          `INSERT INTO ${this.table}
           (channel, message_id, conversation_id, session_id, conversation, text, selected_option, attachments,
            status, attempts, next_attempt_at, received_at)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8::jsonb, 'pending', 0, $9, $9)
         ON CONFLICT (channel, message_id) DO NOTHING`,
          [
            entry.channel,
            entry.messageId,
            entry.conversation.conversationId,
            entry.sessionId,
            JSON.stringify(entry.conversation),
            entry.text,
            entry.selectedOption,
            JSON.stringify(entry.attachments),
            now,
          ],
        );
        return result.rowCount === 1;
      },
    );
  }

  async lease(now: Date, limit: number, leaseMs: number): Promise<ChannelInboxEntry[]> {
    if (limit < 1) return [];
    return this.run('lease entries of the channel inbox', async (pool) => {
      const { rows } = await pool.query<Row>(
        `UPDATE ${this.table} SET attempts = attempts + 1, next_attempt_at = $2
          WHERE seq IN (SELECT i.seq FROM ${this.table} i
                         WHERE i.status = 'pending' AND i.next_attempt_at <= $1
                           AND NOT EXISTS (SELECT 1 FROM ${this.table} p
                                            WHERE p.channel = i.channel AND p.conversation_id = i.conversation_id
                                              AND p.status = 'pending' AND p.seq < i.seq)
                         ORDER BY i.seq LIMIT $3
                         FOR UPDATE SKIP LOCKED)
          RETURNING ${COLUMNS}`,
        [now, new Date(now.getTime() + leaseMs), Math.trunc(limit)],
      );
      return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map(channelInboxEntryOfRow);
    });
  }

  async renew(channel: string, messageId: string, until: Date): Promise<boolean> {
    return this.run(`renew the lease of update ${messageId} of channel "${channel}"`, async (pool) => {
      const result = await pool.query(
        `UPDATE ${this.table} SET next_attempt_at = $3
          WHERE channel = $1 AND message_id = $2 AND status = 'pending'`,
        [channel, messageId, until],
      );
      return result.rowCount === 1;
    });
  }

  /** Makes the table (a session store calls it before a commit that removes an entry). */
  async ready(): Promise<void> {
    await this.run('create the channel inbox table', async () => {});
  }

  /** Removes an entry with `client` (a session store's commit transaction of the entry's turn). */
  async doneWith(client: pg.ClientBase, channel: string, messageId: string): Promise<void> {
    await client.query(`DELETE FROM ${this.table} WHERE channel = $1 AND message_id = $2`, [
      channel,
      messageId,
    ]);
  }

  async done(channel: string, messageId: string): Promise<void> {
    await this.run(`remove update ${messageId} of channel "${channel}" from the inbox`, (pool) =>
      pool.query(`DELETE FROM ${this.table} WHERE channel = $1 AND message_id = $2`, [channel, messageId]),
    );
  }

  async failed(
    channel: string,
    messageId: string,
    error: string,
    retryAt: Date | null,
    now: Date,
  ): Promise<void> {
    await this.run(`record a failed turn of update ${messageId} of channel "${channel}"`, (pool) =>
      pool.query(
        `UPDATE ${this.table} SET last_error = $3,
           status = CASE WHEN $4::timestamptz IS NULL THEN 'failed' ELSE status END,
           next_attempt_at = COALESCE($4::timestamptz, $5)
         WHERE channel = $1 AND message_id = $2`,
        [channel, messageId, error, retryAt, now],
      ),
    );
  }

  async retry(channel: string, messageId: string, now: Date): Promise<boolean> {
    return this.run(`put update ${messageId} of channel "${channel}" back in line`, async (pool) => {
      const result = await pool.query(
        `UPDATE ${this.table} SET status = 'pending', attempts = 0, next_attempt_at = $3
          WHERE channel = $1 AND message_id = $2 AND status = 'failed'`,
        [channel, messageId, now],
      );
      return result.rowCount === 1;
    });
  }

  async failures(limit?: number): Promise<ChannelInboxEntry[]> {
    return this.run('read the failed entries of the channel inbox', async (pool) => {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${this.table} WHERE status = 'failed'
          ORDER BY next_attempt_at DESC, seq DESC LIMIT $1`,
        [channelDeadLetterLimit(limit)],
      );
      return rows.map(channelInboxEntryOfRow);
    });
  }

  async counts(): Promise<{ channel: string; pending: number; failed: number }[]> {
    return this.run('count the channel inbox', async (pool) => {
      const { rows } = await pool.query<{ channel: string; pending: string; failed: string }>(
        `SELECT channel, count(*) FILTER (WHERE status = 'pending') AS pending,
                count(*) FILTER (WHERE status = 'failed') AS failed
           FROM ${this.table} GROUP BY channel ORDER BY channel`,
      );
      return rows.map((row) => ({
        channel: row.channel,
        pending: Number(row.pending),
        failed: Number(row.failed),
      }));
    });
  }

  async sessionEntries(sessionIds: readonly string[]): Promise<ChannelInboxEntry[]> {
    if (sessionIds.length === 0) return [];
    return this.run(`read the channel inbox of ${sessionIds.length} sessions`, async (pool) => {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${this.table} WHERE session_id = ANY($1::text[]) ORDER BY seq`,
        [[...sessionIds]],
      );
      return rows.map(channelInboxEntryOfRow);
    });
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    return this.run(`delete the channel inbox of ${sessionIds.length} sessions`, async (pool) => {
      const result = await pool.query(`DELETE FROM ${this.table} WHERE session_id = ANY($1::text[])`, [
        [...sessionIds],
      ]);
      return result.rowCount ?? 0;
    });
  }
}
