import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { loadRuntime } from '../packages/core/src/engine/load-runtime.js';
import { type RouteResult, routeText } from '../packages/core/src/engine/route.js';
import {
  InMemoryFileStore,
  type VectorRecord,
  type VectorScrollRequest,
  type VectorSearchRequest,
  type VectorStore,
} from '../packages/core/src/index.js';
import { PgVectorStore } from '../packages/postgres/src/index.js';
import { inChild } from './lib/child.js';
import { DEFAULT_DATABASE_URL } from './lib/database.js';
import { BENCH_SCHEMA, type DatasetInfo, type DatasetSpec, ensureDataset } from './lib/pgvector-dataset.js';
import { type BenchContext, type Goal, type Section, table } from './lib/report.js';
import { bytes, ms, summarize } from './lib/stats.js';
import { type RoutingTree, routingTree } from './lib/trees.js';
import { NullEmbeddingCache, nearby, random } from './lib/vectors.js';

/**
 * Exploration in a vector store (`exploreIn: 'vector-store'`) on PostgreSQL + pgvector with an HNSW
 * index (issue #18, goal 6): per-hop latency at 100k and 1M chunks, and the decisions against exact
 * search, at several `hnsw.ef_search`.
 *
 * The exploration benchmark's synthetic trees (384-d, 10 chunks per leaf; 100 children per routing
 * node, 10 at the top of the 1M tree) are loaded once into tables of `PgVectorStore`'s shape by
 * binary COPY, indexed (m = 16, ef_construction = 64) and reused by later runs (`lib/pgvector-dataset.ts`).
 * One runtime is loaded the way `new TreeAgent({ exploreIn: 'vector-store', vectorStore,
 * calibrateThresholds: false })` loads (`loadRuntime`: every chunk embedded, the collection synced —
 * nothing rewritten, the rows are already there; thresholds at the default 0.25), over a store that forwards to one of several
 * `PgVectorStore`s on the same table: one per `efSearch`, and the exact one — the same store and SQL
 * on a connection with `enable_indexscan = off` (a sequential scan and a top-N sort; no parallel
 * workers, so that the backend's CPU time is the whole cost). Every message is routed by each; a
 * turn agrees with exact search when every `explore-decision` (node, action, best chunk, its
 * similarity, next node) is identical.
 *
 * Two message sets: "paraphrases" (the benchmark's messages: a chunk's vector plus noise, cosine ≈
 * 0.89 to it) and "vague" messages (more noise, cosine ≈ 0.37 to the chunk they came from, close to
 * the best unrelated chunks): the second is where an approximate index misses.
 *
 * Times: wall per hop (one `search`, median and p99, by depth) and CPU per hop — this process's and
 * the PostgreSQL backend's (`/proc/<pid>/stat`, 10 ms ticks: summed over every hop of a
 * configuration, then divided), which the machine's other load inflates far less than wall time.
 * Exact decisions are kept in `treeagent_bench.exact_routes` (they take seconds per hop at 1M) and
 * reused by later runs with the same data and thresholds.
 */

/** An empty TREEAGENT_TEST_DATABASE_URL leaves PostgreSQL (and this benchmark) out, as in the other benchmarks. */
const URL = process.env.TREEAGENT_TEST_DATABASE_URL ?? DEFAULT_DATABASE_URL;
const SIZES = [
  { chunks: 100_000, levels: [100] },
  { chunks: 1_000_000, levels: [10, 100] },
];
const EF_VALUES = [10, 40, 100, 200, 400, 1000];
/** Goal of the decision agreement (issue #18 asks ≥ 99.9% of the in-memory scan against exact). */
const GOAL = 0.999;
const VAGUE_NOISE = 2.5;

type Size = (typeof SIZES)[number];

export function specOf(size: Size): DatasetSpec {
  return {
    chunks: size.chunks,
    levels: size.levels,
    chunksPerLeaf: 10,
    dimensions: 384,
    seed: 11,
    m: 16,
    efConstruction: 64,
  };
}

