import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { TreeAgentError, type TreeAgentErrorCode } from '@treeagent/core';
import Database from 'better-sqlite3';
import { guard } from './sqlite-errors.js';

/** SQLite's `PRAGMA synchronous`: how often it waits for the disk. */
export type SynchronousMode = 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA';

export interface SqliteDatabaseOptions {
  /**
   * `PRAGMA synchronous`. Default `NORMAL`: with WAL, a committed transaction survives a crash of
   * the process; only a power loss or OS crash can lose the last few commits (never corrupts).
   * `FULL` also survives power loss, at the cost of one fsync per commit.
   */
  synchronous?: SynchronousMode;
  /** How long a statement waits for another connection's write lock before failing. Default 5000 ms. */
  busyTimeoutMs?: number;
}

/** The schema of one component (sessions, vectors, embeddings): migration `i` brings it to version `i + 1`. */
export interface SchemaMigrations {
  component: string;
  migrations: readonly string[];
}

const SYNCHRONOUS_MODES: readonly SynchronousMode[] = ['OFF', 'NORMAL', 'FULL', 'EXTRA'];

/**
 * One SQLite connection on one file, shared by the stores opened on it: WAL journal, the chosen
 * `synchronous` mode and busy timeout, and per-component schema versions in the `schema_version`
 * table. The connection closes when the last store using it is closed.
 */
export class SqliteDatabase {
  /** Absolute path of the database file (or `:memory:`). */
  readonly file: string;
  readonly connection: Database.Database;
  readonly #migrated = new Set<string>();
  #users = 0;

  /** Opens (creating it and its parent directories when missing) the database file. */
  constructor(
    file: string,
    options: SqliteDatabaseOptions = {},
    errorCode: TreeAgentErrorCode = 'SESSION_STORE',
  ) {
    const memory = file === ':memory:';
    this.file = memory ? file : resolve(file);
    const synchronous = (options.synchronous ?? 'NORMAL').toUpperCase() as SynchronousMode;
    if (!SYNCHRONOUS_MODES.includes(synchronous)) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `synchronous must be one of ${SYNCHRONOUS_MODES.join(', ')}; got ${JSON.stringify(options.synchronous)}.`,
      );
    }
    const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
    if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `busyTimeoutMs must be a non-negative integer; got ${busyTimeoutMs}.`,
      );
    }
    this.connection = guard(
      errorCode,
      `SQLite (${this.file})`,
      () => 'open the database file',
      () => {
        if (!memory) mkdirSync(dirname(this.file), { recursive: true });
        const connection = new Database(this.file, { timeout: busyTimeoutMs });
        try {
          connection.pragma('journal_mode = WAL');
          connection.pragma(`synchronous = ${synchronous}`);
          // Checks that the file really is a database before any store uses it.
          connection.pragma('schema_version');
        } catch (error) {
          connection.close();
          throw error;
        }
        return connection;
      },
    );
  }

  /** Whether the connection is still open. */
  get isOpen(): boolean {
    return this.connection.open;
  }

  /**
   * Brings a component's tables to the latest version, in one `BEGIN IMMEDIATE` transaction, so
   * processes opening the file at the same time migrate it once. Fails on a file written by a newer
   * version of this package.
   */
  migrate(schema: SchemaMigrations, errorCode: TreeAgentErrorCode): void {
    if (this.#migrated.has(schema.component)) return;
    const target = schema.migrations.length;
    guard(
      errorCode,
      `SQLite (${this.file})`,
      () => `create or migrate the ${schema.component} tables`,
      () =>
        this.connection
          .transaction(() => {
            this.connection.exec(
              'CREATE TABLE IF NOT EXISTS schema_version (component TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL) WITHOUT ROWID',
            );
            const row = this.connection
              .prepare('SELECT version FROM schema_version WHERE component = ?')
              .get(schema.component) as { version: number } | undefined;
            const current = row?.version ?? 0;
            if (current > target) {
              throw new TreeAgentError(
                errorCode,
                `SQLite (${this.file}): the ${schema.component} tables are at schema version ${current}, newer than this version of @treeagent/sqlite knows (${target}). Upgrade the package or use another file.`,
                { details: { component: schema.component, version: current, supported: target } },
              );
            }
            for (let version = current; version < target; version++) {
              this.connection.exec(schema.migrations[version]!);
            }
            if (current !== target) {
              this.connection
                .prepare(
                  'INSERT INTO schema_version (component, version) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET version = excluded.version',
                )
                .run(schema.component, target);
            }
          })
          .immediate(),
    );
    this.#migrated.add(schema.component);
  }

  /** Registers one more store using the connection. */
  retain(): void {
    this.#users++;
  }

  /** Unregisters a store; the connection closes with the last one. */
  release(): void {
    this.#users = Math.max(0, this.#users - 1);
    if (this.#users === 0) this.close();
  }

  /** Closes the connection now, whoever still uses it. */
  close(): void {
    if (this.connection.open) this.connection.close();
  }
}
