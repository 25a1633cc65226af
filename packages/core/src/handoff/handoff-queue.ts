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
  /** `open` (default: waiting and claimed, oldest first) or `closed` (most recently closed first). */
  status?: 'open' | 'closed';
  queue?: string;
  /** At most this many (default 200, at most 1000). */
  limit?: number;
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

/** Sorts entries as `list` returns them: open oldest first, closed most recent first. */
export function sortQueue(entries: QueueEntry[], status: 'open' | 'closed'): QueueEntry[] {
  return status === 'open'
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
        (status === 'open' ? entry.status !== 'closed' : entry.status === 'closed') &&
        (query.queue === undefined || entry.queue === query.queue),
    );
    return sortQueue(found, status)
      .slice(0, queueLimit(query))
      .map((entry) => structuredClone(entry));
  }

  async addNote(sessionId: string, note: HandoffNote): Promise<void> {
    this.#entries.get(sessionId)?.notes.push(structuredClone(note));
  }

  async delete(sessionId: string): Promise<void> {
    this.#entries.delete(sessionId);
  }
}
