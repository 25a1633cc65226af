/** A session's token hash and when the session was created and last used (for expiry). */
export interface SessionTokenInfo {
  tokenHash: string;
  createdAt: Date;
  lastUsedAt: Date;
  /** The user the integrating application created the session for (`userId`), or `null`. */
  userId?: string | null;
}

/** Which sessions have expired: those last used before `idleBefore`, or created before `createdBefore`. */
export interface ExpiryCutoff {
  idleBefore: Date;
  createdBefore: Date;
}

/**
 * Where the server keeps the hash of each session's token (an operator contract, beside
 * `OperatorSessions` and `AuditLog`; its suite is `describeSessionTokens` of
 * `@treeagent/core/conformance`). The in-memory implementation below is the server's default;
 * `SqliteSessionTokens` and `PostgresSessionTokens` let several server processes, or a restarted
 * one, share sessions. The last three methods make sessions expire;
 * a store without them keeps sessions until they are deleted.
 */
export interface SessionTokens {
  /**
   * Records a new session and the SHA-256 (hex) of its token; it is created and used now. `userId`:
   * the user the integrating application created it for (docs/privacy.md), kept for personal data
   * requests.
   */
  save(sessionId: string, tokenHash: string, userId?: string | null): Promise<void>;
  /** The token hash of a session, or `null` when this server never created it. */
  find(sessionId: string): Promise<string | null>;
  delete(sessionId: string): Promise<void>;
  /** The token hash and timestamps of a session, or `null`. */
  info?(sessionId: string): Promise<SessionTokenInfo | null>;
  /** Records that the session was used at `at` (idle expiry counts from the last use). */
  touch?(sessionId: string, at: Date): Promise<void>;
  /**
   * Removes and returns up to `limit` expired sessions, atomically: concurrent callers (other
   * processes sweeping the same store) never get the same session.
   */
  claimExpired?(cutoff: ExpiryCutoff, limit: number): Promise<string[]>;
  /** The sessions saved for `userId`, oldest first (personal data requests, docs/privacy.md). */
  userSessions?(userId: string): Promise<string[]>;
  /** Forgets every session of `userId` in one transaction (their tokens stop working); returns their ids. */
  deleteUser?(userId: string): Promise<string[]>;
  /**
   * After a deletion (one user's data on request, docs/privacy.md), removes what deleted rows leave in
   * the storage where the store can: SQLite empties its WAL (freed pages are already zeroed),
   * PostgreSQL runs `VACUUM` on its tables. Optional: stores without it keep what their storage keeps.
   */
  purgeDeleted?(): Promise<void>;
}

/** Session token hashes in process memory; lost on restart (the sessions' clients then get 404). */
export class InMemorySessionTokens implements SessionTokens {
  readonly #sessions = new Map<string, SessionTokenInfo>();
  readonly #now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  async save(sessionId: string, tokenHash: string, userId: string | null = null): Promise<void> {
    const now = this.#now();
    this.#sessions.delete(sessionId);
    this.#sessions.set(sessionId, { tokenHash, createdAt: now, lastUsedAt: now, userId });
  }

  async find(sessionId: string): Promise<string | null> {
    return this.#sessions.get(sessionId)?.tokenHash ?? null;
  }

  async delete(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
  }

  async info(sessionId: string): Promise<SessionTokenInfo | null> {
    const info = this.#sessions.get(sessionId);
    return info ? { ...info, userId: info.userId ?? null } : null;
  }

  async touch(sessionId: string, at: Date): Promise<void> {
    const info = this.#sessions.get(sessionId);
    if (info && at > info.lastUsedAt) info.lastUsedAt = at;
  }

  async claimExpired(cutoff: ExpiryCutoff, limit: number): Promise<string[]> {
    const claimed: string[] = [];
    for (const [sessionId, info] of this.#sessions) {
      if (claimed.length >= limit) break;
      if (info.lastUsedAt < cutoff.idleBefore || info.createdAt < cutoff.createdBefore) {
        this.#sessions.delete(sessionId);
        claimed.push(sessionId);
      }
    }
    return claimed;
  }

  async userSessions(userId: string): Promise<string[]> {
    return [...this.#sessions].filter(([, info]) => info.userId === userId).map(([sessionId]) => sessionId);
  }

  async deleteUser(userId: string): Promise<string[]> {
    const ids = await this.userSessions(userId);
    for (const id of ids) this.#sessions.delete(id);
    return ids;
  }
}