function treeOf(size: Size, messages = 64): RoutingTree {
  const spec = specOf(size);
  return routingTree({
    name: `explore-${size.chunks}`,
    levels: spec.levels,
    leaves: spec.chunks / spec.chunksPerLeaf,
    chunksPerLeaf: spec.chunksPerLeaf,
    dimensions: spec.dimensions,
    seed: spec.seed,
    vectors: 'generated',
    messages,
  });
}

const stamp = () => new Date().toISOString().slice(11, 19);

/** Loads and indexes a size's table (or finds it there). */
export async function prepareChild({ size }: { size: Size }): Promise<DatasetInfo> {
  const log = (line: string) => console.error(`[${stamp()}] ${line}`);
  const routing = treeOf(size);
  return ensureDataset(
    URL,
    specOf(size),
    routing.tree,
    `${routing.tree.name}:explore`,
    routing.embedder.id,
    log,
  );
}

/** Timings of one configuration (exact or one `ef_search`). */
interface ConfigRow {
  config: string;
  efSearch: number | null;
  /** Per set: turns routed, turns identical to exact. */
  sets: Record<string, { turns: number; identical: number; declined: number }>;
  /** Wall time of one hop (`search`), by depth (0 = the agent's hop over the whole tree). */
  hopWall: { depth: number; hops: number; median: number; p99: number }[];
  /** Mean CPU per hop, this process and the PostgreSQL backend (ms). */
  nodeCpuPerHop: number;
  pgCpuPerHop: number;
  routeWallMedian: number;
  /** Hops whose search returned nothing while exact found a chunk. */
  emptyHops: number;
  /** Whether the cached exact routes were reused (exact row only). */
  reused?: boolean;
}

interface SizeRow {
  chunks: number;
  dataset: DatasetInfo;
  loadMs: number;
  loadWritten: number;
  turns: Record<string, number>;
  plans: { depth: number; plan: string }[];
  configs: ConfigRow[];
}

/** A `VectorStore` that forwards to the store of the configuration being measured, and times each search. */
class SwitchingStore implements VectorStore {
  current: VectorStore;
  /** Searches of the route in progress: wall time and depth of the node searched below. */
  hops: { wall: number; found: boolean }[] = [];
  writes = 0;
  constructor(initial: VectorStore) {
    this.current = initial;
  }
  upsert(collection: string, records: readonly VectorRecord[]) {
    this.writes += records.length;
    return this.current.upsert(collection, records);
  }
  delete(collection: string, ids: readonly (string | number)[]) {
    return this.current.delete(collection, ids);
  }
  async search(request: VectorSearchRequest) {
    const started = performance.now();
    const result = await this.current.search(request);
    this.hops.push({ wall: performance.now() - started, found: result.length > 0 });
    return result;
  }
  scroll(request: VectorScrollRequest) {
    return this.current.scroll(request);
  }
  ids(collection: string) {
    return this.current.ids(collection);
  }
}

