import { TreeAgentError } from '@treeagent/core';
import {
  ENVIRONMENT_CHANGE_COLUMNS,
  type EnvironmentChange,
  type EnvironmentChangeRow,
  type EnvironmentExperiment,
  environmentChangeOfRow,
  environmentChangeValues,
  NO_GATE,
  type PublishGate,
  TREE_VERSION_COLUMNS,
  type TreeEnvironment,
  type TreeEnvironmentRow,
  type TreeVersion,
  type TreeVersionRow,
  treeEnvironmentOfRow,
  treeVersionOfRow,
  treeVersionValues,
  type VersionStore,
} from '@treeagent/core/adapter';
import type pg from 'pg';
import { type PostgresOperatorStoreOptions, PostgresSideTable } from './postgres-side-table.js';
import { sessionTable, transaction } from './sql.js';

/** The `LISTEN`/`NOTIFY` channel of environment moves (payload: the versions table, tree, environment). */
const VERSIONS_CHANNEL = 'treeagent_versions';

/**
 * The tree versions and environments (`VersionStore` of `@treeagent/core/adapter`) in PostgreSQL,
 * tables `<prefix>tree_versions`, `<prefix>tree_environments` and `<prefix>tree_environment_history`.
 *
 * @example
 * const versionStore = new PostgresVersionStore({ connection: process.env.DATABASE_URL });
 */
export class PostgresVersionStore extends PostgresSideTable implements VersionStore {
  /** Quoted, schema-qualified names of the environments and history tables. */
  readonly environmentsTable: string;
  readonly historyTable: string;
  readonly sessionsTable: string;

  constructor(options: PostgresOperatorStoreOptions) {
    super(options, 'tree_versions', 'tree versions table', 'PostgresVersionStore');
    const schema = options.schema ?? 'public';
    const prefix = options.tablePrefix ?? 'treeagent_';
    this.environmentsTable = sessionTable(schema, `${prefix}tree_environments`, 'tree environments table');
    this.sessionsTable = sessionTable(
      schema,
      `${prefix}tree_session_versions`,
      'tree session versions table',
    );
    this.historyTable = sessionTable(
      schema,
      `${prefix}tree_environment_history`,
      'tree environment history table',
    );
  }

