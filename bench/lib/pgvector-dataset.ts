import type { Writable } from 'node:stream';
import pg from 'pg';
import { EMBEDDER_KEY, NODE_KEY, PATH_KEY } from '../../packages/core/src/explore/chunk-search.js';
import type { Tree } from '../../packages/core/src/index.js';
import { canonicalJson } from '../../packages/core/src/tree/define-tree.js';
import { PgVectorStore } from '../../packages/postgres/src/index.js';
import { installPeer } from './langgraph.js';
import { chunkVectorInto } from './trees.js';

/** `pg-copy-streams` (bench/package.json), installed in bench/node_modules on first use like the LangGraph peer. */
async function copyStreams(log: (line: string) => void): Promise<(sql: string) => pg.Submittable & Writable> {
  installPeer(log);
  // A variable, not a literal: TypeScript leaves it untyped and never looks for the package.
  const name: string = 'pg-copy-streams';
  return ((await import(name)) as { from: (sql: string) => pg.Submittable & Writable }).from;
}

/**
 * The exploration collection of a synthetic routing tree (`routingTree`, vectors `generated`) in a
 * PostgreSQL table of `PgVectorStore`'s shape, loaded once and reused across runs (issue #18, goal 6).
 *
 * A table is named after the data's parameters (chunks, fan-outs, dimensions, seed); the table
 * `treeagent_bench.datasets` records that it was loaded whole and that its HNSW index was built
 * (with which `m` and `ef_construction`). A run that finds both reuses them; a run interrupted while
 * loading starts the table again; one interrupted while indexing builds the index again. Rows go in by
 * `COPY … FROM STDIN (FORMAT binary)` (pgvector's binary `vector`, jsonb version 1), and the index is
 * built after the load with a large `maintenance_work_mem`, so pgvector builds the graph in memory.
 */

export const BENCH_SCHEMA = 'treeagent_bench';

export interface DatasetSpec {
  chunks: number;
  levels: number[];
  chunksPerLeaf: number;
  dimensions: number;
  seed: number;
  /** HNSW build parameters. */
  m: number;
  efConstruction: number;
}

export interface DatasetInfo {
  table: string;
  /** Wall time of the COPY of this run, or of the run that loaded the table (reused). */
  loadMs: number;
  indexMs: number;
  reusedLoad: boolean;
  reusedIndex: boolean;
  /** What was checked before reusing the table (empty when it was loaded by this run). */
  checked: string;
  /** Sizes as PostgreSQL reports them. */
  tableBytes: number;
  indexBytes: number;
}

/** The table name of a dataset: every parameter of the data is in it, so another shape never reuses it. */
export function datasetTable(spec: DatasetSpec): string {
  return `explore_${spec.chunks}_l${spec.levels.join('x') || '0'}_p${spec.chunksPerLeaf}_d${spec.dimensions}_s${spec.seed}`;
}

/**
 * Makes sure the collection `collection` of `tree` is in its table, indexed, and returns where it is.
 * `log` reports progress (the load and the index build of a million chunks take minutes).
 */
