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
import type Database from 'better-sqlite3';
import { type SessionLockOptions, SessionLocks } from './session-locks.js';
import { SqliteChannelStore } from './sqlite-channel-store.js';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { guard } from './sqlite-errors.js';
import { SqliteHandoffOutbox } from './sqlite-handoff-outbox.js';
import { SqliteReadWorker } from './sqlite-read-worker.js';
import { StoreHandle } from './store-handle.js';

export interface SqliteSessionStoreOptions extends SqliteDatabaseOptions {
  /** Cross-process session locks (`lock`): lease and wait limit. */
  lock?: SessionLockOptions;
  /**
   * Where the analytics queries (`analytics()`: report, unmatched, review) read: `thread` (default for
   * a file) on a worker thread with its own read-only connection, so a report over a million turns
   * never stops the server's event loop; `inline` on the store's connection (`:memory:` always).
   * Writes (labels, purges) stay on the store's connection.
   */
  analyticsReads?: 'thread' | 'inline';
}

/** Sessions, their append-only history and the cross-process locks. */
export const SESSION_SCHEMA: SchemaMigrations = {
  component: 'sessions',
  migrations: [
    `CREATE TABLE sessions (
       id TEXT PRIMARY KEY NOT NULL,
       version INTEGER NOT NULL,
       record TEXT NOT NULL,
       updated_at TEXT NOT NULL
     );
     CREATE TABLE session_history (
       session_id TEXT NOT NULL,
       seq INTEGER NOT NULL,
       entry TEXT NOT NULL
     );
     CREATE UNIQUE INDEX session_history_by_session ON session_history (session_id, seq);
     CREATE TABLE session_locks (
       session_id TEXT PRIMARY KEY NOT NULL,
       owner TEXT NOT NULL,
       expires_at INTEGER NOT NULL
     ) WITHOUT ROWID;`,
    // Turn facts (docs/analytics.md): one row per turn, written in the turn's commit.
    `CREATE TABLE turn_facts (
       session_id TEXT NOT NULL,
       turn INTEGER NOT NULL,
       at TEXT NOT NULL,
       day TEXT NOT NULL,
       tree_version TEXT NOT NULL,
       status TEXT NOT NULL,
       error_code TEXT,
       node_id INTEGER,
       agent_id INTEGER,
       best_similarity REAL,
       min_margin REAL,
       low_node_id INTEGER,
       low_child_id INTEGER,
       low_runner_up_id INTEGER,
       fail_counter INTEGER NOT NULL,
       latency_ms REAL NOT NULL,
       input_tokens INTEGER,
       output_tokens INTEGER,
       message TEXT NOT NULL,
       decisions TEXT NOT NULL,
       label TEXT,
       labelled_at TEXT,
       PRIMARY KEY (session_id, turn, at)
     );
     CREATE INDEX turn_facts_by_day ON turn_facts (day, tree_version);
     CREATE INDEX turn_facts_labelled ON turn_facts (labelled_at) WHERE label IS NOT NULL;`,
    // The report's columns in one covering index, so the report reads the index alone and never the
    // rows (whose messages and decisions make them wide): bench/analytics/report-1m.ts.
    `DROP INDEX turn_facts_by_day;
     CREATE INDEX turn_facts_report ON turn_facts (
       day, tree_version, session_id, turn, at, status, node_id, agent_id, latency_ms, min_margin,
       low_node_id, low_child_id, low_runner_up_id, input_tokens, output_tokens
     );`,
    // The platform message ids of messaging channels, written in the turn's commit (docs/channels.md).
    `CREATE TABLE channel_receipts (
       channel TEXT NOT NULL,
       message_id TEXT NOT NULL,
       session_id TEXT NOT NULL,
       at TEXT NOT NULL,
       PRIMARY KEY (channel, message_id)
     ) WITHOUT ROWID;
     CREATE INDEX channel_receipts_by_session ON channel_receipts (session_id);`,
  ],
};

/** A statement that only reads (the analytics queries the worker thread may run). */
const READ_ONLY = /^\s*(?:SELECT|WITH)\b/i;

const INSERT_FACT = `INSERT OR REPLACE INTO turn_facts (${TURN_FACT_COLUMNS.join(', ')})
  VALUES (${TURN_FACT_COLUMNS.map(() => '?').join(', ')})`;

