import type { HandoffOutcome, OperatorRef } from './handoff.js';

/**
 * A handoff started or ended, as the server tells a helpdesk (the webhook's body, docs/handoff.md).
 * Written by the engine in the commit of the transition when the session store keeps an outbox.
 */
export interface HandoffEvent {
  /**
   * Unique per transition and the same on every retry and in every process (derived from the
   * session, the handoff's start and the type): the webhook's `Idempotency-Key`.
   */
  id: string;
  /** `handoff.escalated`: the handoff waited unclaimed longer than `handoff.escalation.afterMs`. */
  type: 'handoff.started' | 'handoff.ended' | 'handoff.escalated';
  /** ISO timestamp of the transition (of the escalation for `handoff.escalated`). */
  at: string;
  sessionId: string;
  queue: string;
  reason: string;
  summary: string | null;
  /** `handoff.ended`: how (`handed-back`, `closed`, `user-returned`) and by whom. */
  outcome?: HandoffOutcome;
  operator?: OperatorRef | null;
  /** `handoff.escalated`: how long the conversation had waited, in milliseconds. */
  waitedMs?: number;
}

/** An event waiting in the outbox (or dead-lettered), with its delivery attempts so far. */
export interface OutboxDelivery {
  event: HandoffEvent;
  /** Attempts started so far (a lease counts as one: a process that died mid-attempt used it). */
  attempts: number;
  /** `pending` (to deliver at `nextAttemptAt`) or `dead` (given up; kept for inspection). */
  status: 'pending' | 'dead';
  /** ISO timestamp of the next attempt (for `dead`: when it was given up). */
  nextAttemptAt: string;
  lastError: string | null;
}

/**
 * The durable queue of webhook deliveries (docs/handoff.md, "Webhook"). Events enter it in the
 * commit of their transition (the session store's `handoffOutbox()`), or right after it (`add`);
 * a delivery loop leases the due ones, delivers them and records the outcome. A lease hides an event
 * from other callers (other processes) until it expires, so each attempt is made by one process and
 * an attempt cut short by a crash is retried after the lease. In memory here; SQLite and PostgreSQL
 * in their packages; all pass `describeHandoffOutbox` (`@treeagent/core/conformance`). The in-memory
 * reference is `InMemoryHandoffOutbox` (`@treeagent/core/adapter`).
 */
export interface HandoffOutbox {
  /** Adds events to deliver now; an event whose id is already there is ignored (idempotent). */
  add(events: readonly HandoffEvent[], now: Date): Promise<void>;
  /**
   * Leases at most `limit` pending events due at `now` (oldest first) for `leaseMs`: their attempt
   * count grows by one and no other lease returns them before `now + leaseMs`.
   */
  lease(now: Date, limit: number, leaseMs: number): Promise<OutboxDelivery[]>;
  /** The event was delivered: it leaves the outbox. */
  delivered(id: string): Promise<void>;
  /** An attempt failed: retried at `retryAt`, or dead-lettered when `retryAt` is `null`. */
  failed(id: string, error: string, retryAt: Date | null): Promise<void>;
  /** How many events are pending and dead (the metrics). */
  counts(): Promise<{ pending: number; dead: number }>;
  /** Dead-lettered events, most recent first (at most `limit`, default 100). */
  deadLetters(limit?: number): Promise<OutboxDelivery[]>;
  /** Puts a dead-lettered event back in line for a new series of attempts; false when there is none. */
  retry(id: string, now: Date): Promise<boolean>;
  /**
   * Every delivery, pending or dead, of an event about one of `sessionIds`, oldest first (one user's
   * data on request, docs/privacy.md).
   */
  sessionDeliveries(sessionIds: readonly string[]): Promise<OutboxDelivery[]>;
  /**
   * Deletes every delivery, pending or dead, of an event about one of `sessionIds`, so none of them is
   * sent (or retried) after the sessions were erased; returns how many.
   */
  deleteSessions(sessionIds: readonly string[]): Promise<number>;
  /**
   * After a deletion, removes what deleted rows leave in the storage where the store can (SQLite:
   * empties the WAL; PostgreSQL: `VACUUM` of the table). Optional.
   */
  purgeDeleted?(): Promise<void>;
}
