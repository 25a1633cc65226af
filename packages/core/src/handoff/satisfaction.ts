/** A user's rating of a conversation with people (CSAT), kept with the session's facts. */
export interface SatisfactionRating {
  sessionId: string;
  /** 1 (very unsatisfied) to 5 (very satisfied). */
  rating: 1 | 2 | 3 | 4 | 5;
  /** What the user added, or `null`. */
  comment: string | null;
  /** The operator who last held the conversation, or `null`. */
  operatorId: string | null;
  /** The team (handoff queue) of the conversation. */
  team: string;
  /** The tree version that ran the session. */
  treeVersion: string;
  at: Date;
}

/** Ratings grouped by one key: how many, their average and how many of each value (index 0 is 1). */
export interface SatisfactionGroup {
  key: string;
  count: number;
  average: number;
  distribution: [number, number, number, number, number];
}

/**
 * Where the users' ratings live: one per session (a second rating of a session is refused). The
 * in-memory implementation below serves one process; `openSqlite(...).satisfaction` keeps them.
 */
export interface SatisfactionRatings {
  /** Records a session's rating; `false` (nothing changed) when the session already has one. */
  add(rating: SatisfactionRating): Promise<boolean>;
  /** The ratings from `since` (inclusive; all without it), oldest first. */
  list(since?: Date): Promise<SatisfactionRating[]>;
  /** Forgets a session's rating (the user's data deleted); `false` when there was none. */
  forget(sessionId: string): Promise<boolean>;
  /**
   * Adds the comment to a session's rating that has none yet (a messaging channel's user writes it
   * after choosing the rating); `false` when there is no rating or it has a comment. Optional: a
   * store without it keeps channel ratings without their comment.
   */
  comment?(sessionId: string, comment: string): Promise<boolean>;
}

/** Groups ratings by operator, team or tree version (keys sorted; `null` operators under `""`). */
export function satisfactionBy(
  ratings: readonly SatisfactionRating[],
  by: 'operatorId' | 'team' | 'treeVersion',
): SatisfactionGroup[] {
  const groups = new Map<string, SatisfactionGroup>();
  for (const rating of ratings) {
    const key = rating[by] ?? '';
    const group = groups.get(key) ?? { key, count: 0, average: 0, distribution: [0, 0, 0, 0, 0] };
    group.average = (group.average * group.count + rating.rating) / (group.count + 1);
    group.count += 1;
    group.distribution[rating.rating - 1]! += 1;
    groups.set(key, group);
  }
  return [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Ratings in process memory (one process; lost on restart). */
export class InMemorySatisfactionRatings implements SatisfactionRatings {
  readonly #ratings = new Map<string, SatisfactionRating>();

  async add(rating: SatisfactionRating): Promise<boolean> {
    if (this.#ratings.has(rating.sessionId)) return false;
    this.#ratings.set(rating.sessionId, { ...rating });
    return true;
  }

  async list(since?: Date): Promise<SatisfactionRating[]> {
    return [...this.#ratings.values()]
      .filter((rating) => !since || rating.at >= since)
      .sort((a, b) => a.at.getTime() - b.at.getTime() || (a.sessionId < b.sessionId ? -1 : 1))
      .map((rating) => ({ ...rating }));
  }

  async forget(sessionId: string): Promise<boolean> {
    return this.#ratings.delete(sessionId);
  }

  async comment(sessionId: string, comment: string): Promise<boolean> {
    const rating = this.#ratings.get(sessionId);
    if (!rating || rating.comment !== null) return false;
    rating.comment = comment;
    return true;
  }
}
