import { type HistoryEntry, TreeAgentError } from '@treeagent/core';
import {
  type AnalyticsStore,
  duplicateDelivery,
  type HistoryQuery,
  type InboundReceipt,
  type ReleaseLock,
  type SessionCommit,
  type SessionRecord,
  type SessionStore,
  type SqlRunner,
  TURN_FACT_COLUMNS,
  TurnFactsSql,
  turnFactValues,
} from '@treeagent/core/adapter';
import type { TurnFact } from '@treeagent/core/analytics';
import type pg from 'pg';
import { runMigration } from './migration.js';
import { PostgresChannelStore } from './postgres-channel-store.js';
import { PostgresHandoffOutbox } from './postgres-handoff-outbox.js';
import {
  createPool,
  type Endpoint,
  identifier,
  quoteIdent,
  retriedOnce,
  storeError,
  storePool,
  transaction,
  vacuum,
} from './sql.js';

export interface PostgresSessionStoreOptions {
  /**
   * Where PostgreSQL is: a `postgres://user:password@host:port/database` URL or a pg `PoolConfig`
   * (`host`, `port`, `user`, `password`, `database`, `ssl`, `max`…). Required unless `pool` is given.
   */
  connection?: string | pg.PoolConfig;
  /**
   * An existing pg pool for the store's queries (left open by `close()`). Session locks then use a
   * second, small pool made from its options.
   */
  pool?: pg.Pool;
  /** Schema of the tables; created when missing. Default `public`. */
  schema?: string;
  /** Prefix of the table names: `<prefix>sessions` and `<prefix>history`. Default `treeagent_`. */
  tablePrefix?: string;
  /**
   * Connections reserved for session locks. Each interaction holds one while it runs (or waits
   * for its session), so this bounds how many interactions one process runs at once. Default 10.
   */
  maxLocks?: number;
  /**
   * How long `lock` waits for a session that another interaction holds before failing with
   * `SESSION_STORE`. Default 120000 (2 minutes); `Infinity` waits until the lock is free or the
   * signal aborts.
   */
  lockTimeoutMs?: number;
  /** Create the tables on first use (idempotent, safe from several processes). Default `true`. */
  autoMigrate?: boolean;
}

/** `lock_timeout` of one wait for a session lock: the wait is renewed until the lock comes or the signal aborts. */
const LOCK_WAIT_MS = 2_000;
const LOCK_NOT_AVAILABLE = '55P03';
const QUERY_CANCELED = '57014';

/**
 * Sessions in PostgreSQL, for several server processes sharing them (docs/concepts.md §3): one row per
 * session with its record, the history appended as one row per entry (never rewritten), each
 * commit one transaction guarded by the session's version, and `lock()` a PostgreSQL advisory
 * lock held on a dedicated connection, so two processes never run the same session at once.
 *
 * @example
 * const sessionStore = new PostgresSessionStore({ connection: 'postgres://postgres@127.0.0.1:5432/app' });
 * const agent = new TreeAgent({ tree, sessionStore });
 * await agent.send('user-42', 'Ciao!');
 * await sessionStore.close();
 */
export class PostgresSessionStore implements SessionStore {
  /** Quoted, schema-qualified table names. */
  readonly tables: { sessions: string; history: string; turnFacts: string; receipts: string };
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #lockConfig: pg.PoolConfig;
  #lockPool: pg.Pool | null = null;
  readonly #endpoint: Endpoint;
  readonly #schema: string;
  readonly #prefix: string;
  readonly #lockSpace: number;
  readonly #autoMigrate: boolean;
  readonly #lockTimeoutMs: number;
  readonly #migrateOnce = retriedOnce(() => this.migrate());
  #closed = false;
  #outbox: PostgresHandoffOutbox | null = null;
  #channels: PostgresChannelStore | null = null;

