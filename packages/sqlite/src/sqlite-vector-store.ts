import { type RetrievedChunk, TreeAgentError } from '@treeagent/core';
import {
  type ChunkId,
  compareIds,
  compileFilter,
  scrollPage,
  type VectorRecord,
  type VectorScrollPage,
  type VectorScrollRequest,
  type VectorSearchRequest,
  type VectorStore,
} from '@treeagent/core/adapter';
import type Database from 'better-sqlite3';
import { type SchemaMigrations, SqliteDatabase, type SqliteDatabaseOptions } from './sqlite-database.js';
import { StoreHandle } from './store-handle.js';
import { blobToVector, vectorToBlob } from './vector-blob.js';

/** Chunks (id, text, payload JSON, float32 vector) by collection, and a write counter per collection. */
export const VECTOR_SCHEMA: SchemaMigrations = {
  component: 'vectors',
  migrations: [
    `CREATE TABLE vector_points (
       collection TEXT NOT NULL,
       id TEXT NOT NULL,
       numeric_id INTEGER NOT NULL,
       text TEXT NOT NULL,
       payload TEXT NOT NULL,
       vector BLOB NOT NULL,
       PRIMARY KEY (collection, id)
     );
     CREATE TABLE vector_collections (
       collection TEXT PRIMARY KEY NOT NULL,
       generation INTEGER NOT NULL
     ) WITHOUT ROWID;`,
  ],
};

interface Point {
  id: ChunkId;
  text: string;
  payload: Record<string, unknown>;
  vector: Float32Array;
  norm: number;
}

interface CachedCollection {
  /** The collection's write counter when this copy was loaded or last updated. */
  generation: number;
  /** By `String(id)`, as in `InMemoryVectorStore`: `1` and `"1"` are the same point. */
  points: Map<string, Point>;
  /** The points in id order, for scroll; rebuilt after a write. */
  sorted: Point[] | null;
}

interface PointRow {
  id: string;
  numeric_id: number;
  text: string;
  payload: string;
  vector: Uint8Array;
}

/**
 * Chunks in a SQLite file, searched in memory by an exact cosine scan with the shared filter
 * evaluator: the same semantics as `InMemoryVectorStore` (ordering, threshold ≥, exclusions,
 * scroll in id order with the same cursors), persisted. Each collection is loaded once and kept in
 * sync by this store's writes; a write by another connection (its counter in `vector_collections`
 * changed) makes the next read reload it.
 *
 * @example
 * const vectorStore = new SqliteVectorStore('.data/treeagent.db');
 * const agent = new TreeAgent({ tree, vectorStore });
 */
export class SqliteVectorStore implements VectorStore {
  readonly file: string;
  readonly #handle: StoreHandle;
  readonly #cache = new Map<string, CachedCollection>();
  readonly #generation: Database.Statement;
  readonly #points: Database.Statement;
  readonly #upsert: (collection: string, rows: unknown[][]) => number;
  readonly #delete: (collection: string, ids: string[]) => number;

