import { type RetrievedChunk, TreeAgentError } from '@treeagent/core';
import {
  type ChunkId,
  decodeOffset,
  encodeOffset,
  type VectorRecord,
  type VectorScrollPage,
  type VectorScrollRequest,
  type VectorSearchRequest,
  type VectorStore,
} from '@treeagent/core/adapter';
import type pg from 'pg';
import { filterToSql } from './filter-to-sql.js';
import { isCreationRace, lockSchemaForMigration, MIGRATION_ATTEMPTS } from './migration.js';
import {
  type Endpoint,
  identifier,
  quoteIdent,
  retriedOnce,
  storeError,
  storePool,
  transaction,
} from './sql.js';

/** HNSW parameters (pgvector's defaults when absent). */
export interface HnswOptions {
  /** Connections per layer (index build). Default 16. */
  m?: number;
  /** Candidate list size while building. Default 64. */
  efConstruction?: number;
  /** Candidate list size while searching: raise it for better recall. Default 40. */
  efSearch?: number;
}

export interface PgVectorStoreOptions {
  /** A `postgres://` URL or a pg `PoolConfig`. Required unless `pool` is given. */
  connection?: string | pg.PoolConfig;
  /** An existing pg pool (left open by `close()`). */
  pool?: pg.Pool;
  /** Schema of the table; created when missing. Default `public`. */
  schema?: string;
  /** Table holding every collection. Default `treeagent_vectors`. */
  table?: string;
  /**
   * Dimensions of the embeddings (`vector(n)`): vectors of another size are refused. Needed for an
   * index. Without it the column takes any size, and a vector compares with similarity 0 to
   * vectors of another size (as the in-memory store does).
   */
  dimensions?: number;
  /**
   * `'hnsw'` builds an HNSW index for cosine distance: approximate and fast on large collections
   * (pgvector's iterative scan keeps filtered searches filled). Default: no index, an exact scan.
   */
  createIndex?: 'hnsw' | null;
  hnsw?: HnswOptions;
  /** Create the extension (when allowed), schema, table and indexes on first use. Default `true`. */
  autoMigrate?: boolean;
}

interface Row {
  id: string;
  id_kind: number;
  text: string;
  payload: Record<string, unknown>;
  similarity?: number;
}

const UPSERT_BATCH = 500;
const INDEX_NAME_SUFFIXES = ['_order', '_hnsw'];

/**
 * A `VectorStore` on PostgreSQL with pgvector (docs/concepts.md §6): one table for all collections, search by
 * cosine similarity (`1 - (embedding <=> query)`), Qdrant-style filters translated to SQL over the
 * jsonb payload (`filterToSql`), scroll in id order (integers first, numerically; then strings)
 * with the same cursors as the in-memory store.
 *
 * @example
 * const vectorStore = new PgVectorStore({ connection: process.env.DATABASE_URL!, dimensions: 384 });
 * const agent = new TreeAgent({ tree, embedder, vectorStore });
 */
export class PgVectorStore implements VectorStore {
  /** The quoted, schema-qualified table name. */
  readonly table: string;
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #endpoint: Endpoint;
  readonly #schema: string;
  readonly #tableName: string;
  readonly #dimensions: number | undefined;
  readonly #index: 'hnsw' | null;
  readonly #hnsw: Required<HnswOptions>;
  readonly #autoMigrate: boolean;
  /** Migrates before the first query (when autoMigrate is on). */
  readonly #prepareOnce = retriedOnce(() => (this.#autoMigrate ? this.migrate() : Promise.resolve()));
  #closed = false;

