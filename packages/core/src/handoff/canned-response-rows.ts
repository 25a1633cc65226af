import type { CannedResponse } from './canned-responses.js';

/**
 * A row of a SQL table of canned responses (SQLite, PostgreSQL) as a driver reads it back:
 * `updated_at` as ISO text (SQLite) or a `Date`; `team` is `''` for a response of every team (so
 * that a shortcut is unique per team in one index).
 */
export interface CannedResponseRow {
  id: string;
  shortcut: string;
  team: string;
  text: string;
  updated_at: string | Date;
}

/** The canned response a row holds (`team` `''` is `null`: every team). */
export function cannedResponseOfRow(row: CannedResponseRow): CannedResponse {
  return {
    id: row.id,
    shortcut: row.shortcut,
    team: row.team === '' ? null : row.team,
    text: row.text,
    updatedAt: new Date(row.updated_at),
  };
}