  protected createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (
         seq bigserial,
         tree text NOT NULL,
         id text NOT NULL,
         hash text NOT NULL,
         document_hash text NOT NULL,
         callbacks_hash text,
         document text NOT NULL,
         created_at timestamptz NOT NULL,
         author text NOT NULL,
         message text NOT NULL,
         parent_id text,
         diff text NOT NULL,
         PRIMARY KEY (tree, id)
       )`,
      `CREATE TABLE IF NOT EXISTS ${this.environmentsTable} (
         tree text NOT NULL,
         name text NOT NULL,
         version_id text,
         gate jsonb NOT NULL,
         PRIMARY KEY (tree, name)
       )`,
      `ALTER TABLE ${this.environmentsTable} ADD COLUMN IF NOT EXISTS experiment jsonb`,
      `CREATE TABLE IF NOT EXISTS ${this.historyTable} (
         seq bigserial PRIMARY KEY,
         tree text NOT NULL,
         environment text NOT NULL,
         version_id text NOT NULL,
         action text NOT NULL,
         author text NOT NULL,
         message text NOT NULL,
         at timestamptz NOT NULL,
         figures jsonb
       )`,
      `CREATE TABLE IF NOT EXISTS ${this.sessionsTable} (
         tree text NOT NULL,
         session_id text NOT NULL,
         version_id text NOT NULL,
         PRIMARY KEY (tree, session_id)
       )`,
      `CREATE INDEX IF NOT EXISTS ${this.index('tree_environment_history_by_environment')} ON ${this.historyTable} (tree, environment, seq)`,
      // Deleted sessions' versions are forgotten by session id (expiry, personal data requests).
      `CREATE INDEX IF NOT EXISTS ${this.index('tree_session_versions_by_session')} ON ${this.sessionsTable} (session_id)`,
    ];
  }

  async addVersion(version: TreeVersion): Promise<{ version: TreeVersion; created: boolean }> {
    return this.run(`save the version "${version.id}" of the tree "${version.tree}"`, async (pool) => {
      const inserted = await pool.query(
        `INSERT INTO ${this.table} (${TREE_VERSION_COLUMNS.join(', ')})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (tree, id) DO NOTHING`,
        treeVersionValues(version),
      );
      const { rows } = await pool.query<TreeVersionRow>(
        `SELECT * FROM ${this.table} WHERE tree = $1 AND id = $2`,
        [version.tree, version.id],
      );
      return { version: treeVersionOfRow(rows[0]!), created: (inserted.rowCount ?? 0) > 0 };
    });
  }

  async getVersion(tree: string, id: string): Promise<TreeVersion | null> {
    return this.run('read a tree version', async (pool) => {
      const { rows } = await pool.query<TreeVersionRow>(
        `SELECT * FROM ${this.table} WHERE tree = $1 AND id = $2`,
        [tree, id],
      );
      return rows[0] ? treeVersionOfRow(rows[0]) : null;
    });
  }

  async listVersions(tree: string): Promise<TreeVersion[]> {
    return this.run('list the tree versions', async (pool) => {
      const { rows } = await pool.query<TreeVersionRow>(
        `SELECT * FROM ${this.table} WHERE tree = $1 ORDER BY seq DESC`,
        [tree],
      );
      return rows.map(treeVersionOfRow);
    });
  }

  async getEnvironment(tree: string, name: string): Promise<TreeEnvironment | null> {
    return this.run('read a tree environment', async (pool) => {
      const { rows } = await pool.query<TreeEnvironmentRow>(
        `SELECT * FROM ${this.environmentsTable} WHERE tree = $1 AND name = $2`,
        [tree, name],
      );
      return rows[0] ? treeEnvironmentOfRow(rows[0]) : null;
    });
  }

  async listEnvironments(tree: string): Promise<TreeEnvironment[]> {
    return this.run('list the tree environments', async (pool) => {
      const { rows } = await pool.query<TreeEnvironmentRow>(
        `SELECT * FROM ${this.environmentsTable} WHERE tree = $1 ORDER BY name COLLATE "C"`,
        [tree],
      );
      return rows.map(treeEnvironmentOfRow);
    });
  }

  async setExperiment(tree: string, name: string, experiment: EnvironmentExperiment | null): Promise<void> {
    await this.run(`set the experiment of the environment "${name}"`, (pool) =>
      pool.query(
        `INSERT INTO ${this.environmentsTable} (tree, name, version_id, gate, experiment) VALUES ($1, $2, NULL, $3, $4)
         ON CONFLICT (tree, name) DO UPDATE SET experiment = excluded.experiment`,
        [tree, name, JSON.stringify(NO_GATE), experiment ? JSON.stringify(experiment) : null],
      ),
    );
  }

  async setGate(tree: string, name: string, gate: PublishGate): Promise<void> {
    await this.run(`set the gate of the environment "${name}"`, (pool) =>
      pool.query(
        `INSERT INTO ${this.environmentsTable} (tree, name, version_id, gate) VALUES ($1, $2, NULL, $3)
         ON CONFLICT (tree, name) DO UPDATE SET gate = excluded.gate`,
        [tree, name, JSON.stringify(gate)],
      ),
    );
  }

  async moveEnvironment(tree: string, change: EnvironmentChange): Promise<void> {
    await this.run(`move the environment "${change.environment}" to "${change.versionId}"`, (pool) =>
      transaction(pool, async (client) => {
        const known = await client.query(`SELECT 1 FROM ${this.table} WHERE tree = $1 AND id = $2`, [
          tree,
          change.versionId,
        ]);
        if (!known.rowCount)
          throw new TreeAgentError(
            'INVALID_INPUT',
            `The tree "${tree}" has no version "${change.versionId}": list them with treeagent versions.`,
          );
        await client.query(
          `INSERT INTO ${this.environmentsTable} (tree, name, version_id, gate) VALUES ($1, $2, $3, $4)
           ON CONFLICT (tree, name) DO UPDATE SET version_id = excluded.version_id`,
          [tree, change.environment, change.versionId, JSON.stringify(NO_GATE)],
        );
        await client.query(
          `INSERT INTO ${this.historyTable} (${ENVIRONMENT_CHANGE_COLUMNS.join(', ')})
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          environmentChangeValues(tree, change),
        );
        // Sent at commit: every process serving this environment switches now, not at its next poll.
        await client.query('SELECT pg_notify($1, $2)', [
          VERSIONS_CHANNEL,
          JSON.stringify({ table: this.table, tree, environment: change.environment }),
        ]);
      }),
    );
  }

  /**
   * Calls `listener` when any process moves an environment of this store's tables, by
   * `LISTEN`/`NOTIFY` on a connection of its own. A notification lost while that connection is
   * down is not replayed: servers also poll (docs/versions.md).
   */
  async onEnvironmentMoved(
    listener: (tree: string, environment: string) => void,
  ): Promise<() => Promise<void>> {
    const client = await this.run('listen for publishes', (pool) => pool.connect());
    const onNotification = (message: pg.Notification) => {
      if (message.channel !== VERSIONS_CHANNEL || !message.payload) return;
      try {
        const moved = JSON.parse(message.payload) as { table?: string; tree?: string; environment?: string };
        if (moved.table === this.table && moved.tree && moved.environment)
          listener(moved.tree, moved.environment);
      } catch {
        // Not ours: another program's payload on the channel.
      }
    };
    client.on('notification', onNotification);
    client.on('error', () => {});
    await client.query(`LISTEN ${VERSIONS_CHANNEL}`);
    return async () => {
      client.off('notification', onNotification);
      await client.query(`UNLISTEN ${VERSIONS_CHANNEL}`).catch(() => {});
      client.release();
    };
  }

  async pinSession(tree: string, sessionId: string, versionId: string): Promise<string> {
    return this.run('give a session its tree version', async (pool) => {
      await pool.query(
        `INSERT INTO ${this.sessionsTable} (tree, session_id, version_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [tree, sessionId, versionId],
      );
      const { rows } = await pool.query<{ version_id: string }>(
        `SELECT version_id FROM ${this.sessionsTable} WHERE tree = $1 AND session_id = $2`,
        [tree, sessionId],
      );
      return rows[0]!.version_id;
    });
  }

  async sessionVersion(tree: string, sessionId: string): Promise<string | null> {
    return this.run("read a session's tree version", async (pool) => {
      const { rows } = await pool.query<{ version_id: string }>(
        `SELECT version_id FROM ${this.sessionsTable} WHERE tree = $1 AND session_id = $2`,
        [tree, sessionId],
      );
      return rows[0]?.version_id ?? null;
    });
  }

  async forgetSessions(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    await this.run('forget the tree versions of deleted sessions', async (pool) => {
      await pool.query(`DELETE FROM ${this.sessionsTable} WHERE session_id = ANY($1::text[])`, [
        [...sessionIds],
      ]);
    });
  }

  async history(tree: string, environment: string): Promise<EnvironmentChange[]> {
    return this.run('read the history of a tree environment', async (pool) => {
      const { rows } = await pool.query<EnvironmentChangeRow>(
        `SELECT environment, version_id, action, author, message, at, figures FROM ${this.historyTable}
         WHERE tree = $1 AND environment = $2 ORDER BY seq`,
        [tree, environment],
      );
      return rows.map(environmentChangeOfRow);
    });
  }
}
