import {
  type CannedResponse,
  type CannedResponseRow,
  type CannedResponses,
  cannedResponseOfRow,
  duplicateShortcut,
} from '@treeagent/core/adapter';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

/**
 * The help desk's canned responses (`CannedResponses` of `@treeagent/core/adapter`) in PostgreSQL,
 * table `<prefix>canned_responses`, seen by every server process; a shortcut is unique within its
 * team (a unique key on shortcut and team, `''` standing for every team).
 *
 * @example
 * handoff: { queue, cannedResponses: new PostgresCannedResponses({ connection }) }
 */
export class PostgresCannedResponses extends PostgresSideTable implements CannedResponses {
  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'canned_responses', 'canned responses table', 'PostgresCannedResponses');
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         id text PRIMARY KEY,
         shortcut text NOT NULL,
         team text NOT NULL,
         text text NOT NULL,
         updated_at timestamptz NOT NULL,
         UNIQUE (shortcut, team)
       )`,
    ];
  }

  async save(response: CannedResponse): Promise<void> {
    const written = await this.run(`save the canned response "/${response.shortcut}"`, async (pool) => {
      // Inserted or updated unless the shortcut is taken in the team: then no row, and nothing changed.
      const { rowCount } = await pool.query(
        `INSERT INTO ${this.table} (id, shortcut, team, text, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT DO NOTHING`,
        [response.id, response.shortcut, response.team ?? '', response.text, response.updatedAt],
      );
      if (rowCount) return true;
      const updated = await pool.query(
        `UPDATE ${this.table} SET shortcut = $2, team = $3, text = $4, updated_at = $5
         WHERE id = $1 AND NOT EXISTS (
           SELECT 1 FROM ${this.table} WHERE shortcut = $2 AND team = $3 AND id <> $1)`,
        [response.id, response.shortcut, response.team ?? '', response.text, response.updatedAt],
      );
      return (updated.rowCount ?? 0) > 0;
    });
    if (!written) throw duplicateShortcut(response);
  }

  async list(): Promise<CannedResponse[]> {
    return this.run('read the canned responses', async (pool) => {
      const { rows } = await pool.query<CannedResponseRow>(
        `SELECT id, shortcut, team, text, updated_at FROM ${this.table}
         ORDER BY shortcut COLLATE "C", team COLLATE "C"`,
      );
      return rows.map(cannedResponseOfRow);
    });
  }

  async remove(id: string): Promise<boolean> {
    return this.run(`remove the canned response "${id}"`, async (pool) => {
      const { rowCount } = await pool.query(`DELETE FROM ${this.table} WHERE id = $1`, [id]);
      return (rowCount ?? 0) > 0;
    });
  }
}
