import { TreeAgentError, type TreeAgentErrorCode } from '@treeagent/core';
import type { SqliteDatabase } from './sqlite-database.js';
import { guard } from './sqlite-errors.js';

/**
 * What every store on a `SqliteDatabase` shares: its open/closed state, and running a call with
 * SQLite's errors turned into the store's `TreeAgentError` (a closed store refuses every call).
 */
export class StoreHandle {
  readonly #database: SqliteDatabase;
  readonly #code: TreeAgentErrorCode;
  readonly #noun: string;
  #closed = false;

  /** `where` opens every error message ("The SQLite vector store (file)"); `noun` says what is closed. */
  constructor(
    database: SqliteDatabase,
    code: TreeAgentErrorCode,
    readonly where: string,
    noun = 'store',
  ) {
    this.#database = database;
    this.#code = code;
    this.#noun = noun;
  }

  /** Fails with the store's code when the store or its file is closed. */
  checkOpen(what: string): void {
    if (this.#closed || !this.#database.isOpen) {
      throw new TreeAgentError(this.#code, `${this.where} could not ${what}: the ${this.#noun} is closed.`);
    }
  }

  /** Runs `body` on the open store; SQLite's errors become the store's code, naming `what`. */
  run<T>(what: string, body: () => T): T {
    this.checkOpen(what);
    return guard(this.#code, this.where, () => what, body);
  }

  /** Empties the WAL after a deletion (`SqliteDatabase.purgeDeleted`): every store's `purgeDeleted`. */
  purgeDeleted(): void {
    this.run('empty the WAL after a deletion', () => this.#database.purgeDeleted());
  }

  /**
   * Marks the store closed and releases the file (it closes with its last store), after
   * `beforeRelease` (which may still use the connection). Closing twice does nothing.
   */
  close(beforeRelease?: () => void): void {
    if (this.#closed) return;
    this.#closed = true;
    beforeRelease?.();
    this.#database.release();
  }
}
