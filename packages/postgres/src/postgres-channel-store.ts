import {
  type ChannelConversation,
  type ChannelDelivery,
  type ChannelDeliveryInput,
  type ChannelIdentity,
  type ChannelStore,
  channelDeadLetterLimit,
} from '@treeagent/core/adapter';
import type pg from 'pg';
import { PostgresChannelInbox } from './postgres-channel-inbox.js';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';
import { sessionTable, vacuum } from './sql.js';

interface Row {
  id: string;
  seq: string;
  session_id: string;
  conversation: ChannelConversation;
  payload: ChannelDelivery['payload'];
  status: 'pending' | 'dead';
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
}

const COLUMNS = 'id, seq, session_id, conversation, payload, status, attempts, next_attempt_at, last_error';

const delivery = (row: Row): ChannelDelivery => ({
  id: row.id,
  sessionId: row.session_id,
  conversation: row.conversation,
  payload: row.payload,
  attempts: row.attempts,
  status: row.status,
  nextAttemptAt: row.next_attempt_at.toISOString(),
  lastError: row.last_error,
});

/**
 * The messaging channels' store (`ChannelStore` of `@treeagent/core/adapter`) in PostgreSQL: tables
 * `<prefix>channel_outbox` and `<prefix>channel_identities`, shared by every server process. A lease
 * takes the head of each conversation (its oldest pending message) with `FOR UPDATE SKIP LOCKED`
 * and moves its next attempt past the lease, so each message is sent by one process at a time and a
 * conversation's messages go out in order.
 */
