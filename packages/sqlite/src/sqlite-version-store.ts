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
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';

/** Tree versions, environments and their publish history (docs/versions.md). */
export const VERSION_SCHEMA: SchemaMigrations = {
  component: 'tree_versions',
  migrations: [
    `CREATE TABLE tree_versions (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       tree TEXT NOT NULL,
       id TEXT NOT NULL,
       hash TEXT NOT NULL,
       document_hash TEXT NOT NULL,
       callbacks_hash TEXT,
       document TEXT NOT NULL,
       created_at TEXT NOT NULL,
       author TEXT NOT NULL,
       message TEXT NOT NULL,
       parent_id TEXT,
       diff TEXT NOT NULL,
       UNIQUE (tree, id)
     );
     CREATE TABLE tree_environments (
       tree TEXT NOT NULL,
       name TEXT NOT NULL,
       version_id TEXT,
       gate TEXT NOT NULL,
       PRIMARY KEY (tree, name)
     );
     CREATE TABLE tree_environment_history (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       tree TEXT NOT NULL,
       environment TEXT NOT NULL,
       version_id TEXT NOT NULL,
       action TEXT NOT NULL,
       author TEXT NOT NULL,
       message TEXT NOT NULL,
       at TEXT NOT NULL,
       figures TEXT
     );
     CREATE INDEX tree_environment_history_by_environment ON tree_environment_history (tree, environment, seq);`,
    `CREATE TABLE tree_session_versions (
       tree TEXT NOT NULL,
       session_id TEXT NOT NULL,
       version_id TEXT NOT NULL,
       PRIMARY KEY (tree, session_id)
     );`,
    'ALTER TABLE tree_environments ADD COLUMN experiment TEXT;',
    // Deleted sessions' versions are forgotten by session id (expiry, personal data requests).
    'CREATE INDEX tree_session_versions_by_session ON tree_session_versions (session_id);',
  ],
};

/**
 * The tree versions and environments (`VersionStore` of `@treeagent/core/adapter`) in the SQLite
 * file, beside the sessions. `openSqlite` opens it with the other stores.
 */
