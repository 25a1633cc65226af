import type {
  ExternalOperatorIdentity,
  OperatorSessionRecord,
  OperatorSessions,
} from '@treeagent/core/adapter';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

export type { PostgresOperatorStoreOptions } from './postgres-side-table.js';

/**
 * The server's operator logins (`OperatorSessions` of `@treeagent/core/adapter`: the SHA-256 of each
 * login token, never the token) in PostgreSQL, table `<prefix>operator_sessions`, so an operator who
 * logged in through one server process is recognised by all of them.
 *
 * @example
 * const sessions = new PostgresOperatorSessions({ connection: process.env.DATABASE_URL });
 * await serve({ agent, operators: { directory, sessions, auditLog: new PostgresAuditLog({ connection }) } });
 */
export class PostgresOperatorSessions extends PostgresSideTable implements OperatorSessions {
  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'operator_sessions', 'operator sessions table', 'PostgresOperatorSessions');
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         token_hash text PRIMARY KEY,
         operator_id text NOT NULL,
         created_at timestamptz NOT NULL,
         expires_at timestamptz NOT NULL
       )`,
      // A single sign-on login's identity, so every process recognises it (added after the table).
      `ALTER TABLE ${this.table} ADD COLUMN IF NOT EXISTS identity jsonb`,
    ];
  }

  async save(tokenHash: string, record: OperatorSessionRecord): Promise<void> {
    await this.run(`save the login of operator "${record.operatorId}"`, (pool) =>
      pool.query(
        `INSERT INTO ${this.table} (token_hash, operator_id, created_at, expires_at, identity)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (token_hash) DO UPDATE SET operator_id = excluded.operator_id,
           created_at = excluded.created_at, expires_at = excluded.expires_at, identity = excluded.identity`,
        [
          tokenHash,
          record.operatorId,
          record.createdAt,
          record.expiresAt,
          record.identity ? JSON.stringify(record.identity) : null,
        ],
      ),
    );
  }

  async find(tokenHash: string): Promise<OperatorSessionRecord | null> {
    return this.run('read an operator login', async (pool) => {
      const { rows } = await pool.query<{
        operator_id: string;
        created_at: Date;
        expires_at: Date;
        identity: ExternalOperatorIdentity | null;
      }>(`SELECT operator_id, created_at, expires_at, identity FROM ${this.table} WHERE token_hash = $1`, [
        tokenHash,
      ]);
      const row = rows[0];
      return row
        ? {
            operatorId: row.operator_id,
            createdAt: row.created_at,
            expiresAt: row.expires_at,
            ...(row.identity ? { identity: row.identity } : {}),
          }
        : null;
    });
  }

  async delete(tokenHash: string): Promise<void> {
    await this.run('delete an operator login', (pool) =>
      pool.query(`DELETE FROM ${this.table} WHERE token_hash = $1`, [tokenHash]),
    );
  }

  async deleteOperator(operatorId: string): Promise<number> {
    return this.run(`delete the logins of operator "${operatorId}"`, async (pool) => {
      const result = await pool.query(`DELETE FROM ${this.table} WHERE operator_id = $1`, [operatorId]);
      return result.rowCount ?? 0;
    });
  }

  async deleteExpired(now: Date): Promise<number> {
    return this.run('delete expired operator logins', async (pool) => {
      const result = await pool.query(`DELETE FROM ${this.table} WHERE expires_at < $1`, [now]);
      return result.rowCount ?? 0;
    });
  }
}
