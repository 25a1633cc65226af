import {
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  type AuditRecord,
  type AuditValue,
  auditLimit,
} from '@treeagent/core/adapter';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';

interface Row {
  id: string;
  at: Date;
  actor_id: string;
  actor_role: string | null;
  action: string;
  session_id: string | null;
  detail: Record<string, AuditValue>;
}

/**
 * The audit log of operator actions (`AuditLog` of `@treeagent/core/adapter`) in PostgreSQL, table
 * `<prefix>audit_log`, shared by every server process. Rows are only appended; ids increase.
 */
export class PostgresAuditLog extends PostgresSideTable implements AuditLog {
  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'audit_log', 'audit log table', 'PostgresAuditLog');
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         id bigserial PRIMARY KEY,
         at timestamptz NOT NULL,
         actor_id text NOT NULL,
         actor_role text,
         action text NOT NULL,
         session_id text,
         detail jsonb NOT NULL
       )`,
      `CREATE INDEX IF NOT EXISTS ${this.index('audit_log_by_session')} ON ${this.table} (session_id, id)`,
      `CREATE INDEX IF NOT EXISTS ${this.index('audit_log_by_actor')} ON ${this.table} (actor_id, id)`,
    ];
  }

  async append(entry: AuditEntry): Promise<AuditRecord> {
    return this.run(`append "${entry.action}" to the audit log`, async (pool) => {
      const { rows } = await pool.query<{ id: string }>(
        `INSERT INTO ${this.table} (at, actor_id, actor_role, action, session_id, detail)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
        [
          entry.at,
          entry.actorId,
          entry.actorRole,
          entry.action,
          entry.sessionId,
          JSON.stringify(entry.detail),
        ],
      );
      return { ...entry, detail: { ...entry.detail }, id: Number(rows[0]!.id) };
    });
  }

  async list(query: AuditQuery = {}): Promise<AuditRecord[]> {
    return this.run('read the audit log', async (pool) => {
      const where: string[] = [];
      const values: unknown[] = [];
      const add = (sql: string, value: unknown) => {
        values.push(value);
        where.push(sql.replace('?', `$${values.length}`));
      };
      if (query.sessionId !== undefined) add('session_id = ?', query.sessionId);
      if (query.actorId !== undefined) add('actor_id = ?', query.actorId);
      if (query.action !== undefined) add('action = ?', query.action);
      if (query.beforeId !== undefined) add('id < ?', query.beforeId);
      values.push(auditLimit(query));
      const { rows } = await pool.query<Row>(
        `SELECT * FROM ${this.table} ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
         ORDER BY id DESC LIMIT $${values.length}`,
        values,
      );
      return rows.map((row) => ({
        id: Number(row.id),
        at: row.at,
        actorId: row.actor_id,
        actorRole: row.actor_role,
        action: row.action,
        sessionId: row.session_id,
        detail: row.detail,
      }));
    });
  }
}
