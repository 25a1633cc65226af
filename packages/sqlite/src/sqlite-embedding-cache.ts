import { createHash } from 'node:crypto';
import type { EmbeddingCache } from '@treeagent/core';
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
 * A persistent embedding cache in a SQLite file: vectors as float32 BLOBs keyed by model id and
 * the SHA-256 of the text, so restarts and re-deploys do not re-embed. `getMany` is one query per
 * batch, `setMany` one transaction.
 *
 * @example
 * const embeddingCache = new SqliteEmbeddingCache('.data/treeagent.db');
 * const agent = new TreeAgent({ tree, embeddingCache });
 */
export class SqliteEmbeddingCache implements EmbeddingCache {
  readonly file: string;
  readonly #handle: StoreHandle;
  readonly #select: Database.Statement;
  readonly #count: Database.Statement;
  readonly #insert: (modelId: string, rows: [string, Buffer][]) => void;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, EMBEDDING_SCHEMA, 'EMBEDDER');
    this.file = database.file;
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
    const insertMany = db.transaction((modelId: string, rows: [string, Buffer][]) => {
      for (const [hash, vector] of rows) insert.run(modelId, hash, vector);
    });
    this.#insert = (modelId, rows) => {
      insertMany.immediate(modelId, rows);
      database.wrote();
    };
    database.retain();
  }

  async getMany(modelId: string, texts: readonly string[]): Promise<(Float32Array | undefined)[]> {
    if (!texts.length) return [];
    return this.#run(`read ${texts.length} vector(s) of model "${modelId}"`, () => {
      const hashes = texts.map(hashText);
      const rows = this.#select.all(modelId, JSON.stringify([...new Set(hashes)])) as {
        text_hash: string;
        vector: Uint8Array;
      }[];
      const found = new Map(rows.map((row) => [row.text_hash, row.vector]));
      return hashes.map((hash) => {
        const blob = found.get(hash);
        return blob ? blobToVector(blob) : undefined;
      });
    });
  }

  async setMany(modelId: string, entries: readonly { text: string; vector: Float32Array }[]): Promise<void> {
    if (!entries.length) return;
    this.#run(`store ${entries.length} vector(s) of model "${modelId}"`, () => {
      this.#insert(
        modelId,
        entries.map((entry) => [hashText(entry.text), vectorToBlob(entry.vector)]),
      );
    });
  }

  /** Number of vectors cached for a model. */
  async size(modelId: string): Promise<number> {
    return this.#run(`count the vectors of model "${modelId}"`, () => {
      return (this.#count.get(modelId) as { n: number }).n;
    });
  }

  /** Closes the file (when no other store shares it). */
  async close(): Promise<void> {
    this.#handle.close();
  }

  #run<T>(what: string, body: () => T): T {
    return this.#handle.run(what, body);
  }
}

function hashText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