/**
 * Sessions in a SQLite file: survives restarts, and several processes may share the file (their
 * interactions on one session are serialised by `lock`). A commit is one `BEGIN IMMEDIATE`
 * transaction that checks the version, writes the record, appends the turn's history rows and
 * (when it `endsInteraction`) frees the session's lock row, so a turn costs the same however long the conversation is and
 * writes twice (lock, commit). The WAL is checkpointed on a background thread (`checkpoint`).
 *
 * @example
 * const sessionStore = new SqliteSessionStore('.data/treeagent.db');
 * const agent = new TreeAgent({ tree, sessionStore });
 */
export class SqliteSessionStore implements SessionStore {
  readonly file: string;
  readonly #handle: StoreHandle;
  readonly #locks: SessionLocks;
  readonly #load: Database.Statement;
  readonly #historyAll: Database.Statement;
  readonly #historyLast: Database.Statement;
  readonly #commit: (commit: SessionCommit, record: string, entries: string[]) => (() => void) | null;
  readonly #delete: (sessionId: string) => void;
  readonly #deleteMany: (sessionIds: readonly string[]) => void;
  readonly #insertFacts: (facts: readonly TurnFact[]) => void;
  readonly #database: SqliteDatabase;
  readonly #reads: SqliteReadWorker | null;
  #analytics: TurnFactsSql | null = null;
  #outbox: SqliteHandoffOutbox | null = null;
  #channels: SqliteChannelStore | null = null;
  readonly #hasReceipt: Database.Statement;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteSessionStoreOptions = {}) {
    const database = typeof file === 'string' ? new SqliteDatabase(file, options, 'SESSION_STORE') : file;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite session store (${database.file})`);
    try {
      database.migrate(SESSION_SCHEMA, 'SESSION_STORE');
      const db = database.connection;
      const [
        load,
        historyAll,
        historyLast,
        version,
        lastSeq,
        upsert,
        append,
        deleteRecord,
        deleteHistory,
        insertFact,
        deleteFacts,
        insertReceipt,
        hasReceipt,
        deleteReceipts,
      ] = guard(
        'SESSION_STORE',
        this.#handle.where,
        () => 'prepare its statements',
        () => [
          db.prepare('SELECT record FROM sessions WHERE id = ?'),
          db.prepare('SELECT entry FROM session_history WHERE session_id = ? ORDER BY seq'),
          db.prepare('SELECT entry FROM session_history WHERE session_id = ? ORDER BY seq DESC LIMIT ?'),
          db.prepare('SELECT version FROM sessions WHERE id = ?'),
          db.prepare('SELECT max(seq) AS seq FROM session_history WHERE session_id = ?'),
          db.prepare(
            `INSERT INTO sessions (id, version, record, updated_at) VALUES (?, ?, ?, ?)
               ON CONFLICT (id) DO UPDATE SET
                 version = excluded.version, record = excluded.record, updated_at = excluded.updated_at`,
          ),
          db.prepare('INSERT INTO session_history (session_id, seq, entry) VALUES (?, ?, ?)'),
          db.prepare('DELETE FROM sessions WHERE id = ?'),
          db.prepare('DELETE FROM session_history WHERE session_id = ?'),
          db.prepare(INSERT_FACT),
          db.prepare('DELETE FROM turn_facts WHERE session_id = ?'),
          db.prepare(
            `INSERT INTO channel_receipts (channel, message_id, session_id, at) VALUES (?, ?, ?, ?)
               ON CONFLICT (channel, message_id) DO NOTHING`,
          ),
          db.prepare('SELECT 1 FROM channel_receipts WHERE channel = ? AND message_id = ?'),
          db.prepare('DELETE FROM channel_receipts WHERE session_id = ?'),
        ],
      );
      this.#load = load;
      this.#historyAll = historyAll;
      this.#historyLast = historyLast;
      this.#hasReceipt = hasReceipt;
      const commit = db.transaction(
        (
          {
            record,
            expectedVersion,
            endsInteraction,
            facts = [],
            handoffEvents = [],
            inbound,
            outbound = [],
          }: SessionCommit,
          json: string,
          entries: string[],
        ) => {
          const current = (version.get(record.id) as { version: number } | undefined)?.version ?? 0;
          if (current !== expectedVersion) {
            throw new TreeAgentError(
              'SESSION_CONFLICT',
              `Session "${record.id}" changed during the interaction (version ${current}, expected ${expectedVersion}).`,
              { details: { sessionId: record.id } },
            );
          }
          // The update's receipt first: a redelivery is refused before anything is written (exactly once).
          if (inbound) {
            const at = new Date().toISOString();
            if (insertReceipt.run(inbound.channel, inbound.messageId, record.id, at).changes === 0)
              throw duplicateDelivery(record.id, inbound);
            // The update's inbox entry goes in the same write: a committed turn is never taken again.
            this.#channels?.inbox().doneInTransaction(inbound.channel, inbound.messageId);
          }
          upsert.run(record.id, record.version, json, record.updatedAt);
          let seq = (lastSeq.get(record.id) as { seq: number | null }).seq ?? 0;
          for (const entry of entries) append.run(record.id, ++seq, entry);
          // The turn's analytics row, in the same transaction (docs/analytics.md).
          for (const fact of facts) insertFact.run(turnFactValues(fact));
          // The handoff's webhook events, in the same transaction: no transition without its delivery.
          if (this.#outbox && handoffEvents.length)
            this.#outbox.insertInTransaction(handoffEvents, new Date());
          // The answer to the channel, in the same transaction: no answer committed without its delivery.
          if (outbound.length) this.#channels!.insertInTransaction(outbound, new Date());
          // The commit ends the interaction: its lock row goes in the same write.
          return endsInteraction ? this.#locks.deleteInCommit(record.id) : null;
        },
      );
      this.#commit = (value, json, entries) => {
        const committed = commit.immediate(value, json, entries);
        database.wrote();
        return committed;
      };
      const remove = db.transaction((sessionId: string) => {
        deleteRecord.run(sessionId);
        deleteHistory.run(sessionId);
        deleteFacts.run(sessionId);
        deleteReceipts.run(sessionId);
      });
      const insertFacts = db.transaction((facts: readonly TurnFact[]) => {
        for (const fact of facts) insertFact.run(turnFactValues(fact));
      });
      this.#insertFacts = (facts) => {
        insertFacts.immediate(facts);
        database.wrote();
      };
      this.#delete = (sessionId) => {
        remove.immediate(sessionId);
        database.wrote();
      };
      const removeMany = db.transaction((sessionIds: readonly string[]) => {
        for (const sessionId of sessionIds) remove(sessionId);
      });
      this.#deleteMany = (sessionIds) => {
        removeMany.immediate(sessionIds);
        database.wrote();
      };
      this.#locks = new SessionLocks(db, this.#handle.where, options.lock);
    } catch (error) {
      // A connection this store opened must not outlive a failed construction.
      if (typeof file === 'string') database.close();
      throw error;
    }
    database.retain();
    this.#database = database;
    const reads = options.analyticsReads ?? 'thread';
    if (reads !== 'thread' && reads !== 'inline') {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `analyticsReads must be "thread" or "inline"; got ${JSON.stringify(options.analyticsReads)}.`,
      );
    }
    this.#reads =
      reads === 'thread' && database.file !== ':memory:'
        ? new SqliteReadWorker(database.file, options.busyTimeoutMs ?? 5000)
        : null;
  }

  /**
   * Analytics and review over this file's turn facts (docs/analytics.md): SQL on the same
   * connection, nothing loaded whole.
   */
  analytics(now?: () => Date): AnalyticsStore {
    if (now) return this.#analyticsOver(now);
    this.#analytics ??= this.#analyticsOver();
    return this.#analytics;
  }

  #analyticsOver(now?: () => Date): TurnFactsSql {
    const db = this.#database.connection;
    const statements = new Map<string, Database.Statement>();
    const reads = this.#reads;
    const run: SqlRunner = async (sql, params) => {
      // Reads on the worker thread; writes (labels, purges) here, where the store's writes are.
      if (reads && READ_ONLY.test(sql)) {
        this.#handle.checkOpen('query the turn facts');
        return reads.query(sql, params);
      }
      return this.#run('query the turn facts', () => {
        let statement = statements.get(sql);
        if (!statement) {
          statement = db.prepare(sql);
          statements.set(sql, statement);
        }
        if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
        statement.run(...params);
        return [];
      });
    };
    return new TurnFactsSql(run, 'turn_facts', 'sqlite', now);
  }

  /**
   * The webhook's outbox in this file; from this call on, each commit that starts or ends a
   * handoff writes its events there in the commit's own transaction (docs/handoff.md). The server
   * calls it when a webhook is configured.
   */
  handoffOutbox(): SqliteHandoffOutbox {
    this.#outbox ??= this.#run('open the handoff outbox', () => new SqliteHandoffOutbox(this.#database));
    return this.#outbox;
  }

  /**
   * The messaging channels' identities and outbox in this file (docs/channels.md), shared by every
   * process on the file.
   */
  channelStore(): SqliteChannelStore {
    this.#channels ??= this.#run('open the channel store', () => new SqliteChannelStore(this.#database));
    return this.#channels;
  }

  async hasReceipt(receipt: InboundReceipt): Promise<boolean> {
    return this.#run(`look up update ${receipt.messageId} of channel "${receipt.channel}"`, () =>
      Boolean(this.#hasReceipt.get(receipt.channel, receipt.messageId)),
    );
  }

  async recordFacts(facts: TurnFact[]): Promise<void> {
    if (facts.length === 0) return;
    this.#run('record turn facts', () => this.#insertFacts(facts));
  }

  async load(sessionId: string): Promise<SessionRecord | null> {
    return this.#run(`load session "${sessionId}"`, () => {
      const row = this.#load.get(sessionId) as { record: string } | undefined;
      return row ? (JSON.parse(row.record) as SessionRecord) : null;
    });
  }

  async history(sessionId: string, query: HistoryQuery = {}): Promise<HistoryEntry[]> {
    return this.#run(`read the history of session "${sessionId}"`, () => {
      const { limit } = query;
      if (limit === undefined) {
        return (this.#historyAll.all(sessionId) as { entry: string }[]).map(parseEntry);
      }
      if (!(limit > 0)) return [];
      const rows = this.#historyLast.all(sessionId, Math.ceil(Math.min(limit, Number.MAX_SAFE_INTEGER))) as {
        entry: string;
      }[];
      return rows.reverse().map(parseEntry);
    });
  }

  async commit(commit: SessionCommit): Promise<void> {
    const { record, history } = commit;
    // Opened before the transaction (its tables are made on first use).
    if (commit.outbound?.length || commit.inbound) this.channelStore().inbox();
    this.#run(`commit session "${record.id}"`, () => {
      // Serialised before the transaction, so the write lock is held only for the writes.
      const json = JSON.stringify(record);
      const entries = history.map((entry) => JSON.stringify(entry));
      this.#commit(commit, json, entries)?.();
    });
  }

  async delete(sessionId: string): Promise<void> {
    this.#run(`delete session "${sessionId}"`, () => this.#delete(sessionId));
  }

  /** Deletes the sessions' records, histories and turn facts in one `BEGIN IMMEDIATE` transaction. */
  async deleteSessions(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    this.#run(`delete ${sessionIds.length} sessions`, () => this.#deleteMany(sessionIds));
  }

  /**
   * Serialises interactions on `sessionId` across every process (and store) sharing the file. Waits
   * with backoff while another holder has it; a holder that died loses it when its lease expires.
   */
  async lock(sessionId: string, signal?: AbortSignal): Promise<ReleaseLock> {
    this.#handle.checkOpen(`lock session "${sessionId}"`);
    return this.#locks.acquire(sessionId, signal);
  }

  /** Empties the WAL after a deletion, so no earlier image of deleted rows stays in it (docs/privacy.md). */
  async purgeDeleted(): Promise<void> {
    this.#handle.purgeDeleted();
  }

  /** Releases the locks this store holds and closes the file (when no other store shares it). */
  async close(): Promise<void> {
    await this.#outbox?.close();
    await this.#channels?.close();
    await this.#reads?.close();
    this.#handle.close(() => this.#locks.releaseAll());
  }

  #run<T>(what: string, body: () => T): T {
    return this.#handle.run(what, body);
  }
}

function parseEntry(row: { entry: string }): HistoryEntry {
  return JSON.parse(row.entry) as HistoryEntry;
}
