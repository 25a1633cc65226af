import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { TreeAgentError, type TreeAgentErrorCode } from '@treeagent/core';
import Database from 'better-sqlite3';
import { guard } from './sqlite-errors.js';
import {
  type CheckpointOptions,
  type CheckpointReport,
  checkCheckpointOptions,
  WalCheckpointer,
  WRITES_BEFORE_START,
} from './wal-checkpointer.js';

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
  /**
   * Where the WAL is checkpointed. Default: on a background thread once the file has seen a few
   * writes, so no turn waits for the copy and its fsync (see `CheckpointOptions`).
   */
  checkpoint?: CheckpointOptions;
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
  readonly #synchronous: SynchronousMode;
  readonly #busyTimeoutMs: number;
  readonly #checkpoint: CheckpointOptions;
  #checkpointer: WalCheckpointer | null = null;
  #writes = 0;
  #checkpointError: Error | null = null;
  #users = 0;
  #onCheckpoint: ((report: CheckpointReport) => void) | undefined;

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
    this.#synchronous = synchronous;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#checkpoint = options.checkpoint ?? {};
    if (this.#checkpoint.mode !== undefined && !['background', 'inline'].includes(this.#checkpoint.mode)) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `checkpoint.mode must be "background" or "inline"; got ${JSON.stringify(this.#checkpoint.mode)}.`,
      );
    }
    checkCheckpointOptions(this.#checkpoint);
    this.connection = guard(
      errorCode,
      `SQLite (${this.file})`,
      () => 'open the database file',
      () => {
        if (!memory) createPrivately(this.file);
        const connection = new Database(this.file, { timeout: busyTimeoutMs });
        try {
          connection.pragma('journal_mode = WAL');
          connection.pragma(`synchronous = ${synchronous}`);
          // Deleted content is overwritten with zeros, freed pages included (docs/privacy.md): a
          // deleted message, note or file leaves no copy in the file's free space.
          connection.pragma('secure_delete = ON');
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

  /**
   * The database of a store: `file` opened (a path) or shared (a `SqliteDatabase`), with the
   * store's tables migrated. A database opened here is closed again if the migration fails.
   */
  static forStore(
    file: string | SqliteDatabase,
    options: SqliteDatabaseOptions,
    schema: SchemaMigrations,
    errorCode: TreeAgentErrorCode,
  ): SqliteDatabase {
    const database = typeof file === 'string' ? new SqliteDatabase(file, options, errorCode) : file;
    try {
      database.migrate(schema, errorCode);
    } catch (error) {
      if (typeof file === 'string') database.close();
      throw error;
    }
    return database;
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

  /**
   * Called by the stores after each write transaction. After a few writes on a file database, starts
   * the background checkpoint thread and turns SQLite's inline automatic checkpoint off; if the
   * thread ever fails, the automatic checkpoint comes back on (`checkpointError` says why).
   */
  wrote(): void {
    if (this.#checkpointer) {
      // The thread checkpoints when the writes pause, or after many under load.
      this.#checkpointer.wrote();
      return;
    }
    if (this.#checkpointError || this.file === ':memory:') return;
    if ((this.#checkpoint.mode ?? 'background') !== 'background') return;
    if (++this.#writes < WRITES_BEFORE_START || !this.connection.open) return;
    try {
      this.#checkpointer = new WalCheckpointer({
        ...this.#checkpoint,
        file: this.file,
        synchronous: this.#synchronous,
        busyTimeoutMs: this.#busyTimeoutMs,
        onReport: (report) => this.#onCheckpoint?.(report),
        report: this.#onCheckpoint !== undefined,
        onFailure: (error) => this.#inlineCheckpoints(error),
      });
      this.connection.pragma('wal_autocheckpoint = 0');
    } catch (error) {
      this.#inlineCheckpoints(error as Error);
    }
  }

  /** Receives each background checkpoint's report (tests and diagnostics); the thread reports only while set. */
  get onCheckpoint(): ((report: CheckpointReport) => void) | undefined {
    return this.#onCheckpoint;
  }

  set onCheckpoint(listener: ((report: CheckpointReport) => void) | undefined) {
    this.#onCheckpoint = listener;
    if (this.#checkpointer) this.#checkpointer.reporting = listener !== undefined;
  }

  /** Whether the background checkpoint thread is running. */
  get checkpointsInBackground(): boolean {
    return this.#checkpointer !== null;
  }

  /** Why the background checkpoint thread stopped, when it failed (checkpoints are then inline). */
  get checkpointError(): Error | null {
    return this.#checkpointError;
  }

  #inlineCheckpoints(error: Error): void {
    this.#checkpointError = error;
    this.#checkpointer = null;
    if (this.connection.open) this.connection.pragma('wal_autocheckpoint = 1000');
  }

  /**
   * After a deletion (one user's data on request, docs/privacy.md): copies the WAL into the database
   * file and truncates it to zero bytes (`wal_checkpoint(TRUNCATE)`). `secure_delete` zeroed the
   * deleted content in the pages the deletion wrote, but the WAL still holds earlier images of those
   * pages until it is overwritten; after this, neither file holds them. Waits (busy timeout) for
   * readers of older snapshots; fails, naming the fix, if one kept reading throughout.
   */
  purgeDeleted(): void {
    if (this.file === ':memory:') return;
    for (let attempt = 1; ; attempt++) {
      const [result] = this.connection.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
      if (result?.busy === 0) return;
      if (attempt === 3) {
        throw new TreeAgentError(
          'SESSION_STORE',
          `SQLite (${this.file}): the rows are deleted, but the WAL could not be emptied: another connection kept reading an older snapshot for ${3 * this.#busyTimeoutMs} ms, so ${this.file}-wal may still hold copies of them until its next checkpoint. Repeat the request once long reads (reports, exports) have finished.`,
        );
      }
    }
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
    // The thread's connection closes after this one: being the last, it checkpoints and removes the WAL.
    void this.#checkpointer?.close();
    this.#checkpointer = null;
    if (this.connection.open) this.connection.close();
  }
}

/**
 * Creates the database file's directory (0700: only the owner may list or enter it) and the file
 * itself (0600) before SQLite opens it, so the conversations it holds are never readable by other
 * users of the machine. SQLite gives the `-wal` and `-shm` files the database file's mode; the
 * modes of existing files are tightened as well (existing directories are left as they are: the
 * directory may be the user's own, such as the working directory).
 */
function createPrivately(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      chmodSync(`${file}${suffix}`, 0o600);
    } catch {
      // Missing (-wal/-shm before the first write) or not ours: nothing to tighten.
    }
  }
}
