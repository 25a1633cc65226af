import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { TreeAgentError } from '@treeagent/core';
import type { ReleaseLock } from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { guard } from './sqlite-errors.js';

export interface SessionLockOptions {
  /**
   * How long a lock outlives its holder if the holder dies without releasing it (crash, kill -9).
   * A live holder renews it every third of this. Default 30 000 ms.
   */
  leaseMs?: number;
  /**
   * How long `lock` waits for a busy session before failing with `SESSION_STORE`. Default 120 000 ms;
   * `Infinity` waits until the lock is free or the signal aborts.
   */
  timeoutMs?: number;
}

interface Held {
  sessionId: string;
  owner: string;
  timer: ReturnType<typeof setInterval>;
  /** The row was deleted by the commit that ended the interaction; releasing only wakes waiters. */
  deleted: boolean;
  released: boolean;
}

const FIRST_DELAY_MS = 5;
const MAX_DELAY_MS = 250;

/**
 * Leases on sessions in the `session_locks` table, so that processes sharing the file run one
 * interaction per session at a time. A lock left by a process that died (kill -9, crash) is taken
 * over at once when that process ran on this machine (its pid is gone); otherwise when its lease
 * runs out. A lock is a row (session, owner token, expiry) taken by one
 * statement when the session has no row or an expired one; waiters poll with exponential backoff
 * (and are woken at once by releases in this process). The holder renews the lease while it holds
 * it, so only a dead holder's lock expires. The session store's commit deletes the row in its own
 * transaction (`deleteInCommit`), so a turn writes twice (lock, commit), not three times.
 */
export class SessionLocks {
  readonly #connection: Database.Database;
  readonly #where: string;
  readonly #leaseMs: number;
  readonly #timeoutMs: number;
  readonly #held = new Map<string, Held>();
  readonly #wakers = new Map<string, Set<() => void>>();
  readonly #take: Database.Statement;
  readonly #holder: Database.Statement;
  readonly #renew: Database.Statement;
  readonly #delete: Database.Statement;
  readonly #steal: Database.Statement;