export async function ensureDataset(
  url: string,
  spec: DatasetSpec,
  tree: Tree,
  collection: string,
  embedderId: string,
  log: (line: string) => void,
  options: { maintenanceWorkMem?: string; parallelWorkers?: number } = {},
): Promise<DatasetInfo> {
  const table = datasetTable(spec);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${BENCH_SCHEMA}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${BENCH_SCHEMA}.datasets (
      name text PRIMARY KEY, params jsonb NOT NULL, load_ms double precision, loaded_at timestamptz,
      index_params jsonb, index_ms double precision, indexed_at timestamptz)`);
    const params = {
      chunks: spec.chunks,
      levels: spec.levels,
      chunksPerLeaf: spec.chunksPerLeaf,
      dimensions: spec.dimensions,
      seed: spec.seed,
      collection,
      embedder: embedderId,
    };
    const indexParams = { m: spec.m, efConstruction: spec.efConstruction };
    const { rows } = await client.query<{
      params: typeof params;
      load_ms: number | null;
      loaded_at: Date | null;
      index_params: typeof indexParams | null;
      index_ms: number | null;
      indexed_at: Date | null;
    }>(`SELECT * FROM ${BENCH_SCHEMA}.datasets WHERE name = $1`, [table]);
    const found = rows[0];
    const qualified = `${BENCH_SCHEMA}.${table}`;
    let loadMs: number;
    let checked = '';
    let reusedLoad = found?.loaded_at != null && canonicalJson(found.params) === canonicalJson(params);
    if (reusedLoad) {
      // The record says it was loaded whole: check that the table still holds exactly that.
      const problem = await checkTable(client, qualified, spec, tree, collection, embedderId);
      if (problem) {
        log(`    ${qualified}: not reused (${problem})`);
        reusedLoad = false;
      } else
        checked = `its ${spec.chunks.toLocaleString('en')} rows, vector(${spec.dimensions}) and ${SAMPLE_ROWS} sampled rows' text, payload and vector`;
    }
    if (reusedLoad) {
      loadMs = found!.load_ms!;
      log(`    ${qualified}: loaded by an earlier run (${spec.chunks.toLocaleString('en')} rows), reused`);
    } else {
      log(`    ${qualified}: loading ${spec.chunks.toLocaleString('en')} rows by binary COPY…`);
      await client.query(`DROP TABLE IF EXISTS ${qualified}`);
      await client.query(
        `INSERT INTO ${BENCH_SCHEMA}.datasets (name, params) VALUES ($1, $2)
         ON CONFLICT (name) DO UPDATE SET params = $2, load_ms = NULL, loaded_at = NULL,
           index_params = NULL, index_ms = NULL, indexed_at = NULL`,
        [table, params],
      );
      // The table and its id-order index exactly as the store makes them (no HNSW index yet).
      const store = new PgVectorStore({
        connection: url,
        schema: BENCH_SCHEMA,
        table,
        dimensions: spec.dimensions,
      });
      await store.migrate();
      await store.close();
      const started = performance.now();
      await copyRows(client, qualified, spec, tree, collection, embedderId, log);
      await client.query(`ANALYZE ${qualified}`);
      loadMs = performance.now() - started;
      await client.query(
        `UPDATE ${BENCH_SCHEMA}.datasets SET load_ms = $2, loaded_at = now() WHERE name = $1`,
        [table, loadMs],
      );
      log(`    loaded in ${(loadMs / 1000).toFixed(1)} s`);
    }
    const indexName = `${table}_hnsw`;
    const { rows: existing } = await client.query<{ valid: boolean }>(
      `SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass($1)`,
      [`${BENCH_SCHEMA}.${indexName}`],
    );
    const { rows: definition } = await client.query<{ def: string | null }>(
      'SELECT pg_get_indexdef(to_regclass($1)) AS def',
      [`${BENCH_SCHEMA}.${indexName}`],
    );
    // The index as it is, not as recorded: method, operator class and build parameters.
    const expectedIndex = `USING hnsw (embedding vector_cosine_ops) WITH (m='${spec.m}', ef_construction='${spec.efConstruction}')`;
    const reusedIndex =
      reusedLoad &&
      found?.indexed_at != null &&
      canonicalJson(found.index_params) === canonicalJson(indexParams) &&
      existing[0]?.valid === true &&
      (definition[0]?.def ?? '').endsWith(expectedIndex);
    if (reusedIndex) checked += `, and its index (valid, ${expectedIndex})`;
    let indexMs: number;
    if (reusedIndex) {
      indexMs = found!.index_ms!;
      log(`    ${indexName}: built by an earlier run, reused`);
    } else {
      await client.query(`DROP INDEX IF EXISTS ${BENCH_SCHEMA}.${indexName}`);
      const memory = options.maintenanceWorkMem ?? (spec.chunks >= 500_000 ? '6GB' : '1GB');
      const workers = options.parallelWorkers ?? 1;
      log(
        `    ${indexName}: building HNSW (m = ${spec.m}, ef_construction = ${spec.efConstruction}, maintenance_work_mem ${memory}, ${workers} parallel worker(s))…`,
      );
      await client.query(`SET maintenance_work_mem = '${memory}'`);
      await client.query(`SET max_parallel_maintenance_workers = ${workers}`);
      const started = performance.now();
      const progress = setInterval(() => void reportProgress(url, qualified, started, log), 60_000);
      try {
        await client.query(
          `CREATE INDEX ${indexName} ON ${qualified} USING hnsw (embedding vector_cosine_ops) WITH (m = ${spec.m}, ef_construction = ${spec.efConstruction})`,
        );
      } finally {
        clearInterval(progress);
      }
      indexMs = performance.now() - started;
      await client.query(
        `UPDATE ${BENCH_SCHEMA}.datasets SET index_params = $2, index_ms = $3, indexed_at = now() WHERE name = $1`,
        [table, indexParams, indexMs],
      );
      log(`    index built in ${(indexMs / 60_000).toFixed(1)} min`);
    }
    const { rows: sizes } = await client.query<{ table_bytes: string; index_bytes: string }>(
      `SELECT pg_table_size($1) AS table_bytes, pg_relation_size($2) AS index_bytes`,
      [qualified, `${BENCH_SCHEMA}.${indexName}`],
    );
    return {
      table,
      loadMs,
      indexMs,
      reusedLoad,
      reusedIndex,
      checked,
      tableBytes: Number(sizes[0]!.table_bytes),
      indexBytes: Number(sizes[0]!.index_bytes),
    };
  } finally {
    await client.end();
  }
}

