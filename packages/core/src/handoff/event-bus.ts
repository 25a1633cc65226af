import type { OperatorRef } from '../protocol/handoff.js';

/**
 * What the server processes tell each other about handed-off sessions. Hints, not data: a
 * `session` event says "read this session again" (its history and handoff are in the session
 * store), so a lost hint costs a delay (streams also re-read periodically), never a message.
 */
export type BusEvent =
  /** The session's history or handoff changed. */
  | { kind: 'session'; sessionId: string }
  /** The queue changed (a handoff started, was claimed, released or ended). */
  | { kind: 'queue' }
  /** An operator started or stopped typing to the session's user (ephemeral, never stored). */
  | { kind: 'typing'; sessionId: string; operator: OperatorRef; typing: boolean }
  /** The session's user started or stopped typing, for the operators (ephemeral, never stored). */
  | { kind: 'user-typing'; sessionId: string; typing: boolean }
  /** The bus reconnected and may have missed events: every listener re-reads what it shows. */
  | { kind: 'resync' };

/**
 * Fan-out between the server processes: `InMemoryEventBus` within one process (SQLite);
 * `PostgresEventBus` (`@treeagent/postgres`, `LISTEN/NOTIFY`) across processes on one database.
 * A process receives its own events too.
 */
export interface EventBus {
  publish(event: BusEvent): Promise<void>;
  /** Calls `listener` with every event from now on; returns the unsubscribe function. */
  subscribe(listener: (event: BusEvent) => void): () => void;
  close?(): Promise<void>;
}

/** The bus of one process. */
export class InMemoryEventBus implements EventBus {
  readonly #listeners = new Set<(event: BusEvent) => void>();

  async publish(event: BusEvent): Promise<void> {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; the others still hear the event.
      }
    }
  }

  subscribe(listener: (event: BusEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