export class PostgresChannelStore extends PostgresSideTable implements ChannelStore {
  /** Quoted, schema-qualified name of the identities table. */
  readonly identities: string;
  readonly #options: PostgresOperatorStoreOptions;
  #inbox: PostgresChannelInbox | null = null;

  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'channel_outbox', 'channel outbox table', 'PostgresChannelStore');
    this.#options = options;
    this.identities = sessionTable(
      options.schema ?? 'public',
      `${options.tablePrefix ?? 'treeagent_'}channel_identities`,
      'channel identities table',
    );
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.identities} (
         channel text NOT NULL,
         conversation_id text NOT NULL,
         session_id text NOT NULL UNIQUE,
         conversation jsonb NOT NULL,
         created_at timestamptz NOT NULL,
         PRIMARY KEY (channel, conversation_id)
       )`,
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         seq bigserial PRIMARY KEY,
         id text NOT NULL UNIQUE,
         channel text NOT NULL,
         conversation_id text NOT NULL,
         session_id text NOT NULL,
         conversation jsonb NOT NULL,
         payload jsonb NOT NULL,
         status text NOT NULL,
         attempts integer NOT NULL,
         next_attempt_at timestamptz NOT NULL,
         last_error text
       )`,
      `CREATE INDEX IF NOT EXISTS ${this.index('channel_outbox_by_conversation')} ON ${this.table} (channel, conversation_id, status, seq)`,
      `CREATE INDEX IF NOT EXISTS ${this.index('channel_outbox_by_session')} ON ${this.table} (session_id)`,
    ];
  }

  /** The inbox of incoming messages (`<prefix>channel_inbox`), on this store's pool. */
  inbox(): PostgresChannelInbox {
    this.#inbox ??= new PostgresChannelInbox({
      pool: this.store.pool,
      schema: this.#options.schema,
      tablePrefix: this.#options.tablePrefix,
      autoMigrate: this.#options.autoMigrate,
    });
    return this.#inbox;
  }

  async sessionOf(conversation: ChannelConversation, newSessionId: string, now: Date): Promise<string> {
    return this.run(
      `map a conversation of channel "${conversation.channel}" to its session`,
      async (pool) => {
        const { rows } = await pool.query<{ session_id: string }>(
          `INSERT INTO ${this.identities} (channel, conversation_id, session_id, conversation, created_at)
         VALUES ($1, $2, $3, $4::jsonb, $5)
         ON CONFLICT (channel, conversation_id) DO UPDATE SET conversation = excluded.conversation
         RETURNING session_id`,
          [
            conversation.channel,
            conversation.conversationId,
            newSessionId,
            JSON.stringify(conversation),
            now,
          ],
        );
        return rows[0]!.session_id;
      },
    );
  }

  async conversationOf(sessionId: string): Promise<ChannelConversation | null> {
    return this.run(`read the channel conversation of session "${sessionId}"`, async (pool) => {
      const { rows } = await pool.query<{ conversation: ChannelConversation }>(
        `SELECT conversation FROM ${this.identities} WHERE session_id = $1`,
        [sessionId],
      );
      return rows[0]?.conversation ?? null;
    });
  }

  /** Makes the tables (a session store calls it before a commit that adds to the outbox). */
  async ready(): Promise<void> {
    await this.run('create the channel tables', async () => {});
  }

  /** Adds `deliveries` with `client` (a session store's commit transaction); ids already there are skipped. */
  async insertWith(
    client: pg.ClientBase | pg.Pool,
    deliveries: readonly ChannelDeliveryInput[],
    now: Date,
  ): Promise<void> {
    if (deliveries.length === 0) return;
    await client.query(
      `INSERT INTO ${this.table}
         (id, channel, conversation_id, session_id, conversation, payload, status, attempts, next_attempt_at)
       SELECT d->>'id', d->'conversation'->>'channel', d->'conversation'->>'conversationId', d->>'sessionId',
              d->'conversation', d->'payload', 'pending', 0, $2
         FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS input(d, ord) ORDER BY ord
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(deliveries), now],
    );
  }

  async enqueue(deliveries: readonly ChannelDeliveryInput[], now: Date): Promise<void> {
    if (deliveries.length === 0) return;
    await this.run('add messages to the channel outbox', (pool) => this.insertWith(pool, deliveries, now));
  }

  async lease(now: Date, limit: number, leaseMs: number): Promise<ChannelDelivery[]> {
    if (limit < 1) return [];
    return this.run('lease messages of the channel outbox', async (pool) => {
      const { rows } = await pool.query<Row>(
        `UPDATE ${this.table} SET attempts = attempts + 1, next_attempt_at = $2
          WHERE seq IN (SELECT o.seq FROM ${this.table} o
                         WHERE o.status = 'pending' AND o.next_attempt_at <= $1
                           AND NOT EXISTS (SELECT 1 FROM ${this.table} p
                                            WHERE p.channel = o.channel AND p.conversation_id = o.conversation_id
                                              AND p.status = 'pending' AND p.seq < o.seq)
                         ORDER BY o.seq LIMIT $3
                         FOR UPDATE SKIP LOCKED)
          RETURNING ${COLUMNS}`,
        [now, new Date(now.getTime() + leaseMs), Math.trunc(limit)],
      );
      return rows.sort((a, b) => Number(a.seq) - Number(b.seq)).map(delivery);
    });
  }

  async delivered(id: string): Promise<void> {
    await this.run(`remove the sent channel message ${id}`, (pool) =>
      pool.query(`DELETE FROM ${this.table} WHERE id = $1`, [id]),
    );
  }

  async failed(id: string, error: string, retryAt: Date | null, now: Date): Promise<void> {
    await this.run(`record a failed send of channel message ${id}`, (pool) =>
      pool.query(
        `UPDATE ${this.table} SET last_error = $2,
           status = CASE WHEN $3::timestamptz IS NULL THEN 'dead' ELSE status END,
           next_attempt_at = COALESCE($3::timestamptz, $4)
         WHERE id = $1`,
        [id, error, retryAt, now],
      ),
    );
  }

  async counts(): Promise<{ channel: string; pending: number; dead: number }[]> {
    return this.run('count the channel outbox', async (pool) => {
      const { rows } = await pool.query<{ channel: string; pending: string; dead: string }>(
        `SELECT channel, count(*) FILTER (WHERE status = 'pending') AS pending,
                count(*) FILTER (WHERE status = 'dead') AS dead
           FROM ${this.table} GROUP BY channel ORDER BY channel`,
      );
      return rows.map((row) => ({
        channel: row.channel,
        pending: Number(row.pending),
        dead: Number(row.dead),
      }));
    });
  }

  async deadLetters(limit?: number): Promise<ChannelDelivery[]> {
    return this.run('read the dead letters of the channel outbox', async (pool) => {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${this.table} WHERE status = 'dead'
          ORDER BY next_attempt_at DESC, seq DESC LIMIT $1`,
        [channelDeadLetterLimit(limit)],
      );
      return rows.map(delivery);
    });
  }

  async retry(id: string, now: Date): Promise<boolean> {
    return this.run(`put channel message ${id} back in line`, async (pool) => {
      const result = await pool.query(
        `UPDATE ${this.table} SET status = 'pending', attempts = 0, next_attempt_at = $2
          WHERE id = $1 AND status = 'dead'`,
        [id, now],
      );
      return result.rowCount === 1;
    });
  }

  async sessionsOfUser(channel: string, userId: string): Promise<string[]> {
    return this.run(`find the channel sessions of a user of "${channel}"`, async (pool) => {
      const { rows } = await pool.query<{ session_id: string }>(
        `SELECT session_id FROM ${this.identities}
          WHERE channel = $1 AND conversation->>'userId' = $2 ORDER BY created_at, session_id`,
        [channel, userId],
      );
      return rows.map((row) => row.session_id);
    });
  }

  async sessionData(
    sessionIds: readonly string[],
  ): Promise<{ identities: ChannelIdentity[]; deliveries: ChannelDelivery[] }> {
    if (sessionIds.length === 0) return { identities: [], deliveries: [] };
    return this.run(`read the channel data of ${sessionIds.length} sessions`, async (pool) => {
      const ids = [...sessionIds];
      const identities = await pool.query<{
        session_id: string;
        conversation: ChannelConversation;
        created_at: Date;
      }>(
        `SELECT session_id, conversation, created_at FROM ${this.identities}
          WHERE session_id = ANY($1::text[]) ORDER BY created_at, session_id`,
        [ids],
      );
      const deliveries = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${this.table} WHERE session_id = ANY($1::text[]) ORDER BY seq`,
        [ids],
      );
      return {
        identities: identities.rows.map((row) => ({
          sessionId: row.session_id,
          conversation: row.conversation,
          createdAt: row.created_at.toISOString(),
        })),
        deliveries: deliveries.rows.map(delivery),
      };
    });
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    const inbox = await this.inbox().deleteSessions(sessionIds);
    return this.run(`delete the channel data of ${sessionIds.length} sessions`, async (pool) => {
      const ids = [...sessionIds];
      const { rows } = await pool.query<{ deleted: string }>(
        `WITH outbox AS (DELETE FROM ${this.table} WHERE session_id = ANY($1::text[]) RETURNING 1),
              identities AS (DELETE FROM ${this.identities} WHERE session_id = ANY($1::text[]) RETURNING 1)
         SELECT (SELECT count(*) FROM outbox) + (SELECT count(*) FROM identities) AS deleted`,
        [ids],
      );
      return inbox + Number(rows[0]?.deleted ?? 0);
    });
  }

  /** `VACUUM` of the channel tables (the inbox's too) after a deletion (docs/privacy.md). */
  override async purgeDeleted(): Promise<void> {
    await this.run('vacuum the channel tables', (pool: pg.Pool) =>
      vacuum(pool, [this.table, this.identities, this.inbox().table]),
    );
  }
}
