/**
 * A user's request to be called back, left out of a team's business hours (docs/handoff.md): how to
 * reach them and when. Private: exported and deleted with the user's other data.
 */
export interface CallbackRequest {
  /** Unique (the server makes it). */
  id: string;
  sessionId: string;
  /** The team (handoff queue) that was closed. */
  team: string;
  /** How to reach the user. */
  contact: { kind: 'phone' | 'email'; value: string };
  /** When: a day and a range of hours (`YYYY-MM-DD`, `HH:MM`), in the team's time zone. */
  window: { date: string; from: string; to: string };
  status: 'open' | 'done';
  createdAt: Date;
  /** When an operator marked it done, and who (`null` while open). */
  doneAt: Date | null;
  doneBy: string | null;
}

/**
 * Where callback requests live: at most one open request per session (a second one while the first
 * is open is refused). In memory below; `openSqlite(...).callbacks` and `PostgresCallbackRequests`
 * keep them; all pass `describeCallbackRequests` (`@treeagent/core/conformance`).
 */
export interface CallbackRequests {
  /** Keeps a request; `false` (nothing changed) when its session already has an open one. */
  add(request: CallbackRequest): Promise<boolean>;
  /** The requests with `status` (all without it) of the `teams` (all without them), oldest first. */
  list(filter?: {
    status?: CallbackRequest['status'];
    teams?: readonly string[];
  }): Promise<CallbackRequest[]>;
  /** One request, or `null`. */
  get(id: string): Promise<CallbackRequest | null>;
  /** Marks an open request done; `false` when there is none open with that id. */
  done(id: string, operatorId: string, at: Date): Promise<boolean>;
  /** Every request of `sessionIds`, oldest first (one user's data on request). */
  sessionRequests(sessionIds: readonly string[]): Promise<CallbackRequest[]>;
  /** Deletes every request of `sessionIds` (the user's data erased); returns how many. */
  deleteSessions(sessionIds: readonly string[]): Promise<number>;
}

function copy(request: CallbackRequest): CallbackRequest {
  return { ...request, contact: { ...request.contact }, window: { ...request.window } };
}

function oldestFirst(a: CallbackRequest, b: CallbackRequest): number {
  return a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Callback requests in process memory (one process; lost on restart). */
export class InMemoryCallbackRequests implements CallbackRequests {
  readonly #requests = new Map<string, CallbackRequest>();

  async add(request: CallbackRequest): Promise<boolean> {
    const open = [...this.#requests.values()].some(
      (item) => item.sessionId === request.sessionId && item.status === 'open',
    );
    if (open || this.#requests.has(request.id)) return false;
    this.#requests.set(request.id, copy(request));
    return true;
  }

  async list(filter: { status?: CallbackRequest['status']; teams?: readonly string[] } = {}) {
    return [...this.#requests.values()]
      .filter(
        (item) =>
          (!filter.status || item.status === filter.status) &&
          (!filter.teams || filter.teams.includes(item.team)),
      )
      .sort(oldestFirst)
      .map(copy);
  }

  async get(id: string): Promise<CallbackRequest | null> {
    const request = this.#requests.get(id);
    return request ? copy(request) : null;
  }

  async done(id: string, operatorId: string, at: Date): Promise<boolean> {
    const request = this.#requests.get(id);
    if (request?.status !== 'open') return false;
    this.#requests.set(id, { ...request, status: 'done', doneAt: at, doneBy: operatorId });
    return true;
  }

  async sessionRequests(sessionIds: readonly string[]): Promise<CallbackRequest[]> {
    return [...this.#requests.values()]
      .filter((item) => sessionIds.includes(item.sessionId))
      .sort(oldestFirst)
      .map(copy);
  }

  async deleteSessions(sessionIds: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const [id, request] of this.#requests)
      if (sessionIds.includes(request.sessionId) && this.#requests.delete(id)) deleted += 1;
    return deleted;
  }
}
