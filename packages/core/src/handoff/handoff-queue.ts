import type { HandoffOutcome, OperatorRef } from '../protocol/handoff.js';

/** An internal note of an operator on a handed-off session: never shown to the user. */
export interface HandoffNote {
  /** ISO timestamp. */
  at: string;
  operator: OperatorRef;
  text: string;
}

/**
 * A handed-off session as the operator console lists it. The session's record is the truth (the
 * engine decides whether the tree runs); the queue is the index the console reads, kept in step by
 * the server after every turn and operator action, and corrected when an operator opens the session.
 */
export interface QueueEntry {
  sessionId: string;
  /** `waiting` (nobody has it), `claimed` (an operator has it), `closed` (the agent has it again). */
  status: 'waiting' | 'claimed' | 'closed';
  queue: string;
  reason: string;
  summary: string | null;
  /** ISO timestamp of the handoff. */
  since: string;
  operator: OperatorRef | null;
  claimedAt: string | null;
  /** ISO timestamp of the user's last message while handed off (`null`: none since the handoff). */
  lastUserMessageAt: string | null;
  /** When and how it ended (`closed` entries). */
  closedAt: string | null;
  outcome: HandoffOutcome | null;
  notes: HandoffNote[];
}

/** Which entries `HandoffQueue.list` returns. */
export interface QueueQuery {
  /**
   * `open` (default: waiting and claimed, oldest first), only `waiting` or only `claimed` (oldest
   * first), or `closed` (most recently closed first).
   */
  status?: QueueStatusFilter;
  queue?: string;
  /** At most this many (default 200, at most 1000). */
  limit?: number;
}

/** The entries a `QueueQuery` asks for: `open` (waiting and claimed) or one status. */
export type QueueStatusFilter = 'open' | QueueEntry['status'];

/** Whether an entry of `status` is one `filter` asks for. */
export function queueStatusMatches(filter: QueueStatusFilter, status: QueueEntry['status']): boolean {
  return filter === 'open' ? status !== 'closed' : status === filter;
}

/** The open handoffs of one queue in one status: how many, and since when the oldest of them. */
export interface OpenQueueTally {
  queue: string;
  status: 'waiting' | 'claimed';
  count: number;
  /** ISO timestamp of the oldest handoff of them (`since`). */
  oldestSince: string;
}

/**
 * Where the server keeps the queue of handed-off sessions. In memory by default (one process);
 * `openSqlite(...).handoffQueue` and `PostgresHandoffQueue` share it between processes and restarts.
 * All pass `describeHandoffQueue` (`@treeagent/core/conformance`).
 */
export interface HandoffQueue {
  /** Creates or replaces a session's entry (its notes are kept when `entry.notes` is empty). */
  put(entry: QueueEntry): Promise<void>;
  get(sessionId: string): Promise<QueueEntry | null>;
  list(query?: QueueQuery): Promise<QueueEntry[]>;
  /**
   * The open entries counted by queue and status, however many there are (the server's queue
   * gauges), ordered by queue then status as JavaScript compares strings (by code unit, not by a
   * locale); `oldestSince` is the least `since` (ISO timestamps, as the server writes them).
   * Optional: without it the server counts the 1,000 oldest open entries `list` returns
   * (`tallyOpenEntries`), so larger queues are under-reported.
   */
  tallyOpen?(): Promise<OpenQueueTally[]>;
  /** Appends a note atomically (two operators writing at once both keep theirs). */
  addNote(sessionId: string, note: HandoffNote): Promise<void>;
  /** Forgets a session (deleted or expired). */
  delete(sessionId: string): Promise<void>;
  /**
   * After a deletion (one user's data on request, docs/privacy.md), removes what deleted rows leave in
   * the storage where the store can: SQLite empties its WAL (freed pages are already zeroed),
   * PostgreSQL runs `VACUUM` on its tables. Optional: stores without it keep what their storage keeps.
   */
  purgeDeleted?(): Promise<void>;
}

/** `limit` of a `QueueQuery`, bounded. */
export function queueLimit(query: QueueQuery): number {
  return Math.min(Math.max(Math.trunc(query.limit ?? 200), 1), 1000);
}

/** Counts open `entries` by queue and status, as `HandoffQueue.tallyOpen` does (closed ones are left out). */
export function tallyOpenEntries(entries: Iterable<QueueEntry>): OpenQueueTally[] {
  const tallies = new Map<string, OpenQueueTally>();
  for (const entry of entries) {
    if (entry.status === 'closed') continue;
    const key = `${entry.queue}\u0000${entry.status}`;
    const tally = tallies.get(key);
    if (!tally)
      tallies.set(key, { queue: entry.queue, status: entry.status, count: 1, oldestSince: entry.since });
    else {
      tally.count++;
      if (entry.since < tally.oldestSince) tally.oldestSince = entry.since;
    }
  }
  const order = (tally: OpenQueueTally) => `${tally.queue}\u0000${tally.status}`;
  return [...tallies.values()].sort((a, b) => (order(a) < order(b) ? -1 : 1));
}

/** Sorts entries as `list` returns them: open (waiting, claimed) oldest first, closed most recent first. */
export function sortQueue(entries: QueueEntry[], status: QueueStatusFilter): QueueEntry[] {
  return status !== 'closed'
    ? entries.sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0))
    : entries.sort((a, b) => ((a.closedAt ?? '') > (b.closedAt ?? '') ? -1 : 1));
}

/** The queue in process memory. */
export class InMemoryHandoffQueue implements HandoffQueue {
  readonly #entries = new Map<string, QueueEntry>();

  async put(entry: QueueEntry): Promise<void> {
    const kept = this.#entries.get(entry.sessionId)?.notes ?? [];
    this.#entries.set(
      entry.sessionId,
      structuredClone({ ...entry, notes: entry.notes.length ? entry.notes : kept }),
    );
  }

  async get(sessionId: string): Promise<QueueEntry | null> {
    const entry = this.#entries.get(sessionId);
    return entry ? structuredClone(entry) : null;
  }

  async list(query: QueueQuery = {}): Promise<QueueEntry[]> {
    const status = query.status ?? 'open';
    const found = [...this.#entries.values()].filter(
      (entry) =>
        queueStatusMatches(status, entry.status) &&
        (query.queue === undefined || entry.queue === query.queue),
    );
    return sortQueue(found, status)
      .slice(0, queueLimit(query))
      .map((entry) => structuredClone(entry));
  }

  async tallyOpen(): Promise<OpenQueueTally[]> {
    return tallyOpenEntries(this.#entries.values());
  }

  async addNote(sessionId: string, note: HandoffNote): Promise<void> {
    this.#entries.get(sessionId)?.notes.push(structuredClone(note));
  }

  async delete(sessionId: string): Promise<void> {
    this.#entries.delete(sessionId);
  }
}
