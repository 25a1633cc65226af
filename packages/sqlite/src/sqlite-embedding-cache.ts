import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { EmbeddingCache } from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';
import { blobToVector, vectorToBlob } from './vector-blob.js';

/** Vectors by model id and SHA-256 of the text. */
export const EMBEDDING_SCHEMA: SchemaMigrations = {
  component: 'embeddings',
  migrations: [
    `CREATE TABLE embeddings (
       model TEXT NOT NULL,
       text_hash TEXT NOT NULL,
       vector BLOB NOT NULL,
       PRIMARY KEY (model, text_hash)
     );`,
  ],
};

/**
 * `setMany` batches of at most this many vectors (a turn's message, a query) are written off the
 * caller's path: kept in memory at once (so `getMany` answers them), written to the file in one
 * transaction `DEFERRED_WRITE_MS` later. Larger batches (loading a tree) are written at once.
 */
export const DEFERRED_WRITE_MAX = 64;
/** How long small `setMany` batches wait in memory before they are written together. */
export const DEFERRED_WRITE_MS = 100;
/** Pending vectors written at once, whatever the timer: bounds the memory of back-to-back calls. */
const PENDING_WRITE_AT = 256;
/** Pending vectors kept after failed writes before they are dropped (a cache loses only work: they are re-embedded). */
const PENDING_LIMIT = 10_000;

export interface SqliteEmbeddingCacheOptions extends SqliteDatabaseOptions {
  /**
   * Write small `setMany` batches off the caller's path (default `true`; see `DEFERRED_WRITE_MAX`):
   * a turn whose message is new does not wait for a SQLite transaction. `false`: every `setMany`
   * writes before it resolves.
   */
  deferWrites?: boolean;
}

/**
 * A persistent embedding cache in a SQLite file: vectors as float32 BLOBs keyed by model id and
 * the SHA-256 of the text, so restarts and re-deploys do not re-embed. `getMany` is one query per
 * batch, `setMany` one transaction. Small batches (a turn's new message) are written off the turn's
 * path, a few together, about 100 ms later; until then `getMany` answers them from memory, and
 * `flush()` / `close()` write whatever is pending.
 *
 * @example
 * const embeddingCache = new SqliteEmbeddingCache('.data/treeagent.db');
 * const agent = new TreeAgent({ tree, embeddingCache });
 */
