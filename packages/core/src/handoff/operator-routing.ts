/** Whether an operator takes conversations now: `online` gets new ones, `away` keeps theirs, `offline` neither. */
export type PresenceStatus = 'online' | 'away' | 'offline';

/** One operator's presence, with what routing needs to know of them (their name and teams). */
export interface OperatorPresence {
  operatorId: string;
  /** The name users see when the operator is assigned a conversation. */
  name: string;
  /** The teams (handoff queues) they work in; empty: every team. */
  teams: string[];
  status: PresenceStatus;
  /** When the status was set. */
  at: Date;
}

/**
 * What the server's routing of handed-off conversations shares between processes: who is online
 * (presence) and, per team, whose turn it is in a round robin. The in-memory implementation below
 * serves one process; `openSqlite(...).operatorRouting` and `PostgresOperatorRouting` share it.
 */
export interface OperatorRouting {
  /** Sets (or replaces) an operator's presence. */
  setPresence(presence: OperatorPresence): Promise<void>;
  /** Every operator with a presence, by id. */
  presence(): Promise<OperatorPresence[]>;
  /**
   * The round robin of `team`: of `candidates` (operator ids), the first one after the last one this
   * team was given (in id order, wrapping around), recorded as the last one — atomically, so two
   * processes asking at once get two different operators when there are two. `null` without candidates.
   */
  nextInRotation(team: string, candidates: readonly string[]): Promise<string | null>;
}

/** The round robin's choice: the first of `candidates` (sorted) after `last`, wrapping around. */
export function nextAfter(last: string | null, candidates: readonly string[]): string | null {
  const sorted = [...new Set(candidates)].sort();
  if (sorted.length === 0) return null;
  return sorted.find((id) => last === null || id > last) ?? sorted[0]!;
}

/** Presence and round robins in process memory (one process; lost on restart). */
export class InMemoryOperatorRouting implements OperatorRouting {
  readonly #presence = new Map<string, OperatorPresence>();
  readonly #last = new Map<string, string>();

  async setPresence(presence: OperatorPresence): Promise<void> {
    this.#presence.set(presence.operatorId, { ...presence, teams: [...presence.teams] });
  }

  async presence(): Promise<OperatorPresence[]> {
    return [...this.#presence.values()]
      .map((presence) => ({ ...presence, teams: [...presence.teams] }))
      .sort((a, b) => (a.operatorId < b.operatorId ? -1 : 1));
  }

  async nextInRotation(team: string, candidates: readonly string[]): Promise<string | null> {
    const next = nextAfter(this.#last.get(team) ?? null, candidates);
    if (next !== null) this.#last.set(team, next);
    return next;
  }
}
