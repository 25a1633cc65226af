import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { TreeAgentError } from '@treeagent/core';

/**
 * The worker: its own read-only connection on the file (WAL lets it read while the server writes),
 * one prepared statement per query text, each query's rows posted back. A query runs to its end on
 * this thread, so the server's event loop never waits for it.
 */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true, timeout: workerData.busyTimeoutMs });
const statements = new Map();
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  const { id, sql, params } = message;
  try {
    let statement = statements.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    parentPort.postMessage({ id, rows: statement.all(...params) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

interface Pending {
  resolve: (rows: Record<string, unknown>[]) => void;
  reject: (error: Error) => void;
}

/**
 * Read-only queries of one SQLite file on a worker thread (the analytics report, docs/analytics.md):
 * a report over a million turns takes seconds of SQLite's time, which on the server's own connection
 * would stop every other request for as long. Started on the first query; the thread keeps the
 * process alive only while a query is pending or it is closing; `close` stops it and resolves when it has.
 */
export class SqliteReadWorker {
  readonly #file: string;
  readonly #busyTimeoutMs: number;
  #worker: Worker | null = null;
  #failure: Error | null = null;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;
  #closed = false;

  constructor(file: string, busyTimeoutMs: number) {
    this.#file = file;
    this.#busyTimeoutMs = busyTimeoutMs;
  }

  /** The rows of a read-only statement (`?` placeholders), run on the worker's connection. */
  query(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]> {
    if (this.#closed) return Promise.reject(this.#error('the store is closed'));
    const worker = this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      if (this.#pending.size === 1) worker.ref();
      worker.postMessage({ id, sql, params });
    });
  }

  /** Stops the thread (its connection closes); pending queries fail. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const worker = this.#worker;
    this.#worker = null;
    if (!worker) return;
    await new Promise<void>((resolve) => {
      worker.once('exit', () => resolve());
      // Held while closing: an unreferenced thread's exit does not keep the process alive, so a caller
      // awaiting close() as its last work (the CLI) would end with that promise never settled (exit 13).
      worker.ref();
      worker.postMessage('close');
    });
    this.#failAll(this.#error('the store was closed during the query'));
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const require = createRequire(import.meta.url);
    const worker = new Worker(workerSource, {
      eval: true,
      workerData: {
        driver: require.resolve('better-sqlite3'),
        file: this.#file,
        busyTimeoutMs: this.#busyTimeoutMs,
      },
    });
    worker.unref();
    worker.on('message', (message: { id: number; rows?: Record<string, unknown>[]; error?: string }) => {
      const pending = this.#pending.get(message.id);
      if (!pending) return;
      this.#pending.delete(message.id);
      if (this.#pending.size === 0) worker.unref();
      if (message.error !== undefined) pending.reject(this.#error(message.error));
      else pending.resolve(message.rows ?? []);
    });
    const fail = (error: Error) => {
      if (this.#worker === worker) this.#worker = null;
      this.#failure = error;
      this.#failAll(
        this.#error(`the query thread stopped (${error.message}); the next query starts another`),
      );
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.#closed) fail(new Error(`exit code ${code}`));
    });
    this.#worker = worker;
    return worker;
  }

  /** Why the thread last failed, if it did (diagnostics). */
  get failure(): Error | null {
    return this.#failure;
  }

  #failAll(error: Error): void {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }

  #error(why: string): TreeAgentError {
    return new TreeAgentError(
      'SESSION_STORE',
      `The SQLite session store (${this.#file}) could not query the turn facts: ${why}.`,
      { details: { file: this.#file, operation: 'query the turn facts' } },
    );
  }
}
