/** A JSON value in an audit entry's `detail`. */
export type AuditValue = string | number | boolean | null;

/**
 * One thing an operator (or admin) did. `action` is a dotted name (`operator.login`,
 * `handoff.claim`, `handoff.reply`, …; docs/security.md lists them). `detail` holds ids, counts and
 * names, never what a user or operator wrote: the log says who did what to which session, not the
 * conversation.
 */
export interface AuditEntry {
  at: Date;
  /** The operator's id (`unknown` for a failed login with a login no operator has). */
  actorId: string;
  /** The operator's role then (`null` when unknown). */
  actorRole: string | null;
  action: string;
  /** The session acted on, when there is one. */
  sessionId: string | null;
  detail: Record<string, AuditValue>;
}

/** An entry as stored: with its id, increasing in the order entries were appended. */
export interface AuditRecord extends AuditEntry {
  id: number;
}

/** Which entries `AuditLog.list` returns: newest first, filtered, a page at a time. */
export interface AuditQuery {
  sessionId?: string;
  actorId?: string;
  action?: string;
  /** Only entries with an id below this one (the next page: the last id of the previous one). */
  beforeId?: number;
  /** At most this many (default 100, at most 1000). */
  limit?: number;
}

/**
 * The append-only record of operator actions. The in-memory implementation below is the default;
 * the SQLite (`openSqlite(...).auditLog`) and PostgreSQL (`PostgresAuditLog`) ones keep it across
 * restarts and processes. Entries are never updated; retention is the deployment's (delete old rows).
 */
export interface AuditLog {
  append(entry: AuditEntry): Promise<AuditRecord>;
  list(query?: AuditQuery): Promise<AuditRecord[]>;
}

/** `limit` of an `AuditQuery` with its default and bound applied. */
export function auditLimit(query: AuditQuery): number {
  return Math.min(Math.max(Math.trunc(query.limit ?? 100), 1), 1000);
}

/** The audit log in process memory: lost on restart (tests, `treeagent dev` without a data directory). */
export class InMemoryAuditLog implements AuditLog {
  readonly #entries: AuditRecord[] = [];

  async append(entry: AuditEntry): Promise<AuditRecord> {
    const record: AuditRecord = { ...entry, detail: { ...entry.detail }, id: this.#entries.length + 1 };
    this.#entries.push(record);
    return { ...record, detail: { ...record.detail } };
  }

  async list(query: AuditQuery = {}): Promise<AuditRecord[]> {
    const limit = auditLimit(query);
    const found: AuditRecord[] = [];
    for (let index = this.#entries.length - 1; index >= 0 && found.length < limit; index--) {
      const entry = this.#entries[index]!;
      if (query.beforeId !== undefined && entry.id >= query.beforeId) continue;
      if (query.sessionId !== undefined && entry.sessionId !== query.sessionId) continue;
      if (query.actorId !== undefined && entry.actorId !== query.actorId) continue;
      if (query.action !== undefined && entry.action !== query.action) continue;
      found.push({ ...entry, detail: { ...entry.detail } });
    }
    return found;
  }
}
