import type { OperatorPresence, OperatorRouting, PresenceStatus } from '@treeagent/core/adapter';
import { nextAfter } from '@treeagent/core/adapter';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

/**
 * Operators' presence and the teams' round robins (`OperatorRouting` of `@treeagent/core/adapter`) in
 * PostgreSQL, table `<prefix>operator_routing` (one row per operator's presence, one per team's last
 * turn): every server process routes with the same view, and a round robin's turn is taken under a
 * row lock (`SELECT … FOR UPDATE`), so two processes never give the same turn twice.
 *
 * @example
 * handoff: { queue: new PostgresHandoffQueue({ connection }), routing: new PostgresOperatorRouting({ connection }) }
 */
export class PostgresOperatorRouting extends PostgresSideTable implements OperatorRouting {
  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'operator_routing', 'operator routing table', 'PostgresOperatorRouting');
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         kind text NOT NULL,
         key text NOT NULL,
         name text,
         teams jsonb,
         status text,
         at timestamptz,
         last_operator_id text,
         PRIMARY KEY (kind, key)
       )`,
    ];
  }

  async setPresence(presence: OperatorPresence): Promise<void> {
    await this.run(`set the presence of operator "${presence.operatorId}"`, (pool) =>
      pool.query(
        `INSERT INTO ${this.table} (kind, key, name, teams, status, at) VALUES ('presence', $1, $2, $3, $4, $5)
         ON CONFLICT (kind, key) DO UPDATE SET name = excluded.name, teams = excluded.teams,
           status = excluded.status, at = excluded.at`,
        [presence.operatorId, presence.name, JSON.stringify(presence.teams), presence.status, presence.at],
      ),
    );
  }

  async presence(): Promise<OperatorPresence[]> {
    return this.run("read the operators' presence", async (pool) => {
      const { rows } = await pool.query<{
        key: string;
        name: string;
        teams: string[];
        status: string;
        at: Date;
      }>(
        `SELECT key, name, teams, status, at FROM ${this.table} WHERE kind = 'presence' ORDER BY key COLLATE "C"`,
      );
      return rows.map((row) => ({
        operatorId: row.key,
        name: row.name,
        teams: row.teams,
        status: row.status as PresenceStatus,
        at: row.at,
      }));
    });
  }

  async nextInRotation(team: string, candidates: readonly string[]): Promise<string | null> {
    if (candidates.length === 0) return null;
    return this.run(`take the next turn of team "${team}"`, async (pool) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO ${this.table} (kind, key, last_operator_id) VALUES ('rotation', $1, NULL)
           ON CONFLICT (kind, key) DO NOTHING`,
          [team],
        );
        const { rows } = await client.query<{ last_operator_id: string | null }>(
          `SELECT last_operator_id FROM ${this.table} WHERE kind = 'rotation' AND key = $1 FOR UPDATE`,
          [team],
        );
        const next = nextAfter(rows[0]?.last_operator_id ?? null, candidates);
        await client.query(
          `UPDATE ${this.table} SET last_operator_id = $2 WHERE kind = 'rotation' AND key = $1`,
          [team, next],
        );
        await client.query('COMMIT');
        return next;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    });
  }
}