/** Rows compared with what the generator makes before a table is reused. */
const SAMPLE_ROWS = 64;

/**
 * Why the table cannot be reused as `spec`'s data, or `null`: the number of rows of the collection,
 * the column's type, and `SAMPLE_ROWS` evenly spaced rows (text, payload, vector) against the tree.
 */
async function checkTable(
  client: pg.Client,
  table: string,
  spec: DatasetSpec,
  tree: Tree,
  collection: string,
  embedderId: string,
): Promise<string | null> {
  const { rows: type } = await client.query<{ type: string | null }>(
    `SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
      WHERE a.attrelid = to_regclass($1) AND a.attname = 'embedding' AND NOT a.attisdropped`,
    [table],
  );
  if (type[0]?.type !== `vector(${spec.dimensions})`) return `embedding column ${type[0]?.type ?? 'missing'}`;
  const { rows: count } = await client.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${table} WHERE collection = $1`,
    [collection],
  );
  if (Number(count[0]!.n) !== spec.chunks) return `${count[0]!.n} rows, expected ${spec.chunks}`;
  const positions = Array.from({ length: SAMPLE_ROWS }, (_, k) =>
    Math.floor(((k + 0.5) * tree.chunks.length) / SAMPLE_ROWS),
  );
  const { rows } = await client.query<{ id: string; text: string; payload: unknown; embedding: string }>(
    `SELECT id, text, payload, embedding::text AS embedding FROM ${table} WHERE collection = $1 AND id = ANY ($2::text[])`,
    [collection, positions.map((g) => String(tree.chunks[g]!.id))],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const vector = new Float32Array(spec.dimensions);
  for (const g of positions) {
    const chunk = tree.chunks[g]!;
    const row = byId.get(String(chunk.id));
    if (!row) return `row ${String(chunk.id)} missing`;
    const payload = {
      ...chunk.extra,
      [NODE_KEY]: chunk.nodeId,
      [PATH_KEY]: tree.pathTo(chunk.nodeId).map((node) => node.id),
      [EMBEDDER_KEY]: embedderId,
    };
    if (row.text !== chunk.text || canonicalJson(row.payload) !== canonicalJson(payload))
      return `row ${row.id}: text or payload differs`;
    chunkVectorInto(vector, spec.seed, g);
    const stored = row.embedding.slice(1, -1).split(',').map(Number);
    if (stored.length !== spec.dimensions || stored.some((value, j) => Math.fround(value) !== vector[j]))
      return `row ${row.id}: vector differs`;
  }
  return null;
}

/** One line of the index build's progress (`pg_stat_progress_create_index`), from another connection. */
async function reportProgress(url: string, table: string, started: number, log: (line: string) => void) {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ phase: string; tuples_done: string; tuples_total: string }>(
      `SELECT phase, tuples_done, tuples_total FROM pg_stat_progress_create_index WHERE relid = to_regclass($1)`,
      [table],
    );
    const row = rows[0];
    if (row)
      log(
        `      ${((performance.now() - started) / 60_000).toFixed(1)} min: ${row.phase}, ${Number(row.tuples_done).toLocaleString('en')} / ${Number(row.tuples_total).toLocaleString('en')} tuples`,
      );
  } catch {
    // Progress is informative only.
  } finally {
    await client.end().catch(() => {});
  }
}

const COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
const ROWS_PER_WRITE = 2048;

/** Streams every chunk of `tree` into `table` in PostgreSQL's binary COPY format. */
async function copyRows(
  client: pg.Client,
  table: string,
  spec: DatasetSpec,
  tree: Tree,
  collection: string,
  embedderId: string,
  log: (line: string) => void,
): Promise<void> {
  const copyFrom = await copyStreams(log);
  const stream = client.query(
    copyFrom(
      `COPY ${table} (collection, id, id_kind, id_num, text, payload, embedding) FROM STDIN (FORMAT binary)`,
    ),
  );
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  const write = (buffer: Buffer) =>
    stream.write(buffer) ? Promise.resolve() : new Promise<void>((resolve) => stream.once('drain', resolve));
  const paths = new Map<number, string>();
  const pathOf = (nodeId: number) => {
    let path = paths.get(nodeId);
    if (path === undefined) {
      path = JSON.stringify(tree.pathTo(nodeId).map((node) => node.id));
      paths.set(nodeId, path);
    }
    return path;
  };
  const collectionBytes = Buffer.from(collection);
  const embedderJson = JSON.stringify(embedderId);
  const vector = new Float32Array(spec.dimensions);
  const vectorBytes = 4 + 4 * spec.dimensions;
  await write(COPY_HEADER);
  const chunks = tree.chunks;
  let nextReport = 100_000;
  for (let start = 0; start < chunks.length; start += ROWS_PER_WRITE) {
    const end = Math.min(chunks.length, start + ROWS_PER_WRITE);
    const parts: Buffer[] = [];
    for (let g = start; g < end; g++) {
      const chunk = chunks[g]!;
      if (chunk.text !== `c${g}`)
        throw new Error(`chunk ${g} is ${chunk.text}: not a generated routing tree`);
      const id = Buffer.from(String(chunk.id));
      const text = Buffer.from(chunk.text);
      // The payload loadRuntime stores: the chunk's extra, its node, the path of node ids to it and
      // the embedder (so that the agent's load finds every row unchanged and writes none).
      const payload = Buffer.from(
        `\x01{"${NODE_KEY}":${chunk.nodeId},"${PATH_KEY}":${pathOf(chunk.nodeId)},"${EMBEDDER_KEY}":${embedderJson}${extraJson(chunk.extra)}}`,
      );
      chunkVectorInto(vector, spec.seed, g);
      const size =
        2 +
        (4 + collectionBytes.length) +
        (4 + id.length) +
        (4 + 2) +
        4 +
        (4 + text.length) +
        (4 + payload.length) +
        (4 + vectorBytes);
      const row = Buffer.allocUnsafe(size);
      let at = row.writeInt16BE(7, 0);
      at = row.writeInt32BE(collectionBytes.length, at);
      at += collectionBytes.copy(row, at);
      at = row.writeInt32BE(id.length, at);
      at += id.copy(row, at);
      at = row.writeInt32BE(2, at);
      at = row.writeInt16BE(typeof chunk.id === 'number' ? 0 : 1, at);
      if (typeof chunk.id === 'number') throw new Error('numeric chunk ids are not generated here');
      at = row.writeInt32BE(-1, at); // id_num: NULL for a string id
      at = row.writeInt32BE(text.length, at);
      at += text.copy(row, at);
      at = row.writeInt32BE(payload.length, at);
      at += payload.copy(row, at);
      at = row.writeInt32BE(vectorBytes, at);
      at = row.writeInt16BE(spec.dimensions, at);
      at = row.writeInt16BE(0, at);
      for (let j = 0; j < spec.dimensions; j++) at = row.writeFloatBE(vector[j]!, at);
      parts.push(row);
    }
    await write(Buffer.concat(parts));
    if (end >= nextReport) {
      log(`      ${end.toLocaleString('en')} rows`);
      nextReport += spec.chunks >= 500_000 ? 200_000 : 100_000;
    }
  }
  const trailer = Buffer.alloc(2);
  trailer.writeInt16BE(-1, 0);
  stream.end(trailer);
  await done;
}

function extraJson(extra: Record<string, unknown>): string {
  const body = JSON.stringify(extra);
  return body === '{}' ? '' : `,${body.slice(1, -1)}`;
}