export class SqliteEmbeddingCache implements EmbeddingCache {
  readonly file: string;
  /**
   * Packed index files of the agents using this cache (`TreeAgentOptions.indexDirectory`): `index/`
   * beside the database file; none for `:memory:`.
   */
  readonly indexDirectory: string | undefined;
  readonly #handle: StoreHandle;
  readonly #select: Database.Statement;
  readonly #count: Database.Statement;
  readonly #insert: (rows: [string, string, Buffer][]) => void;
  readonly #defer: boolean;
  /** Vectors not yet written, by model and hash (`pendingKey`), in the order they were set. */
  readonly #pending = new Map<string, [model: string, hash: string, vector: Buffer]>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** The last deferred write's failure, reported by the next `flush()` or `close()`. */
  #failure: unknown = null;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteEmbeddingCacheOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, EMBEDDING_SCHEMA, 'EMBEDDER');
    this.file = database.file;
    this.indexDirectory = database.file === ':memory:' ? undefined : join(dirname(database.file), 'index');
    this.#handle = new StoreHandle(
      database,
      'EMBEDDER',
      `The SQLite embedding cache (${database.file})`,
      'cache',
    );
    const db = database.connection;
    this.#select = db.prepare(
      'SELECT text_hash, vector FROM embeddings WHERE model = ? AND text_hash IN (SELECT value FROM json_each(?))',
    );
    this.#count = db.prepare('SELECT count(*) AS n FROM embeddings WHERE model = ?');
    const insert = db.prepare(
      `INSERT INTO embeddings (model, text_hash, vector) VALUES (?, ?, ?)
       ON CONFLICT (model, text_hash) DO UPDATE SET vector = excluded.vector`,
    );
    const insertMany = db.transaction((rows: [string, string, Buffer][]) => {
      for (const [modelId, hash, vector] of rows) insert.run(modelId, hash, vector);
    });
    this.#insert = (rows) => {
      insertMany.immediate(rows);
      database.wrote();
    };
    this.#defer = options.deferWrites ?? true;
    database.retain();
  }

  async getMany(modelId: string, texts: readonly string[]): Promise<(Float32Array | undefined)[]> {
    if (!texts.length) return [];
    return this.#run(`read ${texts.length} vector(s) of model "${modelId}"`, () => {
      const hashes = texts.map(hashText);
      const pending = this.#pending;
      const stored = pending.size ? hashes.filter((hash) => !pending.has(pendingKey(modelId, hash))) : hashes;
      const rows = stored.length
        ? (this.#select.all(modelId, JSON.stringify([...new Set(stored)])) as {
            text_hash: string;
            vector: Uint8Array;
          }[])
        : [];
      const found = new Map<string, Uint8Array>(rows.map((row) => [row.text_hash, row.vector]));
      return hashes.map((hash) => {
        const blob = pending.get(pendingKey(modelId, hash))?.[2] ?? found.get(hash);
        return blob ? blobToVector(blob) : undefined;
      });
    });
  }

  async setMany(modelId: string, entries: readonly { text: string; vector: Float32Array }[]): Promise<void> {
    if (!entries.length) return;
    const what = `store ${entries.length} vector(s) of model "${modelId}"`;
    this.#handle.checkOpen(what);
    const rows = entries.map((entry): [string, string, Buffer] => [
      modelId,
      hashText(entry.text),
      vectorToBlob(entry.vector),
    ]);
    if (this.#defer && entries.length <= DEFERRED_WRITE_MAX) {
      for (const row of rows) {
        const key = pendingKey(row[0], row[1]);
        this.#pending.delete(key); // the latest value goes last
        this.#pending.set(key, row);
      }
      // Bounded: when the event loop gives the timer no turn (calls back to back), write them here.
      if (this.#pending.size >= PENDING_WRITE_AT) {
        this.#writePending();
        return;
      }
      // Not unref'd: a process that ends without close() still writes them before it exits.
      this.#timer ??= setTimeout(() => this.#writePending(), DEFERRED_WRITE_MS);
      return;
    }
    // A large batch: what is pending first, so that the latest value of a text wins.
    this.#run(what, () => this.#insert([...this.#takePending(), ...rows]));
  }

  /**
   * Writes the vectors `setMany` kept in memory (small batches are written about 100 ms after they
   * are set). Fails with `EMBEDDER` when a deferred write failed since the last call.
   */
  async flush(): Promise<void> {
    this.#writePending();
    const failure = this.#failure;
    this.#failure = null;
    if (failure) throw failure;
  }

  /** Number of vectors cached for a model (pending ones written first). */
  async size(modelId: string): Promise<number> {
    await this.flush();
    return this.#run(`count the vectors of model "${modelId}"`, () => {
      return (this.#count.get(modelId) as { n: number }).n;
    });
  }

  /** Writes the pending vectors, then closes the file (when no other store shares it). */
  async close(): Promise<void> {
    let failure: unknown = null;
    try {
      if (this.#pending.size) await this.flush();
    } catch (error) {
      failure = error;
    }
    this.#handle.close();
    if (failure) throw failure;
  }

  /** Writes what is pending in one transaction; on failure keeps it (up to `PENDING_LIMIT`) for the next try. */
  #writePending(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (!this.#pending.size) return;
    const rows = this.#takePending();
    try {
      this.#run(`store ${rows.length} vector(s)`, () => this.#insert(rows));
    } catch (error) {
      this.#failure = error;
      if (rows.length <= PENDING_LIMIT)
        for (const row of rows) {
          const key = pendingKey(row[0], row[1]);
          if (!this.#pending.has(key)) this.#pending.set(key, row);
        }
    }
  }

  #takePending(): [string, string, Buffer][] {
    const rows = [...this.#pending.values()];
    this.#pending.clear();
    return rows;
  }

  #run<T>(what: string, body: () => T): T {
    return this.#handle.run(what, body);
  }
}

function pendingKey(modelId: string, hash: string): string {
  return `${modelId}\u0000${hash}`;
}

function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
