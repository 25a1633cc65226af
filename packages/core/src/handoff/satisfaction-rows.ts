import type { SatisfactionRating } from './satisfaction.js';

/**
 * The columns of a SQL table of satisfaction ratings (SQLite, PostgreSQL), in the order
 * `satisfactionRatingValues` returns them.
 */
export const SATISFACTION_RATING_COLUMNS = [
  'session_id',
  'rating',
  'comment',
  'operator_id',
  'team',
  'tree_version',
  'at',
] as const;

/** A row of `SATISFACTION_RATING_COLUMNS` as a driver reads it back: `at` as ISO text (SQLite) or a `Date`. */
export interface SatisfactionRatingRow {
  session_id: string;
  rating: number;
  comment: string | null;
  operator_id: string | null;
  team: string;
  tree_version: string;
  at: string | Date;
}

/** A rating as the values of `SATISFACTION_RATING_COLUMNS` (its time as ISO text). */
export function satisfactionRatingValues(rating: SatisfactionRating): unknown[] {
  return [
    rating.sessionId,
    rating.rating,
    rating.comment,
    rating.operatorId,
    rating.team,
    rating.treeVersion,
    rating.at.toISOString(),
  ];
}

/** The rating a row of `SATISFACTION_RATING_COLUMNS` holds. */
export function satisfactionRatingOfRow(row: SatisfactionRatingRow): SatisfactionRating {
  return {
    sessionId: row.session_id,
    rating: row.rating as SatisfactionRating['rating'],
    comment: row.comment,
    operatorId: row.operator_id,
    team: row.team,
    treeVersion: row.tree_version,
    at: new Date(row.at),
  };
}