  constructor(options: PostgresSessionStoreOptions) {
    this.#schema = options.schema ?? 'public';
    this.#prefix = options.tablePrefix ?? 'treeagent_';
    const schema = identifier(this.#schema, 'schema', 'SESSION_STORE');
    this.tables = {
      sessions: `${schema}.${identifier(`${this.#prefix}sessions`, 'sessions table', 'SESSION_STORE')}`,
      history: `${schema}.${identifier(`${this.#prefix}history`, 'history table', 'SESSION_STORE')}`,
      turnFacts: `${schema}.${identifier(`${this.#prefix}turn_facts`, 'turn facts table', 'SESSION_STORE')}`,
      receipts: `${schema}.${identifier(`${this.#prefix}channel_receipts`, 'channel receipts table', 'SESSION_STORE')}`,
    };
    const { pool, ownsPool, config, endpoint } = storePool(options, 'SESSION_STORE', 'PostgresSessionStore');
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#lockConfig = { ...config, max: options.maxLocks ?? 10 };
    this.#endpoint = endpoint;
    this.#lockSpace = lockSpace(`${this.#schema}.${this.#prefix}`);
    this.#autoMigrate = options.autoMigrate ?? true;
    this.#lockTimeoutMs = options.lockTimeoutMs ?? 120_000;
    if (!(this.#lockTimeoutMs >= 0)) {
      throw new TreeAgentError('SESSION_STORE', `lockTimeoutMs must be ≥ 0, got ${options.lockTimeoutMs}.`);
    }
  }

  /** Where the store connects (no password), for logs. */
  get endpoint(): Endpoint {
    return { ...this.#endpoint };
  }

  /**
   * Creates the schema and the tables when missing. Idempotent, and serialised with every store's
   * migration in the schema by an advisory lock (`runMigration`), so several processes may start at
   * once; does nothing (and needs no CREATE privilege) when they exist.
   */
  async migrate(): Promise<void> {
    try {
      await this.#migrate();
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', 'create the session tables', this.#endpoint);
    }
  }

  async #migrate(): Promise<void> {
    const index = (suffix: string) => quoteIdent(`${this.#prefix}turn_facts_${suffix}`);
    await runMigration(this.#pool, {
      schema: this.#schema,
      statements: [
        `
        CREATE TABLE IF NOT EXISTS ${this.tables.sessions} (
          id             text PRIMARY KEY,
          version        integer NOT NULL,
          history_length integer NOT NULL DEFAULT 0,
          record         json NOT NULL,
          updated_at     timestamptz NOT NULL DEFAULT now()
        )`,
        `
        CREATE TABLE IF NOT EXISTS ${this.tables.history} (
          session_id text NOT NULL REFERENCES ${this.tables.sessions} (id) ON DELETE CASCADE,
          seq        integer NOT NULL,
          entry      json NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (session_id, seq)
        )`,
        // Turn facts (docs/analytics.md): one row per turn, written in the turn's commit. No foreign
        // key: a failed first turn has a fact and no session; delete() removes them explicitly.
        `
        CREATE TABLE IF NOT EXISTS ${this.tables.turnFacts} (
          session_id       text NOT NULL,
          turn             integer NOT NULL,
          at               text NOT NULL,
          day              text NOT NULL,
          tree_version     text NOT NULL,
          status           text NOT NULL,
          error_code       text,
          node_id          integer,
          agent_id         integer,
          best_similarity  double precision,
          min_margin       double precision,
          low_node_id      integer,
          low_child_id     integer,
          low_runner_up_id integer,
          fail_counter     integer NOT NULL,
          latency_ms       double precision NOT NULL,
          input_tokens     integer,
          output_tokens    integer,
          message          text NOT NULL,
          decisions        text NOT NULL,
          label            text,
          labelled_at      text,
          PRIMARY KEY (session_id, turn, at)
        )`,
        `CREATE INDEX IF NOT EXISTS ${index('by_day')} ON ${this.tables.turnFacts} (day, tree_version)`,
        `CREATE INDEX IF NOT EXISTS ${index('labelled')} ON ${this.tables.turnFacts} (labelled_at) WHERE label IS NOT NULL`,
        // The platform message ids of messaging channels, written in the turn's commit (docs/channels.md).
        `
        CREATE TABLE IF NOT EXISTS ${this.tables.receipts} (
          channel    text NOT NULL,
          message_id text NOT NULL,
          session_id text NOT NULL,
          at         timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (channel, message_id)
        )`,
        `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${this.#prefix}channel_receipts_by_session`)} ON ${this.tables.receipts} (session_id)`,
      ],
    });
  }

  async #ready(): Promise<void> {
    if (this.#closed) throw new TreeAgentError('SESSION_STORE', 'The PostgresSessionStore is closed.');
    if (this.#autoMigrate) await this.#migrateOnce();
  }

  async #run<T>(operation: string, body: () => Promise<T>): Promise<T> {
    await this.#ready();
    try {
      return await body();
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', operation, this.#endpoint);
    }
  }

  async load(sessionId: string): Promise<SessionRecord | null> {
    return this.#run(`load session "${sessionId}"`, async () => {
      const { rows } = await this.#pool.query<{ record: SessionRecord }>(
        `SELECT record FROM ${this.tables.sessions} WHERE id = $1`,
        [sessionId],
      );
      return rows[0]?.record ?? null;
    });
  }

  async history(sessionId: string, query: HistoryQuery = {}): Promise<HistoryEntry[]> {
    const { limit } = query;
    if (limit !== undefined && limit <= 0) return [];
    return this.#run(`read the history of session "${sessionId}"`, async () => {
      if (limit === undefined || !Number.isFinite(limit)) {
        const { rows } = await this.#pool.query<{ entry: HistoryEntry }>(
          `SELECT entry FROM ${this.tables.history} WHERE session_id = $1 ORDER BY seq`,
          [sessionId],
        );
        return rows.map((row) => row.entry);
      }
      // Only the last rows are read (the primary key index, backwards).
      const { rows } = await this.#pool.query<{ entry: HistoryEntry }>(
        `SELECT entry FROM (
           SELECT seq, entry FROM ${this.tables.history} WHERE session_id = $1 ORDER BY seq DESC LIMIT $2
         ) AS last ORDER BY seq`,
        [sessionId, Math.ceil(limit)],
      );
      return rows.map((row) => row.entry);
    });
  }

  /**
   * Analytics and review over the turn facts (docs/analytics.md): SQL on the store's pool, nothing
   * loaded whole.
   */
  analytics(now?: () => Date): AnalyticsStore {
    const run: SqlRunner = (sql, params) =>
      this.#run('query the turn facts', async () => {
        let index = 0;
        const text = sql.replace(/\?/g, () => `$${++index}`);
        const { rows } = await this.#pool.query(text, params as unknown[]);
        return rows as Record<string, unknown>[];
      });
    return new TurnFactsSql(run, this.tables.turnFacts, 'postgres', now);
  }

  /**
   * The webhook's outbox (`<prefix>handoff_outbox`, on this store's pool); from this call on, each
   * commit that starts or ends a handoff writes its events there in the commit's own transaction
   * (docs/handoff.md). The server calls it when a webhook is configured.
   */
  handoffOutbox(): PostgresHandoffOutbox {
    this.#outbox ??= new PostgresHandoffOutbox({
      pool: this.#pool,
      schema: this.#schema,
      tablePrefix: this.#prefix,
      autoMigrate: this.#autoMigrate,
    });
    return this.#outbox;
  }

  /**
   * The messaging channels' identities and outbox (`<prefix>channel_identities`, `<prefix>channel_outbox`,
   * on this store's pool), shared by every process (docs/channels.md).
   */
  channelStore(): PostgresChannelStore {
    this.#channels ??= new PostgresChannelStore({
      pool: this.#pool,
      schema: this.#schema,
      tablePrefix: this.#prefix,
      autoMigrate: this.#autoMigrate,
    });
    return this.#channels;
  }

  async hasReceipt(receipt: InboundReceipt): Promise<boolean> {
    return this.#run(`look up update ${receipt.messageId} of channel "${receipt.channel}"`, async () => {
      const { rowCount } = await this.#pool.query(
        `SELECT 1 FROM ${this.tables.receipts} WHERE channel = $1 AND message_id = $2`,
        [receipt.channel, receipt.messageId],
      );
      return rowCount === 1;
    });
  }

  /** `VACUUM` of its tables (sessions, history, turn facts) after a deletion (see `vacuum` in sql.ts; docs/privacy.md). */
  async purgeDeleted(): Promise<void> {
    await this.#run('vacuum the session tables', () =>
      vacuum(this.#pool, [
        this.tables.sessions,
        this.tables.history,
        this.tables.turnFacts,
        this.tables.receipts,
      ]),
    );
  }

  async recordFacts(facts: TurnFact[]): Promise<void> {
    if (facts.length === 0) return;
    await this.#run('record turn facts', () => this.#insertFacts(this.#pool, facts));
  }

  async #insertFacts(client: pg.Pool | pg.PoolClient, facts: readonly TurnFact[]): Promise<void> {
    const width = TURN_FACT_COLUMNS.length;
    const values = facts.map(
      (_, row) => `(${TURN_FACT_COLUMNS.map((__, column) => `$${row * width + column + 1}`).join(', ')})`,
    );
    const updates = TURN_FACT_COLUMNS.filter(
      (column) => column !== 'session_id' && column !== 'turn' && column !== 'at',
    )
      .map((column) => `${column} = excluded.${column}`)
      .join(', ');
    await client.query(
      `INSERT INTO ${this.tables.turnFacts} (${TURN_FACT_COLUMNS.join(', ')}) VALUES ${values.join(', ')}
       ON CONFLICT (session_id, turn, at) DO UPDATE SET ${updates}`,
      facts.flatMap(turnFactValues),
    );
  }

  async commit({
    record,
    history,
    expectedVersion,
    facts = [],
    handoffEvents = [],
    inbound,
    outbound = [],
  }: SessionCommit): Promise<void> {
    const id = record.id;
    const recordJson = JSON.stringify(record);
    const entries = history.map((entry) => JSON.stringify(entry));
    const outbox = handoffEvents.length ? this.#outbox : null;
    if (outbox) await outbox.ready();
    const channels = outbound.length ? this.channelStore() : null;
    if (channels) await channels.ready();
    const inbox = inbound ? this.channelStore().inbox() : null;
    if (inbox) await inbox.ready();
    await this.#run(`commit session "${id}"`, () =>
      transaction(this.#pool, async (client) => {
        // The update's receipt first: a redelivery is refused before anything is written (exactly
        // once); a concurrent insert of the same receipt waits for this transaction, then finds it.
        if (inbound) {
          const receipt = await client.query(
            `INSERT INTO ${this.tables.receipts} (channel, message_id, session_id) VALUES ($1, $2, $3)
             ON CONFLICT (channel, message_id) DO NOTHING`,
            [inbound.channel, inbound.messageId, id],
          );
          if (receipt.rowCount !== 1) throw duplicateDelivery(id, inbound);
          // The update's inbox entry goes in the same transaction: a committed turn is never taken again.
          await inbox?.doneWith(client, inbound.channel, inbound.messageId);
        }
        // The version check and the write are one statement: a concurrent commit waits for the row
        // lock, then sees the new version and matches nothing.
        const updated = await client.query<{ start: number }>(
          `UPDATE ${this.tables.sessions}
              SET version = $2, record = $3::json, history_length = history_length + $4::int, updated_at = now()
            WHERE id = $1 AND version = $5
        RETURNING history_length - $4::int AS start`,
          [id, record.version, recordJson, entries.length, expectedVersion],
        );
        let start: number;
        if (updated.rowCount === 1) {
          start = updated.rows[0]!.start;
        } else {
          const inserted =
            expectedVersion === 0
              ? await client.query(
                  `INSERT INTO ${this.tables.sessions} (id, version, record, history_length)
                   VALUES ($1, $2, $3::json, $4::int) ON CONFLICT (id) DO NOTHING`,
                  [id, record.version, recordJson, entries.length],
                )
              : null;
          if (inserted?.rowCount !== 1) {
            const { rows } = await client.query<{ version: number }>(
              `SELECT version FROM ${this.tables.sessions} WHERE id = $1`,
              [id],
            );
            const current = rows[0]?.version ?? 0;
            throw new TreeAgentError(
              'SESSION_CONFLICT',
              `Session "${id}" changed during the interaction (version ${current}, expected ${expectedVersion}).`,
              { details: { sessionId: id } },
            );
          }
          start = 0;
        }
        if (entries.length > 0) {
          await client.query(
            `INSERT INTO ${this.tables.history} (session_id, seq, entry)
             SELECT $1, $2::int + ord::int, entry FROM unnest($3::json[]) WITH ORDINALITY AS h(entry, ord)`,
            [id, start, entries],
          );
        }
        // The turn's analytics row, in the same transaction (docs/analytics.md).
        if (facts.length > 0) await this.#insertFacts(client, facts);
        // The handoff's webhook events, in the same transaction: no transition without its delivery.
        if (outbox) await outbox.insertWith(client, handoffEvents, new Date());
        // The answer to the channel, in the same transaction: no answer committed without its delivery.
        if (channels) await channels.insertWith(client, outbound, new Date());
      }),
    );
  }

  async delete(sessionId: string): Promise<void> {
    await this.#run(`delete session "${sessionId}"`, async () => {
      // The history goes with it (ON DELETE CASCADE); the turn facts are deleted in the same transaction.
      await transaction(this.#pool, async (client) => {
        await client.query(`DELETE FROM ${this.tables.sessions} WHERE id = $1`, [sessionId]);
        await client.query(`DELETE FROM ${this.tables.turnFacts} WHERE session_id = $1`, [sessionId]);
        await client.query(`DELETE FROM ${this.tables.receipts} WHERE session_id = $1`, [sessionId]);
      });
    });
  }

  /** Deletes the sessions' records, histories (cascade) and turn facts in one transaction. */
  async deleteSessions(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await this.#run(`delete ${sessionIds.length} sessions`, () =>
      transaction(this.#pool, async (client) => {
        const ids = [...sessionIds];
        await client.query(`DELETE FROM ${this.tables.sessions} WHERE id = ANY($1::text[])`, [ids]);
        await client.query(`DELETE FROM ${this.tables.turnFacts} WHERE session_id = ANY($1::text[])`, [ids]);
        await client.query(`DELETE FROM ${this.tables.receipts} WHERE session_id = ANY($1::text[])`, [ids]);
      }),
    );
  }

  /**
   * Waits until no other holder (in any process) has `sessionId`'s lock, takes it and returns its
   * release. The lock is a session-level `pg_advisory_lock` on a dedicated connection: if the
   * process dies, PostgreSQL frees it when the connection drops. `signal` abandons the wait with
   * `ABORTED`.
   */
  async lock(sessionId: string, signal?: AbortSignal): Promise<ReleaseLock> {
    if (this.#closed) throw new TreeAgentError('SESSION_STORE', 'The PostgresSessionStore is closed.');
    throwIfAborted(signal, sessionId);
    this.#lockPool ??= createPool(this.#lockConfig);
    const operation = `lock session "${sessionId}"`;
    let client: pg.PoolClient;
    try {
      client = await abortable(this.#lockPool.connect(), signal, sessionId);
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', operation, this.#endpoint);
    }
    const key = [this.#lockSpace, sessionId];
    const onAbort = () => {
      // Cancels the wait at once instead of at the end of the current lock_timeout.
      const pid = (client as unknown as { processID?: number }).processID;
      if (pid) this.#pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => {});
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const deadline = performance.now() + this.#lockTimeoutMs;
    try {
      for (let wait = -1; ; ) {
        throwIfAborted(signal, sessionId);
        const left = deadline - performance.now();
        if (left <= 0) {
          throw new TreeAgentError(
            'SESSION_STORE',
            `Session "${sessionId}" is busy: another interaction (in this or another process) held it for more than ${this.#lockTimeoutMs} ms. Retry later.`,
            { details: { sessionId, operation: 'lock' } },
          );
        }
        // Each wait is bounded by lock_timeout, so the deadline and the signal are checked again.
        const next = Math.max(1, Math.min(LOCK_WAIT_MS, Math.ceil(left)));
        if (next !== wait) {
          wait = next;
          await client.query(`SELECT set_config('lock_timeout', $1, false)`, [`${wait}ms`]);
        }
        try {
          await client.query('SELECT pg_advisory_lock($1::int, hashtext($2::text))', key);
          break;
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (code === LOCK_NOT_AVAILABLE || (code === QUERY_CANCELED && signal?.aborted)) continue;
          throw error;
        }
      }
      if (signal?.aborted) {
        await client.query('SELECT pg_advisory_unlock($1::int, hashtext($2::text))', key);
        throwIfAborted(signal, sessionId);
      }
    } catch (error) {
      signal?.removeEventListener('abort', onAbort);
      // A late cancel may hit a later statement: never reuse this connection.
      client.release(true);
      if (TreeAgentError.isInstance(error)) throw error;
      throwIfAborted(signal, sessionId);
      throw storeError(error, 'SESSION_STORE', operation, this.#endpoint);
    }
    signal?.removeEventListener('abort', onAbort);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      try {
        await client.query('SELECT pg_advisory_unlock($1::int, hashtext($2::text))', key);
        await client.query('RESET lock_timeout');
        client.release();
      } catch (error) {
        // The connection is gone (or was cancelled): closing it frees the lock on the server.
        client.release(error as Error);
      }
    };
  }

  /** Closes the pools this store made (a `pool` passed in is left open). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const lockPool = this.#lockPool;
    await Promise.all([this.#ownsPool ? this.#pool.end() : undefined, lockPool?.end()]);
  }
}

/** Waits for a pooled connection, or throws `ABORTED` first (the connection, when it comes, goes back to the pool). */
function abortable(
  connecting: Promise<pg.PoolClient>,
  signal: AbortSignal | undefined,
  sessionId: string,
): Promise<pg.PoolClient> {
  if (!signal) return connecting;
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      try {
        throwIfAborted(signal, sessionId);
      } catch (error) {
        reject(error);
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    connecting.then(
      (client) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) client.release();
        else resolve(client);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function throwIfAborted(signal: AbortSignal | undefined, sessionId: string): void {
  if (!signal?.aborted) return;
  throw new TreeAgentError(
    'ABORTED',
    `Waiting for the lock of session "${sessionId}" was cancelled by the caller; nothing was saved.`,
    { cause: signal.reason, details: { sessionId } },
  );
}

/** A stable 32-bit key (FNV-1a) naming this store's advisory locks, so other lock users do not collide. */
function lockSpace(name: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(`treeagent:${name}`)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}
