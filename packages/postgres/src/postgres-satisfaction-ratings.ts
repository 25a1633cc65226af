import {
  SATISFACTION_RATING_COLUMNS,
  type SatisfactionRating,
  type SatisfactionRatingRow,
  type SatisfactionRatings,
  satisfactionRatingOfRow,
  satisfactionRatingValues,
} from '@treeagent/core/adapter';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

/**
 * The users' ratings of conversations with people (`SatisfactionRatings` of `@treeagent/core/adapter`)
 * in PostgreSQL, table `<prefix>satisfaction`, one row per session, seen by every server process.
 *
 * @example
 * handoff: { queue, satisfaction: new PostgresSatisfactionRatings({ connection }) }
 */
export class PostgresSatisfactionRatings extends PostgresSideTable implements SatisfactionRatings {
  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'satisfaction', 'satisfaction table', 'PostgresSatisfactionRatings');
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         session_id text PRIMARY KEY,
         rating smallint NOT NULL,
         comment text,
         operator_id text,
         team text NOT NULL,
         tree_version text NOT NULL,
         at timestamptz NOT NULL
       )`,
    ];
  }

  async add(rating: SatisfactionRating): Promise<boolean> {
    return this.run(`keep the rating of session "${rating.sessionId}"`, async (pool) => {
      const { rowCount } = await pool.query(
        `INSERT INTO ${this.table} (${SATISFACTION_RATING_COLUMNS.join(', ')})
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (session_id) DO NOTHING`,
        satisfactionRatingValues(rating),
      );
      return (rowCount ?? 0) > 0;
    });
  }

  async list(since?: Date): Promise<SatisfactionRating[]> {
    return this.run('read the satisfaction ratings', async (pool) => {
      const { rows } = await pool.query<SatisfactionRatingRow>(
        `SELECT ${SATISFACTION_RATING_COLUMNS.join(', ')} FROM ${this.table}
         WHERE $1::timestamptz IS NULL OR at >= $1 ORDER BY at, session_id COLLATE "C"`,
        [since ?? null],
      );
      return rows.map(satisfactionRatingOfRow);
    });
  }

  async forget(sessionId: string): Promise<boolean> {
    return this.run(`forget the rating of session "${sessionId}"`, async (pool) => {
      const { rowCount } = await pool.query(`DELETE FROM ${this.table} WHERE session_id = $1`, [sessionId]);
      return (rowCount ?? 0) > 0;
    });
  }

  async comment(sessionId: string, comment: string): Promise<boolean> {
    return this.run(`add the comment to the rating of session "${sessionId}"`, async (pool) => {
      const { rowCount } = await pool.query(
        `UPDATE ${this.table} SET comment = $2 WHERE session_id = $1 AND comment IS NULL`,
        [sessionId, comment],
      );
      return (rowCount ?? 0) > 0;
    });
  }
}