  constructor(options: PgVectorStoreOptions) {
    const { dimensions } = options;
    if (
      dimensions !== undefined &&
      (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 16_000)
    ) {
      throw new TreeAgentError(
        'VECTOR_STORE',
        `dimensions must be an integer from 1 to 16000, got ${dimensions}.`,
      );
    }
    this.#index = options.createIndex ?? null;
    if (this.#index !== null && this.#index !== 'hnsw') {
      throw new TreeAgentError(
        'VECTOR_STORE',
        `createIndex must be 'hnsw' or null, got ${String(this.#index)}.`,
      );
    }
    if (this.#index && dimensions === undefined) {
      throw new TreeAgentError('VECTOR_STORE', 'An HNSW index needs fixed `dimensions`.');
    }
    if (this.#index && dimensions! > 2000) {
      throw new TreeAgentError(
        'VECTOR_STORE',
        `pgvector's HNSW index takes at most 2000 dimensions, got ${dimensions}.`,
      );
    }
    this.#hnsw = {
      m: positiveInteger(options.hnsw?.m ?? 16, 'hnsw.m'),
      efConstruction: positiveInteger(options.hnsw?.efConstruction ?? 64, 'hnsw.efConstruction'),
      efSearch: positiveInteger(options.hnsw?.efSearch ?? 40, 'hnsw.efSearch'),
    };
    this.#schema = options.schema ?? 'public';
    this.#tableName = options.table ?? 'treeagent_vectors';
    for (const suffix of INDEX_NAME_SUFFIXES)
      identifier(`${this.#tableName}${suffix}`, 'index', 'VECTOR_STORE');
    this.table = `${identifier(this.#schema, 'schema', 'VECTOR_STORE')}.${identifier(this.#tableName, 'table', 'VECTOR_STORE')}`;
    this.#dimensions = dimensions;
    const { pool, ownsPool, endpoint } = storePool(options, 'VECTOR_STORE', 'PgVectorStore');
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#endpoint = endpoint;
    this.#autoMigrate = options.autoMigrate ?? true;
  }

  /**
   * Creates what is missing: the `vector` extension (needs the privilege; a clear error says so),
   * the schema, the table, its id-order index and, with `createIndex: 'hnsw'`, the HNSW index.
   * Idempotent and serialised between processes. Checks that an existing table has the configured
   * dimensions.
   */
  async migrate(): Promise<void> {
    try {
      // Several processes may start at once on a new database: the schema lock serialises this
      // store's creations with every other TreeAgent store's in the schema, and a race lost to a
      // creator that does not take it (another tool, the extension created elsewhere) is retried.
      for (let attempt = 1; ; attempt++) {
        try {
          await this.#migrate();
          break;
        } catch (error) {
          if (attempt >= MIGRATION_ATTEMPTS || !isCreationRace(error)) throw error;
        }
      }
    } catch (error) {
      throw storeError(error, 'VECTOR_STORE', 'create the vector table', this.#endpoint);
    }
  }

  async #migrate(): Promise<void> {
    const table = this.table;
    const column = this.#dimensions === undefined ? 'vector' : `vector(${this.#dimensions})`;
    await transaction(this.#pool, async (client) => {
      await lockSchemaForMigration(client, this.#schema);
      const { rows: ext } = await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'vector'`);
      if (ext.length === 0) {
        try {
          await client.query('SAVEPOINT ext');
          await client.query('CREATE EXTENSION IF NOT EXISTS vector');
        } catch (error) {
          await client.query('ROLLBACK TO SAVEPOINT ext');
          throw new TreeAgentError(
            'VECTOR_STORE',
            `The pgvector extension is not enabled in the database of PostgreSQL at ${this.#endpoint.host}:${this.#endpoint.port} and could not be created (${(error as Error).message}). Install pgvector on the server and run CREATE EXTENSION vector as a privileged user (scripts/setup-postgres.sh does both for the tests).`,
            { cause: error },
          );
        }
      }
      const { rows: existing } = await client.query<{ type: string | null }>(
        `SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
          WHERE a.attrelid = to_regclass($1) AND a.attname = 'embedding' AND NOT a.attisdropped`,
        [table],
      );
      if (existing.length > 0) {
        const type = existing[0]!.type;
        if (type !== column) {
          throw new TreeAgentError(
            'VECTOR_STORE',
            `The table ${table} holds embeddings of type ${type}, but this store is configured for ${column}: use another table, or the same dimensions.`,
          );
        }
      } else {
        const { rows: schema } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [
          this.#schema,
        ]);
        if (schema.length === 0)
          await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.#schema)}`);
        await client.query(`
          CREATE TABLE IF NOT EXISTS ${table} (
            collection text NOT NULL,
            id         text COLLATE "C" NOT NULL,
            id_kind    smallint NOT NULL CHECK (id_kind IN (0, 1)),
            id_num     double precision,
            text       text NOT NULL,
            payload    jsonb NOT NULL,
            embedding  ${column} NOT NULL,
            PRIMARY KEY (collection, id)
          )`);
      }
      const indexes = [
        [`${this.#tableName}_order`, `(collection, id_kind, id_num, id)`],
        ...(this.#index === 'hnsw'
          ? [
              [
                `${this.#tableName}_hnsw`,
                `USING hnsw (embedding vector_cosine_ops) WITH (m = ${this.#hnsw.m}, ef_construction = ${this.#hnsw.efConstruction})`,
              ],
            ]
          : []),
      ];
      for (const [name, definition] of indexes) {
        const qualified = `${quoteIdent(this.#schema)}.${quoteIdent(name!)}`;
        const { rows } = await client.query<{ found: boolean }>(
          'SELECT to_regclass($1) IS NOT NULL AS found',
          [qualified],
        );
        if (!rows[0]!.found)
          await client.query(`CREATE INDEX IF NOT EXISTS ${quoteIdent(name!)} ON ${table} ${definition}`);
      }
    });
  }

  async #ready(): Promise<void> {
    if (this.#closed) throw new TreeAgentError('VECTOR_STORE', 'The PgVectorStore is closed.');
    await this.#prepareOnce();
  }

  async #run<T>(operation: string, body: () => Promise<T>): Promise<T> {
    await this.#ready();
    try {
      return await body();
    } catch (error) {
      throw storeError(error, 'VECTOR_STORE', operation, this.#endpoint);
    }
  }

  async upsert(collection: string, records: readonly VectorRecord[]): Promise<void> {
    if (records.length === 0) return;
    // The last record of an id wins, as in memory; one statement cannot touch a row twice.
    const byId = new Map<string, VectorRecord>();
    for (const record of records) {
      const key = String(record.id);
      byId.delete(key);
      byId.set(key, record);
    }
    const unique = [...byId.values()];
    for (const record of unique)
      this.#checkDimensions(record.vector, `the vector of record ${String(record.id)}`);
    await this.#run(`upsert ${unique.length} records into collection "${collection}"`, () =>
      transaction(this.#pool, async (client) => {
        for (let start = 0; start < unique.length; start += UPSERT_BATCH) {
          const batch = unique.slice(start, start + UPSERT_BATCH);
          await client.query(
            `INSERT INTO ${this.table} AS t (collection, id, id_kind, id_num, text, payload, embedding)
             SELECT $1, u.id, u.kind, u.num, u.text, u.payload, u.embedding::vector
               FROM unnest($2::text[], $3::smallint[], $4::float8[], $5::text[], $6::jsonb[], $7::text[])
                 AS u(id, kind, num, text, payload, embedding)
             ON CONFLICT (collection, id) DO UPDATE
               SET id_kind = EXCLUDED.id_kind, id_num = EXCLUDED.id_num, text = EXCLUDED.text,
                   payload = EXCLUDED.payload, embedding = EXCLUDED.embedding`,
            [
              collection,
              batch.map((r) => String(r.id)),
              batch.map((r) => (typeof r.id === 'number' ? 0 : 1)),
              batch.map((r) => (typeof r.id === 'number' ? r.id : null)),
              batch.map((r) => r.text),
              batch.map((r) => JSON.stringify(r.payload ?? {})),
              batch.map((r) => vectorLiteral(r.vector)),
            ],
          );
        }
      }),
    );
  }

  async delete(collection: string, ids: readonly ChunkId[]): Promise<void> {
    if (ids.length === 0) return;
    await this.#run(`delete ${ids.length} records from collection "${collection}"`, async () => {
      await this.#pool.query(`DELETE FROM ${this.table} WHERE collection = $1 AND id = ANY ($2::text[])`, [
        collection,
        ids.map(String),
      ]);
    });
  }

  async search(request: VectorSearchRequest): Promise<RetrievedChunk[]> {
    this.#checkDimensions(request.vector, 'the query vector');
    await this.#ready();
    const limit = sqlLimit(request.limit);
    if (limit === 0) return [];
    const params: unknown[] = [request.collection, vectorLiteral(request.vector)];
    const where = this.#where(request, params);
    const threshold = request.threshold ?? Number.NEGATIVE_INFINITY;
    const order = 'id_kind, id_num, id';
    const rows = await this.#run(`search collection "${request.collection}"`, async () => {
      if (this.#index === 'hnsw') {
        // ORDER BY the distance operator so the planner can use the index; the iterative scan keeps
        // reading the graph until `limit` rows pass the filter. Ties and the threshold are settled after.
        params.push(limit);
        const limitSql = `$${params.length}::int`;
        params.push(threshold);
        const sql = `
          SELECT id, id_kind, text, payload, similarity FROM (
            SELECT id, id_kind, id_num, text, payload,
                   COALESCE(1 - NULLIF(embedding <=> $2::vector, 'NaN'), 0) AS similarity
              FROM ${this.table} WHERE ${where}
             ORDER BY embedding <=> $2::vector LIMIT ${limitSql}
          ) AS nearest
          WHERE similarity >= $${params.length}::float8
          ORDER BY similarity DESC, ${order}`;
        return transaction(this.#pool, async (client) => {
          await client.query(
            `SELECT set_config('hnsw.iterative_scan', 'strict_order', true), set_config('hnsw.ef_search', $1, true)`,
            [String(this.#hnsw.efSearch)],
          );
          return (await client.query<Row>(sql, params)).rows;
        });
      }
      // Exact scan. A zero vector has no direction: similarity 0, as in memory; so has a vector of
      // another size when the column takes any size.
      const distance = "NULLIF(embedding <=> $2::vector, 'NaN')";
      const similarity =
        this.#dimensions === undefined
          ? `(CASE WHEN vector_dims(embedding) = vector_dims($2::vector) THEN COALESCE(1 - ${distance}, 0) ELSE 0 END)`
          : `COALESCE(1 - ${distance}, 0)`;
      const thresholdSql =
        threshold === Number.NEGATIVE_INFINITY ? 'TRUE' : `similarity >= $${params.push(threshold)}::float8`;
      params.push(limit);
      const sql = `
        SELECT id, id_kind, text, payload, similarity FROM (
          SELECT id, id_kind, id_num, text, payload, ${similarity} AS similarity FROM ${this.table} WHERE ${where}
        ) AS scored
        WHERE ${thresholdSql}
        ORDER BY similarity DESC, ${order}
        LIMIT $${params.length}::int`;
      return (await this.#pool.query<Row>(sql, params)).rows;
    });
    return rows.map((row) => toChunk(row, Number(row.similarity)));
  }

  async scroll(request: VectorScrollRequest): Promise<VectorScrollPage> {
    await this.#ready();
    const params: unknown[] = [request.collection];
    let where = this.#where(request, params);
    if (request.offset) {
      const from = decodeOffset(request.offset);
      if (typeof from === 'number') {
        params.push(from);
        where += ` AND (id_kind = 1 OR (id_kind = 0 AND id_num >= $${params.length}::float8))`;
      } else {
        params.push(from);
        // id_num is NULL for every string id: saying so lets the order index seek to the cursor
        // instead of reading every string id before it (a page of a million-row collection: ms, not s).
        where += ` AND id_kind = 1 AND id_num IS NULL AND id >= $${params.length}::text`;
      }
    }
    const limit = sqlLimit(request.limit);
    params.push(limit === null ? null : limit + 1);
    const rows = await this.#run(`scroll collection "${request.collection}"`, async () => {
      const { rows } = await this.#pool.query<Row>(
        `SELECT id, id_kind, text, payload FROM ${this.table} WHERE ${where}
          ORDER BY id_kind, id_num, id LIMIT $${params.length}::int`,
        params,
      );
      return rows;
    });
    const next = limit === null ? undefined : rows[limit];
    return {
      chunks: (limit === null ? rows : rows.slice(0, limit)).map((row) => toChunk(row, null)),
      nextOffset: next ? encodeOffset(idOf(next)) : null,
    };
  }

  async ids(collection: string): Promise<ChunkId[]> {
    return this.#run(`list the ids of collection "${collection}"`, async () => {
      const { rows } = await this.#pool.query<Row>(
        `SELECT id, id_kind FROM ${this.table} WHERE collection = $1 ORDER BY id_kind, id_num, id`,
        [collection],
      );
      return rows.map(idOf);
    });
  }

  /** Closes the pool this store made (a `pool` passed in is left open). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#ownsPool) await this.#pool.end();
  }

  /** The WHERE clause shared by search and scroll: collection (`$1`), exclusions and filter. */
  #where(request: VectorSearchRequest | VectorScrollRequest, params: unknown[]): string {
    const parts = ['collection = $1'];
    if (request.exclude?.length) {
      params.push(request.exclude.map(String));
      parts.push(`NOT (id = ANY ($${params.length}::text[]))`);
    }
    if (request.filter != null) {
      const { sql } = filterToSql(request.filter, {
        payload: 'payload',
        id: { text: 'id', kind: 'id_kind' },
        params,
      });
      if (sql !== 'TRUE') parts.push(sql);
    }
    return parts.join(' AND ');
  }

  #checkDimensions(vector: ArrayLike<number>, what: string): void {
    if (this.#dimensions !== undefined && vector.length !== this.#dimensions) {
      throw new TreeAgentError(
        'VECTOR_STORE',
        `${what} has ${vector.length} dimensions, but the store ${this.table} holds vectors of ${this.#dimensions}: embed with the model the store was made for.`,
      );
    }
  }
}

/** A LIMIT value: whole results as `Array.slice` counts them, `null` (no limit) for an infinite one. */
function sqlLimit(limit: number): number | null {
  if (limit >= 2_147_483_647) return null;
  return Number.isFinite(limit) ? Math.max(0, Math.trunc(limit)) : 0;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1 || value > 10_000) {
    throw new TreeAgentError('VECTOR_STORE', `${name} must be a positive integer, got ${value}.`);
  }
  return value;
}

/** pgvector's text form, `[1,0.5,…]`; float32 values print exactly (pgvector reads them back as float32). */
function vectorLiteral(vector: ArrayLike<number>): string {
  return `[${Array.prototype.join.call(vector, ',')}]`;
}

function idOf(row: Pick<Row, 'id' | 'id_kind'>): ChunkId {
  return row.id_kind === 0 ? Number(row.id) : row.id;
}

function toChunk(row: Row, similarity: number | null): RetrievedChunk {
  return { id: idOf(row), text: row.text, extra: row.payload, similarity };
}
