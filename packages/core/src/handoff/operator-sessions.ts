/** One operator login: who, and until when it is valid. */
export interface OperatorSessionRecord {
  operatorId: string;
  createdAt: Date;
  expiresAt: Date;
  /**
   * Who signed in, for a login whose operator is not in the operators file (single sign-on): the
   * identity the provider's claims gave, kept with the login so every process sharing the store
   * recognises it; and the provider's ID token, the hint of its logout. Absent for password logins.
   */
  identity?: ExternalOperatorIdentity;
}

/** An operator signed in through an identity provider, as kept with the login. */
export interface ExternalOperatorIdentity {
  name: string;
  role: 'operator' | 'admin';
  /** The teams from the groups claim; none: every team. */
  teams?: string[];
  /** The provider's ID token, for its logout (`id_token_hint`). */
  idToken?: string;
}

/**
 * Where the server keeps operator logins, by the SHA-256 (hex) of their token (never the token). The
 * in-memory implementation below is the default; the SQLite (`openSqlite(...).operatorSessions`)
 * and PostgreSQL (`PostgresOperatorSessions`) ones let every server process, and a restarted one,
 * accept a login made on any of them.
 */
export interface OperatorSessions {
  save(tokenHash: string, record: OperatorSessionRecord): Promise<void>;
  /** The login of this token hash, or `null` (unknown or deleted; expiry is the caller's check). */
  find(tokenHash: string): Promise<OperatorSessionRecord | null>;
  /** Logs out: the token no longer opens anything. */
  delete(tokenHash: string): Promise<void>;
  /** Deletes the logins that expired before `now`; resolves to how many. */
  deleteExpired(now: Date): Promise<number>;
  /**
   * Deletes every login of the operator `operatorId` (removed from the directory, or its password
   * changed): none of their tokens opens anything again, even if the operator comes back. Resolves
   * to how many. Optional for stores written before it; the shipped ones have it.
   */
  deleteOperator?(operatorId: string): Promise<number>;
}

/** Operator logins in process memory: lost on restart (operators then log in again). */
export class InMemoryOperatorSessions implements OperatorSessions {
  readonly #sessions = new Map<string, OperatorSessionRecord>();

  async save(tokenHash: string, record: OperatorSessionRecord): Promise<void> {
    this.#sessions.set(tokenHash, structuredClone(record));
  }

  async find(tokenHash: string): Promise<OperatorSessionRecord | null> {
    const record = this.#sessions.get(tokenHash);
    return record ? structuredClone(record) : null;
  }

  async delete(tokenHash: string): Promise<void> {
    this.#sessions.delete(tokenHash);
  }

  async deleteOperator(operatorId: string): Promise<number> {
    let deleted = 0;
    for (const [hash, record] of this.#sessions) {
      if (record.operatorId === operatorId) {
        this.#sessions.delete(hash);
        deleted++;
      }
    }
    return deleted;
  }

  async deleteExpired(now: Date): Promise<number> {
    let deleted = 0;
    for (const [hash, record] of this.#sessions) {
      if (record.expiresAt < now) {
        this.#sessions.delete(hash);
        deleted++;
      }
    }
    return deleted;
  }
}
