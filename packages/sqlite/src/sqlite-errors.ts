import { TreeAgentError, type TreeAgentErrorCode } from '@treeagent/core';

/** What a SQLite result code means, in words a user can act on. */
const EXPLANATIONS: Record<string, string> = {
  SQLITE_FULL: 'the disk is full',
  SQLITE_BUSY: 'the database file is locked by another connection and the busy timeout ran out',
  SQLITE_LOCKED: 'the database is locked by another statement of the same connection',
  SQLITE_READONLY: 'the database file is read-only',
  SQLITE_CANTOPEN: 'the database file cannot be opened',
  SQLITE_CORRUPT: 'the database file is corrupt',
  SQLITE_NOTADB: 'the file is not a SQLite database',
  SQLITE_IOERR: 'a disk I/O error occurred',
  SQLITE_PERM: 'permission denied',
  SQLITE_NOMEM: 'SQLite ran out of memory',
  SQLITE_TOOBIG: 'a value is too large for SQLite',
};

/** Describes a SQLite (or other) error: the explanation of its result code, then the original message. */
export function describeSqliteError(error: unknown): string {
  const code = sqliteCode(error);
  const message = error instanceof Error ? error.message : String(error);
  if (!code) return message;
  // Extended codes (SQLITE_IOERR_WRITE, SQLITE_BUSY_SNAPSHOT…) share their primary code's explanation.
  const primary = /^SQLITE_[A-Z]+/.exec(code)?.[0] ?? code;
  const explanation = EXPLANATIONS[code] ?? EXPLANATIONS[primary];
  return explanation ? `${explanation} (${code}: ${message})` : `${code}: ${message}`;
}

/** The SQLite result code of an error thrown by better-sqlite3 (`SQLITE_FULL`…), if any. */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/**
 * Runs `body`, turning any error that is not already a `TreeAgentError` into one with `code`, whose
 * message says which store, which file and what failed.
 */
export function guard<T>(code: TreeAgentErrorCode, where: string, what: () => string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    throw wrapError(code, where, what(), error);
  }
}

export function wrapError(code: TreeAgentErrorCode, where: string, what: string, error: unknown): Error {
  if (TreeAgentError.isInstance(error)) return error;
  const sqlite = sqliteCode(error);
  return new TreeAgentError(code, `${where} could not ${what}: ${describeSqliteError(error)}.`, {
    cause: error,
    details: sqlite ? { sqliteCode: sqlite } : {},
  });
}
