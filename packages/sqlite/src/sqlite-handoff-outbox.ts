import {
  deadLetterLimit,
  type HandoffEvent,
  type HandoffOutbox,
  type OutboxDelivery,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** The webhook's outbox (the server's `HandoffOutbox`). */
export const HANDOFF_OUTBOX_SCHEMA: SchemaMigrations = {
  component: 'handoff_outbox',
  migrations: [
    `CREATE TABLE handoff_outbox (
       id TEXT PRIMARY KEY NOT NULL,
       event TEXT NOT NULL,
       status TEXT NOT NULL,
       attempts INTEGER NOT NULL,
       next_attempt_at TEXT NOT NULL,
       last_error TEXT,
       added_at TEXT NOT NULL
     ) WITHOUT ROWID;
     CREATE INDEX handoff_outbox_due ON handoff_outbox (status, next_attempt_at);`,
  ],
};

interface Row {
  id?: string;
  event: string;
  attempts: number;
  status: 'pending' | 'dead';
  next_attempt_at: string;
  last_error: string | null;
}

const delivery = (row: Row): OutboxDelivery => ({
  event: JSON.parse(row.event) as HandoffEvent,
  attempts: row.attempts,
  status: row.status,
  nextAttemptAt: row.next_attempt_at,
  lastError: row.last_error,
});

/**
 * The webhook's outbox (`HandoffOutbox` of `@treeagent/core/adapter`) in the SQLite file, so a
 * pending delivery survives a restart. `SqliteSessionStore.handoffOutbox()` writes a transition's
 * events in the transition's own transaction; a lease is one `BEGIN IMMEDIATE` transaction, so two
 * processes on the file never lease the same event.
 */
