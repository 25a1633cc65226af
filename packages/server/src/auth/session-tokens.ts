/**
 * Where the server keeps the hash of each session's token. The in-memory implementation below
 * is the default; a SQLite or PostgreSQL table with the same three methods lets several server
 * processes, or a restarted one, share sessions.
 */
export interface SessionTokens {
  /** Records a new session and the SHA-256 (hex) of its token. */
  save(sessionId: string, tokenHash: string): Promise<void>;
  /** The token hash of a session, or `null` when this server never created it. */
  find(sessionId: string): Promise<string | null>;
  delete(sessionId: string): Promise<void>;
}

/** Session token hashes in process memory; lost on restart (the sessions' clients then get 404). */
export class InMemorySessionTokens implements SessionTokens {
  readonly #hashes = new Map<string, string>();

  async save(sessionId: string, tokenHash: string): Promise<void> {
    this.#hashes.set(sessionId, tokenHash);
  }

  async find(sessionId: string): Promise<string | null> {
    return this.#hashes.get(sessionId) ?? null;
  }

  async delete(sessionId: string): Promise<void> {
    this.#hashes.delete(sessionId);
  }
}