/** CPU time (ms) of a local PostgreSQL backend so far, from /proc (10 ms ticks). */
function backendCpuMs(pid: number): number {
  if (!existsSync(`/proc/${pid}/stat`)) return Number.NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after "pid (comm) ".
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

interface MeasureArgs {
  size: Size;
  turns: number;
  efValues: number[];
  quick: boolean;
}

/** In a fresh process: one size, every configuration. */
export async function measureChild(args: MeasureArgs): Promise<SizeRow> {
  const log = (line: string) => console.error(`[${stamp()}] ${line}`);
  const { size } = args;
  const routing = treeOf(size, args.turns);
  const spec = specOf(size);
  const collection = `${routing.tree.name}:explore`;
  const dataset = await ensureDataset(URL, spec, routing.tree, collection, routing.embedder.id, log);
  // Vague messages: the vector of a random chunk plus much noise, kept by text in the embedder.
  const next = random(spec.seed ^ 0x27d4eb2f);
  const scratch = new Float32Array(spec.dimensions);
  const sets: Record<string, string[]> = { paraphrases: routing.messages.map((message) => message.text) };
  sets.vague = [];
  for (let i = 0; i < args.turns; i++) {
    const g = Math.floor(next() * spec.chunks);
    routing.embedder.vector(`c${g}`);
    scratch.set(routing.embedder.vector(`c${g}`));
    const text = `v${i}`;
    routing.embedder.vectors.set(text, nearby(scratch, VAGUE_NOISE, next));
    sets.vague.push(text);
  }

  // One single-connection pool per configuration: its backend's CPU time is the configuration's.
  const pools: {
    config: string;
    efSearch: number | null;
    pool: pg.Pool;
    store: PgVectorStore;
    pid: number;
  }[] = [];
  const open = async (config: string, efSearch: number | null) => {
    const pool = new pg.Pool({
      connectionString: URL,
      max: 1,
      // Never closed while idle: the backend whose CPU time is read must live through the load.
      idleTimeoutMillis: 0,
      ...(efSearch === null
        ? { options: '-c enable_indexscan=off -c max_parallel_workers_per_gather=0' }
        : {}),
    });
    const store = new PgVectorStore({
      pool,
      schema: BENCH_SCHEMA,
      table: dataset.table,
      dimensions: spec.dimensions,
      createIndex: 'hnsw',
      hnsw: { m: spec.m, efConstruction: spec.efConstruction, efSearch: efSearch ?? 40 },
      autoMigrate: false,
    });
    const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    pools.push({ config, efSearch, pool, store, pid: rows[0]!.pid });
  };
  await open('exact', null);
  for (const ef of args.efValues) await open(`ef_search ${ef}`, ef);
  const switching = new SwitchingStore(pools[0]!.store);
  try {
    log(`  ${size.chunks.toLocaleString('en')} chunks: loading the runtime (exploreIn: 'vector-store')…`);
    let started = performance.now();
    const runtime = await loadRuntime({
      tree: routing.tree,
      embedder: routing.embedder,
      embeddingCache: new NullEmbeddingCache(),
      vectorStore: switching,
      fileStore: new InMemoryFileStore(),
      models: {},
      limits: { maxSteps: 50, maxFallbacks: 3, callbackTimeoutMs: 0, modelTimeoutMs: 0 },
      now: () => new Date(),
      exploreIn: 'vector-store',
      // Thresholds at the library default: the calibration at load over a million chunks takes
      // tens of minutes on the vector-store path (a JavaScript dot product per pair), and what is
      // measured here is the search of each hop, which thresholds do not change.
      calibration: false,
    });
    const loadMs = performance.now() - started;
    log(`    loaded in ${(loadMs / 1000).toFixed(1)} s, ${switching.writes} records written`);
    const thresholds = JSON.stringify(
      [...runtime.tree.nodes.values()].map((node) => [node.id, node.similarityThreshold]),
    );

    // Which plan PostgreSQL picks for each hop's query (the HNSW index, or a scan of the table): the
    // store's own SQL, captured on the first indexed configuration's connection, then EXPLAINed.
    const plans: SizeRow['plans'] = [];
    {
      const indexed = pools[1]!;
      const captured: { sql: string; params: unknown[] }[] = [];
      let capturing = true;
      const client = await indexed.pool.connect();
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        if (capturing && typeof args[0] === 'string' && args[0].includes('ORDER BY embedding <=>'))
          captured.push({ sql: args[0], params: args[1] as unknown[] });
        return query(...args);
      };
      client.release();
      switching.current = indexed.store;
      await routeText(runtime, sets.paraphrases![0]!);
      capturing = false;
      const explainer = await indexed.pool.connect();
      try {
        for (const [depth, { sql, params }] of captured.entries()) {
          const { rows } = await explainer.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params);
          const scan =
            rows.map((row) => row['QUERY PLAN']).find((line) => /Index Scan|Seq Scan|Bitmap/.test(line)) ??
            '';
          plans.push({
            depth,
            plan: scan
              .replace(/\s+\(cost.*$/, '')
              .replace(/^->\s*/, '')
              .trim(),
          });
        }
      } finally {
        explainer.release();
      }
    }

    const keyOf = (result: RouteResult) =>
      JSON.stringify(
        result.decisions.map((d) => [d.nodeId, d.action, d.best?.chunkId, d.best?.similarity, d.nextNodeId]),
      );
    // Exact routes, cached by data, thresholds and message.
    const admin = new pg.Client({ connectionString: URL });
    await admin.connect();
    await admin.query(`CREATE TABLE IF NOT EXISTS ${BENCH_SCHEMA}.exact_routes (
      dataset text NOT NULL, thresholds text NOT NULL, message text NOT NULL, route text NOT NULL,
      hops jsonb NOT NULL, PRIMARY KEY (dataset, thresholds, message))`);
    const thresholdsKey = `${thresholds.length}:${hashOf(thresholds)}`;
    const exact = new Map<string, { key: string; hops: number[]; found: boolean[] }>();
    const { rows: cached } = await admin.query<{
      message: string;
      route: string;
      hops: { wall: number[]; found: boolean[] };
    }>(
      `SELECT message, route, hops FROM ${BENCH_SCHEMA}.exact_routes WHERE dataset = $1 AND thresholds = $2`,
      [dataset.table, thresholdsKey],
    );
    for (const row of cached)
      exact.set(row.message, { key: row.route, hops: row.hops.wall, found: row.hops.found });

    const configs: ConfigRow[] = [];
    const allTexts = Object.entries(sets).flatMap(([set, texts]) => texts.map((text) => ({ set, text })));
    for (const entry of pools) {
      switching.current = entry.store;
      const isExact = entry.efSearch === null;
      const todo = isExact ? allTexts.filter(({ text }) => !exact.has(text)) : allTexts;
      log(
        `    ${entry.config}: ${todo.length} routes${isExact ? ` (${allTexts.length - todo.length} cached)` : ''}…`,
      );
      // Warm-up: the index's pages into the OS cache, this connection's plan cache.
      if (!isExact)
        for (const { text } of allTexts.slice(0, args.quick ? 2 : 20)) await routeText(runtime, text);
      const hopWalls: number[][] = [];
      let hopCount = 0;
      let emptyHops = 0;
      const routeWalls: number[] = [];
      const perSet: ConfigRow['sets'] = {};
      const wallsAt = (depth: number) => {
        hopWalls[depth] ??= [];
        return hopWalls[depth];
      };
      const tallyOf = (set: string) => {
        perSet[set] ??= { turns: 0, identical: 0, declined: 0 };
        return perSet[set];
      };
      const cpuBefore = process.cpuUsage();
      const { rows: backend } = await entry.pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      entry.pid = backend[0]!.pid;
      const pgBefore = backendCpuMs(entry.pid);
      let lastReport = performance.now();
      for (const [done, { set, text }] of todo.entries()) {
        switching.hops = [];
        started = performance.now();
        const result = await routeText(runtime, text);
        routeWalls.push(performance.now() - started);
        const key = keyOf(result);
        switching.hops.forEach((hop, depth) => {
          wallsAt(depth).push(hop.wall);
        });
        hopCount += switching.hops.length;
        if (isExact) {
          const record = {
            key,
            hops: switching.hops.map((hop) => hop.wall),
            found: switching.hops.map((hop) => hop.found),
          };
          exact.set(text, record);
          await admin.query(
            `INSERT INTO ${BENCH_SCHEMA}.exact_routes VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
            [dataset.table, thresholdsKey, text, key, { wall: record.hops, found: record.found }],
          );
        }
        const reference = exact.get(text)!;
        const tally = tallyOf(set);
        tally.turns++;
        if (reference.key === key) tally.identical++;
        if (result.noMatch) tally.declined++;
        switching.hops.forEach((hop, depth) => {
          if (!hop.found && reference.found[depth]) emptyHops++;
        });
        if (performance.now() - lastReport > 60_000) {
          lastReport = performance.now();
          log(`      ${done + 1} / ${todo.length}`);
        }
      }
      const cpu = process.cpuUsage(cpuBefore);
      const pgCpu = backendCpuMs(entry.pid) - pgBefore;
      const reused = isExact && todo.length < allTexts.length;
      if (isExact && todo.length < allTexts.length) {
        // Cached routes: their hop times come from the run that made them (wall only).
        for (const { set, text } of allTexts.filter(({ text }) => !todo.some((item) => item.text === text))) {
          const reference = exact.get(text)!;
          reference.hops.forEach((wall, depth) => {
            wallsAt(depth).push(wall);
          });
          const tally = tallyOf(set);
          tally.turns++;
          tally.identical++;
        }
      }
      configs.push({
        config: entry.config,
        efSearch: entry.efSearch,
        sets: perSet,
        hopWall: hopWalls.map((walls, depth) => {
          const stats = summarize(walls);
          return { depth, hops: walls.length, median: stats.median, p99: stats.p99 };
        }),
        nodeCpuPerHop: hopCount ? (cpu.user + cpu.system) / 1000 / hopCount : Number.NaN,
        pgCpuPerHop: hopCount ? pgCpu / hopCount : Number.NaN,
        routeWallMedian: routeWalls.length ? summarize(routeWalls).median : Number.NaN,
        emptyHops,
        ...(isExact ? { reused } : {}),
      });
    }
    await admin.end();
    return {
      chunks: size.chunks,
      dataset,
      loadMs,
      loadWritten: switching.writes,
      turns: Object.fromEntries(Object.entries(sets).map(([set, texts]) => [set, texts.length])),
      plans,
      configs,
    };
  } finally {
    for (const entry of pools) await entry.store.close().then(() => entry.pool.end());
  }
}

/** A short non-cryptographic hash (FNV-1a) of a string, for cache keys. */
function hashOf(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16);
}

/** The benchmark, as `bench/run.ts --only=vector-store-explore` runs it (100k by default; `--chunks=` picks sizes). */
export async function vectorStoreExplore(context: BenchContext): Promise<Section> {
  const { quick, log, chunks } = context;
  const sizes = chunks
    ? SIZES.filter((size) => chunks.includes(size.chunks))
    : quick
      ? []
      : SIZES.slice(0, 1);
  if (chunks && sizes.length !== chunks.length)
    throw new Error(
      `--chunks=${chunks.join(',')}: the vector-store exploration benchmark has trees of ${SIZES.map((size) => size.chunks).join(', ')} chunks only`,
    );
  const skipped = !URL
    ? 'Not run: TREEAGENT_TEST_DATABASE_URL is empty (PostgreSQL left out).'
    : !sizes.length
      ? 'Not run in the quick run (it loads and indexes 100,000 chunks in PostgreSQL).'
      : null;
  if (skipped)
    return {
      id: 'vector-store-explore',
      title: '3d. Exploration in PostgreSQL + pgvector (HNSW)',
      markdown: skipped,
      data: null,
      goals: [],
    };
  const rows: SizeRow[] = [];
  for (const size of sizes) {
    log(`  ${size.chunks.toLocaleString('en')} chunks…`);
    const turns = size.chunks >= 1_000_000 ? 50 : 100;
    rows.push(
      inChild<SizeRow>(import.meta.url, 'measureChild', {
        size,
        turns,
        efValues: EF_VALUES,
        quick,
      } satisfies MeasureArgs),
    );
  }
  return report(rows);
}

function report(rows: SizeRow[]): Section {
  const goals: Goal[] = [];
  const lines: string[] = [];
  lines.push(
    `\`exploreIn: 'vector-store'\` on \`PgVectorStore\` (PostgreSQL ${'15'} + pgvector, HNSW m = 16, ef_construction = 64, cosine), the exploration benchmark's synthetic trees (384-d), the runtime loaded as \`new TreeAgent\` loads it (thresholds at the default 0.25: \`calibrateThresholds: false\`). Each hop is one filtered \`search\` (the chunks below the node, its own excluded, limit 1; \`hnsw.iterative_scan = strict_order\`). Exact: the same store and SQL with \`enable_indexscan = off\` (sequential scan, top-N sort, no parallel workers). A turn agrees when every decision is identical. Paraphrases: cosine ≈ 0.89 to their chunk; vague: ≈ 0.37. CPU per hop: this process + the PostgreSQL backend, summed over the configuration's hops (10 ms ticks) and divided; wall times are the machine's.`,
  );
  for (const row of rows) {
    const exact = row.configs.find((config) => config.efSearch === null)!;
    lines.push(
      '',
      `**${row.chunks.toLocaleString('en')} chunks** — table ${bytes(row.dataset.tableBytes)}, HNSW index ${bytes(row.dataset.indexBytes)}; COPY ${(row.dataset.loadMs / 1000).toFixed(1)} s, index build ${(row.dataset.indexMs / 60_000).toFixed(1)} min${row.dataset.reusedIndex ? ' (an earlier run)' : ''}; runtime load ${(row.loadMs / 1000).toFixed(1)} s, ${row.loadWritten} records rewritten; turns: ${Object.entries(
        row.turns,
      )
        .map(([set, count]) => `${count} ${set}`)
        .join(', ')}. Plans: ${row.plans.map((plan) => `depth ${plan.depth}: ${plan.plan}`).join('; ')}.`,
      '',
      table(
        [
          'search',
          ...Object.keys(row.turns).map((set) => `${set}: identical to exact`),
          'hop wall median / p99 by depth',
          'CPU per hop (node + PostgreSQL)',
          'route wall median',
          'hops empty where exact found one',
        ],
        row.configs.map((config) => [
          config.config + (config.reused ? ' (cached routes)' : ''),
          ...Object.keys(row.turns).map((set) => {
            const tally = config.sets[set];
            return tally
              ? `${tally.identical} / ${tally.turns} (${((tally.identical / tally.turns) * 100).toFixed(1)}%)`
              : '—';
          }),
          config.hopWall.map((hop) => `${hop.depth}: ${ms(hop.median)} / ${ms(hop.p99)}`).join('; '),
          config.reused && Number.isNaN(config.pgCpuPerHop)
            ? '(cached)'
            : `${ms(config.nodeCpuPerHop)} + ${ms(config.pgCpuPerHop)}`,
          Number.isNaN(config.routeWallMedian) ? '(cached)' : ms(config.routeWallMedian),
          config.efSearch === null ? '—' : config.emptyHops,
        ]),
      ),
    );
    const indexed = row.configs.filter((config) => config.efSearch !== null);
    const agreeing = indexed.find((config) =>
      Object.values(config.sets).every((tally) => tally.identical / tally.turns >= GOAL),
    );
    goals.push({
      benchmark: '3d. vector-store exploration',
      goal: `${row.chunks.toLocaleString('en')} chunks on pgvector HNSW: decisions identical to exact on ≥ ${GOAL * 100}% of turns, per-hop latency`,
      measured: agreeing
        ? `from ef_search ${agreeing.efSearch}: hop CPU ${ms(agreeing.nodeCpuPerHop + agreeing.pgCpuPerHop)} (exact ${ms(exact.nodeCpuPerHop + exact.pgCpuPerHop)})`
        : `no ef_search up to ${indexed.at(-1)?.efSearch} reaches it (best: ${indexed
            .map((config) =>
              Math.min(...Object.values(config.sets).map((tally) => tally.identical / tally.turns)),
            )
            .reduce((a, b) => Math.max(a, b), 0)
            .toFixed(3)})`,
      met: agreeing !== undefined,
    });
  }
  return {
    id: 'vector-store-explore',
    title: '3d. Exploration in PostgreSQL + pgvector (HNSW)',
    markdown: lines.join('\n'),
    data: { rows },
    goals,
  };
}

// `npx tsx bench/vector-store-explore.ts --prepare [--chunks=…]`: load and index the tables only
// (a million chunks take long: run it in the background first; the benchmark then reuses them).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const chunks = process.argv
    .find((arg) => arg.startsWith('--chunks='))
    ?.slice('--chunks='.length)
    .split(',')
    .map(Number);
  const sizes = chunks ? SIZES.filter((size) => chunks.includes(size.chunks)) : SIZES;
  if (!process.argv.includes('--prepare')) {
    console.error(
      'Run the benchmark with `npx tsx bench/run.ts --only=vector-store-explore [--chunks=100000,1000000]`; this file alone only prepares the tables: `npx tsx bench/vector-store-explore.ts --prepare [--chunks=…]`.',
    );
    process.exit(2);
  }
  for (const size of sizes) console.log(JSON.stringify(await prepareChild({ size })));
}