  constructor(connection: Database.Database, where: string, options: SessionLockOptions = {}) {
    this.#connection = connection;
    this.#where = where;
    this.#leaseMs = positive(options.leaseMs ?? 30_000, 'leaseMs', false);
    this.#timeoutMs = positive(options.timeoutMs ?? 120_000, 'timeoutMs', true);
    // Inserts the row, or takes over an expired one; `changes` is 0 when a live holder has it.
    this.#take = connection.prepare(
      `INSERT INTO session_locks (session_id, owner, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (session_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE session_locks.expires_at <= ?`,
    );
    this.#holder = connection.prepare('SELECT owner FROM session_locks WHERE session_id = ?');
    this.#renew = connection.prepare(
      'UPDATE session_locks SET expires_at = ? WHERE session_id = ? AND owner = ?',
    );
    this.#delete = connection.prepare('DELETE FROM session_locks WHERE session_id = ? AND owner = ?');
    this.#steal = connection.prepare(
      'UPDATE session_locks SET owner = ?, expires_at = ? WHERE session_id = ? AND owner = ?',
    );
  }

  async acquire(sessionId: string, signal?: AbortSignal): Promise<ReleaseLock> {
    const owner = ownerToken();
    const started = Date.now();
    let delay = FIRST_DELAY_MS;
    for (;;) {
      if (signal?.aborted) {
        throw new TreeAgentError(
          'ABORTED',
          `Waiting for the lock on session "${sessionId}" was cancelled; nothing was saved.`,
          { cause: signal.reason },
        );
      }
      const now = Date.now();
      const holder = guard(
        'SESSION_STORE',
        this.#where,
        () => `lock session "${sessionId}"`,
        () => this.#tryTake(sessionId, owner, now),
      );
      if (!holder) break;
      const waited = now - started;
      if (waited >= this.#timeoutMs) {
        throw new TreeAgentError(
          'SESSION_STORE',
          `${this.#where} could not lock session "${sessionId}": another interaction (owner ${holder.owner}) held it for more than ${this.#timeoutMs} ms.`,
          { details: { sessionId, owner: holder.owner } },
        );
      }
      await this.#pause(sessionId, Math.min(delay * (0.5 + Math.random()), this.#timeoutMs - waited), signal);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
    return this.#hold(sessionId, owner);
  }

  /** Releases every lock this process holds through this object (on close). */
  releaseAll(): void {
    for (const held of [...this.#held.values()]) this.#release(held);
  }

  /**
   * For the commit that ends an interaction on `sessionId`: deletes this process's lock row inside
   * the commit's transaction (call it there) and returns what to run once the transaction has
   * committed. Null when this object does not hold the session (a commit without `lock`).
   */
  deleteInCommit(sessionId: string): (() => void) | null {
    const held = this.#held.get(sessionId);
    if (!held || held.deleted) return null;
    this.#delete.run(sessionId, held.owner);
    return () => {
      held.deleted = true;
      clearInterval(held.timer);
    };
  }

  /** `null` when the row was taken, or the live holder's owner token. */
  #tryTake(sessionId: string, owner: string, now: number): { owner: string } | null {
    if (this.#take.run(sessionId, owner, now + this.#leaseMs, now).changes === 1) return null;
    const row = this.#holder.get(sessionId) as { owner: string } | undefined;
    // Released between the two statements: the next attempt takes it.
    if (!row) return { owner: '(released)' };
    // The holder's process is gone (killed, crashed) on this machine: take its lock over now
    // instead of waiting for the lease to run out. Only a holder known dead is replaced, and the
    // update names its owner token, so a lock renewed or taken meanwhile is left alone.
    if (
      ownerIsDead(row.owner) &&
      this.#steal.run(owner, now + this.#leaseMs, sessionId, row.owner).changes === 1
    )
      return null;
    return { owner: row.owner };
  }

  #hold(sessionId: string, owner: string): ReleaseLock {
    const timer = setInterval(
      () => {
        try {
          const { changes } = this.#renew.run(Date.now() + this.#leaseMs, sessionId, owner);
          // Lost (expired and taken by another holder): stop renewing. The session's version
          // check still rejects a conflicting commit.
          if (changes === 0) clearInterval(timer);
        } catch {
          // Busy or closed: the next tick retries; the lease is long enough for several.
        }
      },
      Math.max(1, Math.floor(this.#leaseMs / 3)),
    );
    timer.unref?.();
    const held: Held = { sessionId, owner, timer, deleted: false, released: false };
    this.#held.set(sessionId, held);
    return async () => this.#release(held);
  }

  #release(held: Held): void {
    if (held.released) return;
    held.released = true;
    if (this.#held.get(held.sessionId) === held) this.#held.delete(held.sessionId);
    clearInterval(held.timer);
    try {
      if (!held.deleted && this.#connection.open) this.#delete.run(held.sessionId, held.owner);
    } catch {
      // Releasing must not turn a saved interaction into an error: the lease expires on its own.
    }
    for (const wake of this.#wakers.get(held.sessionId) ?? []) wake();
  }

  #pause(sessionId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let wakers = this.#wakers.get(sessionId);
      if (!wakers) {
        wakers = new Set();
        this.#wakers.set(sessionId, wakers);
      }
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        wakers.delete(done);
        if (wakers.size === 0 && this.#wakers.get(sessionId) === wakers) this.#wakers.delete(sessionId);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
      wakers.add(done);
    });
  }
}

const HOST = hostname();

/** A lock's owner token: this machine, this process, and a random part for the lock itself. */
function ownerToken(): string {
  return `${HOST}/${process.pid}/${randomUUID()}`;
}

/**
 * Whether the process that took a lock is known to be gone: it ran on this machine (same host
 * name) and no process has its pid any more. Anything else — another machine, an old-style owner
 * token, a pid now reused by another process — counts as alive, and the lease decides.
 */
export function ownerIsDead(owner: string): boolean {
  const [host, pid] = owner.split('/');
  if (host !== HOST || !pid || !/^\d+$/.test(pid)) return false;
  if (Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function positive(value: number, name: string, infinite: boolean): number {
  if (!(value > 0) || (!infinite && !Number.isFinite(value))) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${name} must be a positive number of milliseconds; got ${value}.`,
    );
  }
  return value;
}