export class SqliteHandoffOutbox implements HandoffOutbox {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #insert: Database.Statement;
  readonly #lease: (now: string, limit: number, until: string) => Row[];
  readonly #delete: Database.Statement;
  readonly #failed: Database.Statement;
  readonly #counts: Database.Statement;
  readonly #dead: Database.Statement;
  readonly #retry: Database.Statement;
  readonly #ofSessions: Database.Statement;
  readonly #deleteSessions: Database.Statement;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, HANDOFF_OUTBOX_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite handoff outbox (${database.file})`);
    const db = database.connection;
    this.#insert = db.prepare(
      `INSERT INTO handoff_outbox (id, event, status, attempts, next_attempt_at, added_at)
       VALUES (?, ?, 'pending', 0, ?, ?) ON CONFLICT (id) DO NOTHING`,
    );
    const due = db.prepare(
      `SELECT id FROM handoff_outbox WHERE status = 'pending' AND next_attempt_at <= ?
        ORDER BY next_attempt_at, added_at, id LIMIT ?`,
    );
    const take = db.prepare(
      `UPDATE handoff_outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE id = ?
       RETURNING id, event, attempts, status, next_attempt_at, last_error, added_at`,
    );
    const lease = db.transaction((now: string, limit: number, until: string) => {
      const ids = (due.all(now, limit) as { id: string }[]).map((row) => row.id);
      return ids
        .map((id) => take.get(until, id) as Row & { added_at: string })
        .sort((a, b) => compare(a.added_at, b.added_at) || compare(a.id!, b.id!));
    });
    this.#lease = (now, limit, until) => lease.immediate(now, limit, until);
    this.#delete = db.prepare('DELETE FROM handoff_outbox WHERE id = ?');
    this.#failed = db.prepare(
      `UPDATE handoff_outbox SET last_error = ?,
         status = CASE WHEN ? IS NULL THEN 'dead' ELSE status END, next_attempt_at = coalesce(?, ?)
       WHERE id = ?`,
    );
    this.#counts = db.prepare('SELECT status, count(*) AS count FROM handoff_outbox GROUP BY status');
    this.#dead = db.prepare(
      `SELECT event, attempts, status, next_attempt_at, last_error FROM handoff_outbox
        WHERE status = 'dead' ORDER BY next_attempt_at DESC, id LIMIT ?`,
    );
    this.#retry = db.prepare(
      `UPDATE handoff_outbox SET status = 'pending', attempts = 0, next_attempt_at = ?
        WHERE id = ? AND status = 'dead'`,
    );
    // The session is inside the event's JSON: a scan, fine for an outbox of undelivered events.
    const ofSessions = `json_extract(event, '$.sessionId') IN (SELECT value FROM json_each(?))`;
    this.#ofSessions = db.prepare(
      `SELECT event, attempts, status, next_attempt_at, last_error FROM handoff_outbox
        WHERE ${ofSessions} ORDER BY added_at, id`,
    );
    this.#deleteSessions = db.prepare(`DELETE FROM handoff_outbox WHERE ${ofSessions}`);
    database.retain();
  }

  /** Inserts `events` in the caller's transaction (a session store's commit); ids already there are skipped. */
  insertInTransaction(events: readonly HandoffEvent[], now: Date): void {
    const at = now.toISOString();
    for (const event of events) this.#insert.run(event.id, JSON.stringify(event), at, at);
  }

  async add(events: readonly HandoffEvent[], now: Date): Promise<void> {
    if (events.length === 0) return;
    this.#handle.run('add handoff events to the outbox', () => {
      this.#database.connection.transaction(() => this.insertInTransaction(events, now)).immediate();
      this.#database.wrote();
    });
  }

  async lease(now: Date, limit: number, leaseMs: number): Promise<OutboxDelivery[]> {
    if (limit < 1) return [];
    return this.#handle.run('lease handoff events of the outbox', () => {
      const until = new Date(now.getTime() + leaseMs).toISOString();
      const rows = this.#lease(now.toISOString(), Math.trunc(limit), until);
      if (rows.length) this.#database.wrote();
      return rows.map(delivery);
    });
  }

  async delivered(id: string): Promise<void> {
    this.#handle.run(`remove the delivered handoff event ${id}`, () => {
      if (this.#delete.run(id).changes) this.#database.wrote();
    });
  }

  async failed(id: string, error: string, retryAt: Date | null): Promise<void> {
    this.#handle.run(`record a failed delivery of handoff event ${id}`, () => {
      const retry = retryAt?.toISOString() ?? null;
      if (this.#failed.run(error, retry, retry, new Date().toISOString(), id).changes) this.#database.wrote();
    });
  }

  async counts(): Promise<{ pending: number; dead: number }> {
    return this.#handle.run('count the handoff outbox', () => {
      const rows = this.#counts.all() as { status: string; count: number }[];
      const of = (status: string) => rows.find((row) => row.status === status)?.count ?? 0;
      return { pending: of('pending'), dead: of('dead') };
    });
  }

  async deadLetters(limit?: number): Promise<OutboxDelivery[]> {
    return this.#handle.run('read the dead letters of the handoff outbox', () =>
      (this.#dead.all(deadLetterLimit(limit)) as Row[]).map(delivery),
    );
  }

  async retry(id: string, now: Date): Promise<boolean> {
    return this.#handle.run(`put handoff event ${id} back in line`, () => {
      const changed = this.#retry.run(now.toISOString(), id).changes === 1;
      if (changed) this.#database.wrote();
      return changed;
    });
  }

  async sessionDeliveries(sessionIds: readonly string[]): Promise<OutboxDelivery[]> {
    if (sessionIds.length === 0) return [];
    return this.#handle.run(`read the webhook deliveries of ${sessionIds.length} sessions`, () =>
      (this.#ofSessions.all(JSON.stringify(sessionIds)) as Row[]).map(delivery),
    );
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    if (sessionIds.length === 0) return 0;
    return this.#handle.run(`delete the webhook deliveries of ${sessionIds.length} sessions`, () => {
      const { changes } = this.#deleteSessions.run(JSON.stringify(sessionIds));
      if (changes) this.#database.wrote();
      return changes;
    });
  }

  /** Empties the WAL after a deletion (`SqliteDatabase.purgeDeleted`). */
  async purgeDeleted(): Promise<void> {
    this.#handle.purgeDeleted();
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
