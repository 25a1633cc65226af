import { TreeAgentError } from '@treeagent/core';
import type pg from 'pg';
import { runMigration } from './migration.js';
import {
  quoteIdent,
  retriedOnce,
  type StorePool,
  sessionTable,
  storeError,
  storePool,
  vacuum,
} from './sql.js';

/** Options of the server's side tables in PostgreSQL: operator logins, audit log, handoff queue and outbox. */
export interface PostgresOperatorStoreOptions {
  /** A `postgres://` URL or a pg `PoolConfig`. Required unless `pool` is given. */
  connection?: string | pg.PoolConfig;
  /** An existing pg pool (left open by `close()`), e.g. the one of your other stores. */
  pool?: pg.Pool;
  /** Schema of the table; created when missing. Default `public`. */
  schema?: string;
  /** Prefix of the table name. Default `treeagent_`. */
  tablePrefix?: string;
  /** Create the table on first use (idempotent). Default `true`. */
  autoMigrate?: boolean;
}

/**
 * What the server's PostgreSQL side tables share: one table `<prefix><name>` in a schema, created on
 * first use (idempotent, safe from several processes), a pool (ended by `close()` unless it was
 * given), and errors that say which table and what failed (`SESSION_STORE`). A subclass names its
 * table and its `CREATE … IF NOT EXISTS` statements (the forms `runMigration` reads), and runs its queries through `run`.
 */
export abstract class PostgresSideTable {
  /** Quoted, schema-qualified table name. */
  readonly table: string;
  protected readonly store: StorePool;
  /** The table's prefix, for index names (they live in the schema: the prefix keeps installs apart). */
  protected readonly prefix: string;
  readonly #schema: string;
  readonly #autoMigrate: boolean;
  readonly #what: string;
  readonly #className: string;
  readonly #migrateOnce = retriedOnce(() => this.migrate());
  #closed = false;

  /** `name`: the table without its prefix (`audit_log`); `what`: the table in messages (`audit log table`). */
  protected constructor(
    options: PostgresOperatorStoreOptions,
    name: string,
    what: string,
    className: string,
  ) {
    this.#schema = options.schema ?? 'public';
    this.prefix = options.tablePrefix ?? 'treeagent_';
    this.table = sessionTable(this.#schema, `${this.prefix}${name}`, what);
    this.store = storePool(options, 'SESSION_STORE', className);
    this.#autoMigrate = options.autoMigrate ?? true;
    this.#what = what;
    this.#className = className;
  }

  /** The statements that create the table and its indexes (`IF NOT EXISTS`), in order. */
  protected abstract createStatements(): string[];

  /** An index name of this table (quoted). */
  protected index(suffix: string): string {
    return quoteIdent(`${this.prefix}${suffix}`);
  }

  /**
   * Creates the schema, the table and its indexes when missing: idempotent, and safe when several
   * processes start at once (serialised with every store's migration in the schema, see `runMigration`).
   */
  async migrate(): Promise<void> {
    try {
      await runMigration(this.store.pool, { schema: this.#schema, statements: this.createStatements() });
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', `create the ${this.#what}`, this.store.endpoint);
    }
  }

  /** `VACUUM` of its table after a deletion (see `vacuum` in sql.ts; docs/privacy.md). */
  async purgeDeleted(): Promise<void> {
    await this.run(`vacuum the ${this.#what}`, (pool) => vacuum(pool, [this.table]));
  }

  /** Ends the pool (unless it was given). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.store.ownsPool) await this.store.pool.end();
  }

  /** Runs `body` on the pool (after creating the table on first use); `operation` names it in errors. */
  protected async run<T>(operation: string, body: (pool: pg.Pool) => Promise<T>): Promise<T> {
    if (this.#closed) throw new TreeAgentError('SESSION_STORE', `The ${this.#className} is closed.`);
    if (this.#autoMigrate) await this.#migrateOnce();
    try {
      return await body(this.store.pool);
    } catch (error) {
      throw storeError(error, 'SESSION_STORE', operation, this.store.endpoint);
    }
  }
}
