import { TreeAgentError } from '@treeagent/core';
import {
  type EnvironmentChange,
  type EnvironmentExperiment,
  NO_GATE,
  type PublishGate,
  type TreeEnvironment,
  type TreeVersion,
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

interface VersionRow {
  tree: string;
  id: string;
  hash: string;
  document_hash: string;
  callbacks_hash: string | null;
  document: string;
  created_at: string;
  author: string;
  message: string;
  parent_id: string | null;
  diff: string;
}

interface EnvironmentRow {
  tree: string;
  name: string;
  version_id: string | null;
  gate: string;
  experiment: string | null;
}

interface ChangeRow {
  environment: string;
  version_id: string;
  action: EnvironmentChange['action'];
  author: string;
  message: string;
  at: string;
  figures: string | null;
}

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
          `INSERT INTO tree_environment_history (tree, environment, version_id, action, author, message, at, figures)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          tree,
          change.environment,
          change.versionId,
          change.action,
          change.author,
          change.message,
          change.at.toISOString(),
          change.figures ? JSON.stringify(change.figures) : null,
        );
    });
    this.#move = (tree, change) => move.immediate(tree, change);
    database.retain();
  }

  async addVersion(version: TreeVersion): Promise<{ version: TreeVersion; created: boolean }> {
    return this.#handle.run(`save the version "${version.id}" of the tree "${version.tree}"`, () => {
      const { changes } = this.#connection
        .prepare(
          `INSERT INTO tree_versions (tree, id, hash, document_hash, callbacks_hash, document, created_at, author,
             message, parent_id, diff)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (tree, id) DO NOTHING`,
        )
        .run(
          version.tree,
          version.id,
          version.hash,
          version.documentHash,
          version.callbacksHash,
          version.document,
          version.createdAt.toISOString(),
          version.author,
          version.message,
          version.parentId,
          version.diff,
        );
      if (changes) this.#database.wrote();
      const row = this.#connection
        .prepare('SELECT * FROM tree_versions WHERE tree = ? AND id = ?')
        .get(version.tree, version.id) as VersionRow;
      return { version: versionOf(row), created: changes > 0 };
    });
  }

  async getVersion(tree: string, id: string): Promise<TreeVersion | null> {
    return this.#handle.run('read a tree version', () => {
      const row = this.#connection
        .prepare('SELECT * FROM tree_versions WHERE tree = ? AND id = ?')
        .get(tree, id) as VersionRow | undefined;
      return row ? versionOf(row) : null;
    });
  }

  async listVersions(tree: string): Promise<TreeVersion[]> {
    return this.#handle.run('list the tree versions', () =>
      (
        this.#connection
          .prepare('SELECT * FROM tree_versions WHERE tree = ? ORDER BY seq DESC')
          .all(tree) as VersionRow[]
      ).map(versionOf),
    );
  }

  async getEnvironment(tree: string, name: string): Promise<TreeEnvironment | null> {
    return this.#handle.run('read a tree environment', () => {
      const row = this.#connection
        .prepare('SELECT * FROM tree_environments WHERE tree = ? AND name = ?')
        .get(tree, name) as EnvironmentRow | undefined;
      return row ? environmentOf(row) : null;
    });
  }

  async listEnvironments(tree: string): Promise<TreeEnvironment[]> {
    return this.#handle.run('list the tree environments', () =>
      (
        this.#connection
          .prepare('SELECT * FROM tree_environments WHERE tree = ? ORDER BY name')
          .all(tree) as EnvironmentRow[]
      ).map(environmentOf),
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
          .all(tree, environment) as ChangeRow[]
      ).map((row) => ({
        environment: row.environment,
        versionId: row.version_id,
        action: row.action,
        author: row.author,
        message: row.message,
        at: new Date(row.at),
        figures: row.figures ? (JSON.parse(row.figures) as EnvironmentChange['figures']) : null,
      })),
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

function versionOf(row: VersionRow): TreeVersion {
  return {
    tree: row.tree,
    id: row.id,
    hash: row.hash,
    documentHash: row.document_hash,
    callbacksHash: row.callbacks_hash,
    document: row.document,
    createdAt: new Date(row.created_at),
    author: row.author,
    message: row.message,
    parentId: row.parent_id,
    diff: row.diff,
  };
}

function environmentOf(row: EnvironmentRow): TreeEnvironment {
  return {
    tree: row.tree,
    name: row.name,
    versionId: row.version_id,
    gate: JSON.parse(row.gate) as PublishGate,
    experiment: row.experiment ? experimentOf(JSON.parse(row.experiment)) : null,
  };
}

function experimentOf(
  value: Omit<EnvironmentExperiment, 'startedAt'> & { startedAt: string },
): EnvironmentExperiment {
  return { ...value, startedAt: new Date(value.startedAt) };
}