  /** Opens `file` (created with its directories when missing), or uses a database shared with other stores. */
  constructor(file: string | SqliteDatabase, options: SqliteDatabaseOptions = {}) {
    const database = SqliteDatabase.forStore(file, options, VECTOR_SCHEMA, 'VECTOR_STORE');
    this.file = database.file;
    this.#handle = new StoreHandle(database, 'VECTOR_STORE', `The SQLite vector store (${database.file})`);
    const db = database.connection;
    this.#generation = db.prepare('SELECT generation FROM vector_collections WHERE collection = ?');
    this.#points = db.prepare(
      'SELECT id, numeric_id, text, payload, vector FROM vector_points WHERE collection = ?',
    );
    const insert = db.prepare(
      `INSERT INTO vector_points (collection, id, numeric_id, text, payload, vector) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (collection, id) DO UPDATE SET
         numeric_id = excluded.numeric_id, text = excluded.text, payload = excluded.payload, vector = excluded.vector`,
    );
    const remove = db.prepare('DELETE FROM vector_points WHERE collection = ? AND id = ?');
    const bump = db.prepare(
      `INSERT INTO vector_collections (collection, generation) VALUES (?, 1)
       ON CONFLICT (collection) DO UPDATE SET generation = generation + 1
       RETURNING generation`,
    );
    const nextGeneration = (collection: string) =>
      (bump.get(collection) as { generation: number }).generation;
    const upsert = db.transaction((collection: string, rows: unknown[][]) => {
      for (const row of rows) insert.run(collection, ...row);
      return nextGeneration(collection);
    });
    this.#upsert = (collection, rows) => {
      const generation = upsert.immediate(collection, rows);
      database.wrote();
      return generation;
    };
    const deleteMany = db.transaction((collection: string, ids: string[]) => {
      for (const id of ids) remove.run(collection, id);
      return nextGeneration(collection);
    });
    this.#delete = (collection, ids) => {
      const generation = deleteMany.immediate(collection, ids);
      database.wrote();
      return generation;
    };
    database.retain();
  }

  async upsert(collection: string, records: readonly VectorRecord[]): Promise<void> {
    if (!records.length) return;
    this.#run(`upsert ${records.length} chunk(s) in collection "${collection}"`, () => {
      const points = records.map((record) => toPoint(record));
      const rows = points.map((point) => [
        String(point.id),
        typeof point.id === 'number' ? 1 : 0,
        point.text,
        JSON.stringify(point.payload),
        vectorToBlob(point.vector),
      ]);
      const cached = this.#cache.get(collection);
      const generation = this.#upsert(collection, rows);
      if (cached && cached.generation === generation - 1) {
        for (const point of points) cached.points.set(String(point.id), point);
        cached.generation = generation;
        cached.sorted = null;
      } else {
        // Another connection wrote in between: reload on the next read.
        this.#cache.delete(collection);
      }
    });
  }

  async delete(collection: string, ids: readonly ChunkId[]): Promise<void> {
    if (!ids.length) return;
    this.#run(`delete ${ids.length} chunk(s) from collection "${collection}"`, () => {
      const keys = ids.map(String);
      const cached = this.#cache.get(collection);
      const generation = this.#delete(collection, keys);
      if (cached && cached.generation === generation - 1) {
        for (const key of keys) cached.points.delete(key);
        cached.generation = generation;
        cached.sorted = null;
      } else {
        this.#cache.delete(collection);
      }
    });
  }

  async search(request: VectorSearchRequest): Promise<RetrievedChunk[]> {
    const accepts = compileFilter(request.filter);
    return this.#run(`search collection "${request.collection}"`, () => {
      const excluded = new Set((request.exclude ?? []).map(String));
      const queryNorm = norm(request.vector);
      const threshold = request.threshold ?? Number.NEGATIVE_INFINITY;
      const scored: { point: Point; similarity: number }[] = [];
      for (const point of this.#collection(request.collection).points.values()) {
        if (excluded.has(String(point.id)) || !accepts({ id: point.id, payload: point.payload })) continue;
        const similarity = cosine(request.vector, queryNorm, point.vector, point.norm);
        if (similarity >= threshold) scored.push({ point, similarity });
      }
      scored.sort((a, b) => b.similarity - a.similarity || compareIds(a.point.id, b.point.id));
      return scored.slice(0, request.limit).map(({ point, similarity }) => toChunk(point, similarity));
    });
  }

  async scroll(request: VectorScrollRequest): Promise<VectorScrollPage> {
    const accepts = compileFilter(request.filter);
    return this.#run(`scroll collection "${request.collection}"`, () =>
      scrollPage(this.#sorted(request.collection), request, { accepts, inIdOrder: true }),
    );
  }

  async ids(collection: string): Promise<ChunkId[]> {
    return this.#run(`list the ids of collection "${collection}"`, () =>
      this.#sorted(collection).map((point) => point.id),
    );
  }

  /** Closes the file (when no other store shares it) and drops the in-memory copies. */
  async close(): Promise<void> {
    this.#handle.close(() => this.#cache.clear());
  }

  /** The collection's points, loaded from the file the first time and after another connection wrote it. */
  #collection(name: string): CachedCollection {
    const generation = (this.#generation.get(name) as { generation: number } | undefined)?.generation ?? 0;
    const cached = this.#cache.get(name);
    if (cached && cached.generation === generation) return cached;
    const points = new Map<string, Point>();
    for (const row of this.#points.all(name) as PointRow[]) {
      const vector = blobToVector(row.vector);
      points.set(row.id, {
        id: row.numeric_id ? Number(row.id) : row.id,
        text: row.text,
        payload: JSON.parse(row.payload) as Record<string, unknown>,
        vector,
        norm: norm(vector),
      });
    }
    const loaded: CachedCollection = { generation, points, sorted: null };
    this.#cache.set(name, loaded);
    return loaded;
  }

  #sorted(name: string): Point[] {
    const collection = this.#collection(name);
    collection.sorted ??= [...collection.points.values()].sort((a, b) => compareIds(a.id, b.id));
    return collection.sorted;
  }

  #run<T>(what: string, body: () => T): T {
    return this.#handle.run(what, body);
  }
}

/** A record as it will read back from the file: payload through JSON, vector as float32. */
function toPoint(record: VectorRecord): Point {
  const { id } = record;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)))) {
    throw new TreeAgentError('VECTOR_STORE', `Chunk id ${String(id)} is not a finite number or a string.`, {
      details: { id: String(id) },
    });
  }
  const vector = Float32Array.from(record.vector);
  const payload = JSON.parse(JSON.stringify(record.payload ?? {})) as Record<string, unknown>;
  return { id, text: record.text, payload, vector, norm: norm(vector) };
}

function toChunk(point: Point, similarity: number | null): RetrievedChunk {
  return { id: point.id, text: point.text, extra: structuredClone(point.payload), similarity };
}

function norm(vector: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  return Math.sqrt(sum);
}

function cosine(a: ArrayLike<number>, aNorm: number, b: Float32Array, bNorm: number): number {
  if (aNorm === 0 || bNorm === 0 || a.length !== b.length) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot / (aNorm * bNorm);
}