export class SqliteVersionStore implements VersionStore {
  readonly file: string;
  readonly #database: SqliteDatabase;
  readonly #handle: StoreHandle;
  readonly #connection: Database.Database;
  readonly #move: (tree: string, change: EnvironmentChange) => void;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, VERSION_SCHEMA, 'SESSION_STORE');
    this.#database = database;
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'SESSION_STORE', `The SQLite version store (${database.file})`);
    this.#connection = database.connection;
    const move = this.#connection.transaction((tree: string, change: EnvironmentChange) => {
      const known = this.#connection
        .prepare('SELECT 1 FROM tree_versions WHERE tree = ? AND id = ?')
        .get(tree, change.versionId);
      if (!known)
        throw new TreeAgentError(
          'INVALID_INPUT',
          `The tree "${tree}" has no version "${change.versionId}": list them with treeagent versions.`,
        );
      this.#connection
        .prepare(
          `INSERT INTO tree_environments (tree, name, version_id, gate) VALUES (?, ?, ?, ?)
           ON CONFLICT (tree, name) DO UPDATE SET version_id = excluded.version_id`,
        )
        .run(tree, change.environment, change.versionId, JSON.stringify(NO_GATE));
      this.#connection
        .prepare(
          `INSERT INTO tree_environment_history (${ENVIRONMENT_CHANGE_COLUMNS.join(', ')})
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(...environmentChangeValues(tree, change));
    });
    this.#move = (tree, change) => move.immediate(tree, change);
    database.retain();
  }

  async addVersion(version: TreeVersion): Promise<{ version: TreeVersion; created: boolean }> {
    return this.#handle.run(`save the version "${version.id}" of the tree "${version.tree}"`, () => {
      const { changes } = this.#connection
        .prepare(
          `INSERT INTO tree_versions (${TREE_VERSION_COLUMNS.join(', ')})
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tree, id) DO NOTHING`,
        )
        .run(...treeVersionValues(version));
      if (changes) this.#database.wrote();
      const row = this.#connection
        .prepare('SELECT * FROM tree_versions WHERE tree = ? AND id = ?')
        .get(version.tree, version.id) as TreeVersionRow;
      return { version: treeVersionOfRow(row), created: changes > 0 };
    });
  }

  async getVersion(tree: string, id: string): Promise<TreeVersion | null> {
    return this.#handle.run('read a tree version', () => {
      const row = this.#connection
        .prepare('SELECT * FROM tree_versions WHERE tree = ? AND id = ?')
        .get(tree, id) as TreeVersionRow | undefined;
      return row ? treeVersionOfRow(row) : null;
    });
  }

  async listVersions(tree: string): Promise<TreeVersion[]> {
    return this.#handle.run('list the tree versions', () =>
      (
        this.#connection
          .prepare('SELECT * FROM tree_versions WHERE tree = ? ORDER BY seq DESC')
          .all(tree) as TreeVersionRow[]
      ).map(treeVersionOfRow),
    );
  }

  async getEnvironment(tree: string, name: string): Promise<TreeEnvironment | null> {
    return this.#handle.run('read a tree environment', () => {
      const row = this.#connection
        .prepare('SELECT * FROM tree_environments WHERE tree = ? AND name = ?')
        .get(tree, name) as TreeEnvironmentRow | undefined;
      return row ? treeEnvironmentOfRow(row) : null;
    });
  }

  async listEnvironments(tree: string): Promise<TreeEnvironment[]> {
    return this.#handle.run('list the tree environments', () =>
      (
        this.#connection
          .prepare('SELECT * FROM tree_environments WHERE tree = ? ORDER BY name')
          .all(tree) as TreeEnvironmentRow[]
      ).map(treeEnvironmentOfRow),
    );
  }

  async setExperiment(tree: string, name: string, experiment: EnvironmentExperiment | null): Promise<void> {
    this.#handle.run(`set the experiment of the environment "${name}"`, () => {
      this.#connection
        .prepare(
          `INSERT INTO tree_environments (tree, name, version_id, gate, experiment) VALUES (?, ?, NULL, ?, ?)
           ON CONFLICT (tree, name) DO UPDATE SET experiment = excluded.experiment`,
        )
        .run(tree, name, JSON.stringify(NO_GATE), experiment ? JSON.stringify(experiment) : null);
      this.#database.wrote();
    });
  }

  async setGate(tree: string, name: string, gate: PublishGate): Promise<void> {
    this.#handle.run(`set the gate of the environment "${name}"`, () => {
      this.#connection
        .prepare(
          `INSERT INTO tree_environments (tree, name, version_id, gate) VALUES (?, ?, NULL, ?)
           ON CONFLICT (tree, name) DO UPDATE SET gate = excluded.gate`,
        )
        .run(tree, name, JSON.stringify(gate));
      this.#database.wrote();
    });
  }

  async moveEnvironment(tree: string, change: EnvironmentChange): Promise<void> {
    this.#handle.run(`move the environment "${change.environment}" to "${change.versionId}"`, () => {
      this.#move(tree, change);
      this.#database.wrote();
    });
  }

  async history(tree: string, environment: string): Promise<EnvironmentChange[]> {
    return this.#handle.run('read the history of a tree environment', () =>
      (
        this.#connection
          .prepare('SELECT * FROM tree_environment_history WHERE tree = ? AND environment = ? ORDER BY seq')
          .all(tree, environment) as EnvironmentChangeRow[]
      ).map(environmentChangeOfRow),
    );
  }

  async pinSession(tree: string, sessionId: string, versionId: string): Promise<string> {
    return this.#handle.run('give a session its tree version', () => {
      const { changes } = this.#connection
        .prepare(
          'INSERT INTO tree_session_versions (tree, session_id, version_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
        )
        .run(tree, sessionId, versionId);
      if (changes) this.#database.wrote();
      return this.#sessionVersion(tree, sessionId)!;
    });
  }

  async sessionVersion(tree: string, sessionId: string): Promise<string | null> {
    return this.#handle.run("read a session's tree version", () => this.#sessionVersion(tree, sessionId));
  }

  async forgetSessions(sessionIds: readonly string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    this.#handle.run('forget the tree versions of deleted sessions', () => {
      const forget = this.#connection.prepare('DELETE FROM tree_session_versions WHERE session_id = ?');
      let changes = 0;
      this.#connection.transaction(() => {
        for (const sessionId of sessionIds) changes += forget.run(sessionId).changes;
      })();
      if (changes) this.#database.wrote();
    });
  }

  #sessionVersion(tree: string, sessionId: string): string | null {
    const row = this.#connection
      .prepare('SELECT version_id FROM tree_session_versions WHERE tree = ? AND session_id = ?')
      .get(tree, sessionId) as { version_id: string } | undefined;
    return row?.version_id ?? null;
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }
}
