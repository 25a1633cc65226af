import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type {
  VectorRecord,
  VectorScrollRequest,
  VectorSearchRequest,
  VectorStore,
} from '../packages/core/src/adapter/index.js';
import { type RouteResult, routeText } from '../packages/core/src/engine/agent/route.js';
import {
  manifestCollection,
  readExploreManifest,
} from '../packages/core/src/engine/runtime/explore-collection.js';
import { loadRuntime } from '../packages/core/src/engine/runtime/load-runtime.js';
import { RUNNER_UP_WINDOW } from '../packages/core/src/explore/store-chunk-search.js';
import { InMemoryFileStore } from '../packages/core/src/index.js';
import { PgVectorStore } from '../packages/postgres/src/index.js';
import { inChild } from './lib/child.js';
import { DEFAULT_DATABASE_URL } from './lib/database.js';
import { BENCH_SCHEMA, type DatasetInfo, type DatasetSpec, ensureDataset } from './lib/pgvector-dataset.js';
import { type BenchContext, type Goal, type Section, table } from './lib/report.js';
import { benchRuntimeParts } from './lib/runtime-parts.js';
import { bytes, ms, summarize } from './lib/stats.js';
import { type RoutingTree, routingTree } from './lib/trees.js';
import { NullEmbeddingCache, nearby, random } from './lib/vectors.js';

/**
 * Exploration in a vector store (`exploreIn: 'vector-store'`) on PostgreSQL + pgvector with an HNSW
 * index (issue #18, goal 6): start-up, per-hop latency at 100k and 1M chunks, the cost of the
 * margin's runner-up, and the decisions against exact search, at several `hnsw.ef_search`.
 *
 * The exploration benchmark's synthetic trees (384-d, 10 chunks per leaf; 100 children per routing
 * node, 10 at the top of the 1M tree) are loaded once into tables of `PgVectorStore`'s shape by
 * binary COPY, indexed (m = 16, ef_construction = 64) and reused by later runs after a check of
 * their rows, dimensions, index and a sample of their content (`lib/pgvector-dataset.ts`).
 *
 * Start-up: the runtime is loaded twice the way `new TreeAgent({ exploreIn: 'vector-store',
 * vectorStore })` loads it (`loadRuntime`, thresholds calibrated at load unless `--no-calibration`):
 * first as the collection is found (with `--cold-start`, its manifest removed first: every stored
 * record compared, the thresholds calibrated — what a first start over stored rows costs), then
 * again (the restart: the manifest matches, nothing is read or embedded). Wall and CPU time of this
 * process, records written, pages of the collection read.
 *
 * Hops: the runtime routes every message through a store that forwards to one of several
 * `PgVectorStore`s on the same table: one per `efSearch`, and the exact one — the same store and
 * SQL on a connection with `enable_indexscan = off` (a sequential scan and a top-N sort; no parallel
 * workers, so that the backend's CPU time is the whole cost). A turn agrees with exact search when
 * every `explore-decision` (node, action, best chunk, its similarity, next node) is identical. The
 * exact in-memory float32 scan (`exploreIn: 'memory'`, `exploreScan: 'exact'`, the same thresholds)
 * routes the same messages in a child process of the same run: the reference independent of
 * PostgreSQL (its similarities differ from pgvector's in the last float bits, so that comparison
 * leaves the similarity out and reports the largest difference).
 *
 * The runner-up: each hop asks for `RUNNER_UP_WINDOW` (8) results to find the best chunk under
 * another child (the margin of docs/analytics.md), and once more when all 8 are under the winning
 * child. At two `ef_search`, the same routes are run again asking for 1 result per hop: the
 * difference is what the margin costs.
 *
 * Two message sets: "paraphrases" (the benchmark's messages: a chunk's vector plus noise, cosine ≈
 * 0.89 to it) and "vague" messages (more noise, cosine ≈ 0.37 to the chunk they came from, close to
 * the best unrelated chunks): the second is where an approximate index misses.
 *
 * Times: wall per hop (the hop's searches, median and p99, by depth) and CPU per hop — this
 * process's and the PostgreSQL backend's (`/proc/<pid>/stat`, 10 ms ticks: summed over every hop of
 * a configuration, then divided), which the machine's other load inflates far less than wall time.
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
/** The `ef_search` values at which the runner-up's cost is measured (the same routes, 1 result per hop). */
const RUNNER_UP_EF = [400, 1000];
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

/** The messages of a size: paraphrases (the tree's) and vague ones, whose vectors are put in the embedder. */
function messageSets(routing: RoutingTree, size: Size, turns: number): Record<string, string[]> {
  const spec = specOf(size);
  // Vague messages: the vector of a random chunk plus much noise, kept by text in the embedder.
  const next = random(spec.seed ^ 0x27d4eb2f);
  const scratch = new Float32Array(spec.dimensions);
  const sets: Record<string, string[]> = { paraphrases: routing.messages.map((message) => message.text) };
  sets.vague = [];
  for (let i = 0; i < turns; i++) {
    const g = Math.floor(next() * spec.chunks);
    routing.embedder.vector(`c${g}`);
    scratch.set(routing.embedder.vector(`c${g}`));
    const text = `v${i}`;
    routing.embedder.vectors.set(text, nearby(scratch, VAGUE_NOISE, next));
    sets.vague.push(text);
  }
  return sets;
}

/** The decision key of a route: node, action, best chunk, its similarity, next node, hop by hop. */
const keyOf = (result: RouteResult) =>
  JSON.stringify(
    result.decisions.map((d) => [d.nodeId, d.action, d.best?.chunkId, d.best?.similarity, d.nextNodeId]),
  );

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
  /** Asked for 1 result per hop instead of `RUNNER_UP_WINDOW` (no runner-up, no margin). */
  bestOnly: boolean;
  /** Searches beyond one per hop: the runner-up asked again without the winning child. */
  extraSearches: number;
  hops: number;
  /** Decision key of each message's route. */
  keys: Record<string, string>;
}

/** One start of the runtime. */
interface StartRow {
  label: string;
  /** The manifest beside the collection before this start: none, matching the tree, or another. */
  manifest: string;
  wallMs: number;
  cpuMs: number;
  /** CPU of the PostgreSQL backend serving the load. */
  pgCpuMs: number;
  written: number;
  /** Pages of the exploration collection read (0: the manifest matched). */
  pagesRead: number;
  calibrated: number;
  rssMb: number;
}

interface SizeRow {
  chunks: number;
  dataset: DatasetInfo;
  starts: StartRow[];
  calibration: boolean;
  /** Thresholds of the calibrated routing nodes (node id, threshold), for the in-memory reference. */
  thresholds: [number, number][];
  turns: Record<string, number>;
  plans: { depth: number; plan: string }[];
  configs: ConfigRow[];
}

/**
 * A `VectorStore` that forwards to the store of the configuration being measured, and times each
 * hop: the search asking for `RUNNER_UP_WINDOW` results, plus the runner-up's second search (limit
 * 1) when there is one. With `bestOnly`, every search asks for 1 result (no runner-up).
 */
class SwitchingStore implements VectorStore {
  current: VectorStore;
  /** Hops of the route in progress: wall time (searches included) and whether the first found a chunk. */
  hops: { wall: number; found: boolean; extra: number }[] = [];
  bestOnly = false;
  writes = 0;
  /** Pages scrolled, by collection. */
  scrolled = new Map<string, number>();
  constructor(initial: VectorStore) {
    this.current = initial;
  }
  upsert(collection: string, records: readonly VectorRecord[]) {
    if (!collection.endsWith('-manifest')) this.writes += records.length;
    return this.current.upsert(collection, records);
  }
  delete(collection: string, ids: readonly (string | number)[]) {
    return this.current.delete(collection, ids);
  }
  async search(request: VectorSearchRequest) {
    const hop = request.limit === RUNNER_UP_WINDOW;
    const started = performance.now();
    const result = await this.current.search(this.bestOnly ? { ...request, limit: 1 } : request);
    const wall = performance.now() - started;
    const last = this.hops.at(-1);
    if (hop || !last) this.hops.push({ wall, found: result.length > 0, extra: 0 });
    else {
      last.wall += wall;
      last.extra++;
    }
    return result;
  }
  scroll(request: VectorScrollRequest) {
    this.scrolled.set(request.collection, (this.scrolled.get(request.collection) ?? 0) + 1);
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
  runnerUpEf: number[];
  quick: boolean;
  /** Remove the manifest before the first start (`--cold-start`). */
  coldStart: boolean;
  calibrate: boolean;
}

/** In a fresh process: one size, every configuration. */
export async function measureChild(args: MeasureArgs): Promise<SizeRow> {
  const log = (line: string) => console.error(`[${stamp()}] ${line}`);
  const { size } = args;
  const routing = treeOf(size, args.turns);
  const spec = specOf(size);
  const collection = `${routing.tree.name}:explore`;
  const dataset = await ensureDataset(URL, spec, routing.tree, collection, routing.embedder.id, log);
  const sets = messageSets(routing, size, args.turns);

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
  // The load goes through an indexed connection: the exact one has index scans off, which would turn
  // each page of the collection's id-order scroll into a scan of the whole table.
  const loading = pools[1]!;
  const switching = new SwitchingStore(loading.store);
  try {
    const starts: StartRow[] = [];
    let runtime: Awaited<ReturnType<typeof loadRuntime>> | undefined;
    for (const label of ['first start', 'restart']) {
      let manifest = await readExploreManifest(loading.store, collection);
      let state = !manifest
        ? 'none'
        : manifest.contentHash === routing.tree.contentHash && manifest.chunks === spec.chunks
          ? 'matching'
          : 'of another tree';
      if (label === 'first start' && args.coldStart && manifest) {
        await loading.store.delete(manifestCollection(collection), ['manifest']);
        manifest = null;
        state = `removed (--cold-start; it was ${state})`;
      }
      log(`  ${size.chunks.toLocaleString('en')} chunks, ${label} (manifest: ${state})…`);
      switching.writes = 0;
      switching.scrolled.clear();
      const cpuBefore = process.cpuUsage();
      const pgBefore = backendCpuMs(loading.pid);
      const started = performance.now();
      runtime = await loadRuntime({
        tree: routing.tree,
        embedder: routing.embedder,
        embeddingCache: new NullEmbeddingCache(),
        vectorStore: switching,
        fileStore: new InMemoryFileStore(),
        models: {},
        limits: { maxSteps: 50, maxFallbacks: 3, callbackTimeoutMs: 0, modelTimeoutMs: 0 },
        now: () => new Date(),
        exploreIn: 'vector-store',
        calibration: args.calibrate ? {} : false,
      });
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      starts.push({
        label,
        manifest: state,
        wallMs,
        cpuMs: (cpu.user + cpu.system) / 1000,
        pgCpuMs: backendCpuMs(loading.pid) - pgBefore,
        written: switching.writes,
        pagesRead: switching.scrolled.get(collection) ?? 0,
        calibrated: runtime.calibrations.length,
        rssMb: process.memoryUsage().rss / 2 ** 20,
      });
      log(
        `    ${(wallMs / 1000).toFixed(1)} s wall, ${(starts.at(-1)!.cpuMs / 1000).toFixed(1)} s CPU, ${switching.writes} records written, ${starts.at(-1)!.pagesRead} pages read`,
      );
    }
    const routed = runtime!;
    const thresholdList = [...routed.tree.nodes.values()].map((node) => [node.id, node.similarityThreshold]);
    const thresholds = JSON.stringify(thresholdList);

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
      await routeText(routed, sets.paraphrases![0]!);
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
    const runs = [
      ...pools.map((entry) => ({ entry, bestOnly: false })),
      ...pools
        .filter((entry) => entry.efSearch !== null && args.runnerUpEf.includes(entry.efSearch))
        .map((entry) => ({ entry, bestOnly: true })),
    ];
    for (const { entry, bestOnly } of runs) {
      switching.current = entry.store;
      switching.bestOnly = bestOnly;
      const isExact = entry.efSearch === null;
      const config = `${entry.config}${bestOnly ? ', 1 result per hop (no runner-up)' : ''}`;
      const todo = isExact ? allTexts.filter(({ text }) => !exact.has(text)) : allTexts;
      log(
        `    ${config}: ${todo.length} routes${isExact ? ` (${allTexts.length - todo.length} cached)` : ''}…`,
      );
      // Warm-up: the index's pages into the OS cache, this connection's plan cache.
      if (!isExact)
        for (const { text } of allTexts.slice(0, args.quick ? 2 : 20)) await routeText(routed, text);
      const hopWalls: number[][] = [];
      let hopCount = 0;
      let extraSearches = 0;
      let emptyHops = 0;
      const routeWalls: number[] = [];
      const perSet: ConfigRow['sets'] = {};
      const keys: Record<string, string> = {};
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
        const started = performance.now();
        const result = await routeText(routed, text);
        routeWalls.push(performance.now() - started);
        const key = keyOf(result);
        keys[text] = key;
        switching.hops.forEach((hop, depth) => {
          wallsAt(depth).push(hop.wall);
          extraSearches += hop.extra;
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
      if (reused) {
        // Cached routes: their hop times come from the run that made them (wall only).
        const done = new Set(todo.map((item) => item.text));
        for (const { set, text } of allTexts.filter((item) => !done.has(item.text))) {
          const reference = exact.get(text)!;
          keys[text] = reference.key;
          reference.hops.forEach((wall, depth) => {
            wallsAt(depth).push(wall);
          });
          const tally = tallyOf(set);
          tally.turns++;
          tally.identical++;
        }
      }
      configs.push({
        config,
        efSearch: entry.efSearch,
        bestOnly,
        sets: perSet,
        hopWall: hopWalls.map((walls, depth) => {
          const stats = summarize(walls);
          return { depth, hops: walls.length, median: stats.median, p99: stats.p99 };
        }),
        nodeCpuPerHop: hopCount ? (cpu.user + cpu.system) / 1000 / hopCount : Number.NaN,
        pgCpuPerHop: hopCount ? pgCpu / hopCount : Number.NaN,
        routeWallMedian: routeWalls.length ? summarize(routeWalls).median : Number.NaN,
        emptyHops,
        extraSearches,
        hops: hopCount,
        keys,
        ...(isExact ? { reused } : {}),
      });
    }
    switching.bestOnly = false;
    await admin.end();
    return {
      chunks: size.chunks,
      dataset,
      starts,
      calibration: args.calibrate,
      thresholds: routed.calibrations.map((calibration) => [calibration.nodeId, calibration.threshold]),
      turns: Object.fromEntries(Object.entries(sets).map(([set, texts]) => [set, texts.length])),
      plans,
      configs,
    };
  } finally {
    for (const entry of pools) await entry.store.close().then(() => entry.pool.end());
  }
}

/** What the exact in-memory float32 scan decides for every message of a size. */
interface MemoryReference {
  keys: Record<string, string>;
  loadMs: number;
  /** Wall and CPU time of one route (every hop), median and mean. */
  routeWallMedian: number;
  routeCpuMean: number;
}

/**
 * In a fresh process: the same tree and messages routed by the exact in-memory float32 scan
 * (`exploreScan: 'exact'`), with the thresholds the vector-store runtime calibrated.
 */
export async function memoryReferenceChild(args: {
  size: Size;
  turns: number;
  thresholds: [number, number][];
}): Promise<MemoryReference> {
  const log = (line: string) => console.error(`[${stamp()}] ${line}`);
  const routing = treeOf(args.size, args.turns);
  const sets = messageSets(routing, args.size, args.turns);
  log(`  ${args.size.chunks.toLocaleString('en')} chunks: the exact in-memory float32 reference…`);
  const started = performance.now();
  const runtime = await loadRuntime(benchRuntimeParts(routing, { exploreScan: 'exact', calibration: false }));
  const loadMs = performance.now() - started;
  const thresholds = new Map(args.thresholds);
  const keys: Record<string, string> = {};
  const walls: number[] = [];
  const cpuBefore = process.cpuUsage();
  let routes = 0;
  for (const texts of Object.values(sets))
    for (const text of texts) {
      const t0 = performance.now();
      keys[text] = keyOf(await routeText(runtime, text, thresholds.size ? { thresholds } : {}));
      walls.push(performance.now() - t0);
      routes++;
    }
  const cpu = process.cpuUsage(cpuBefore);
  return {
    keys,
    loadMs,
    routeWallMedian: summarize(walls).median,
    routeCpuMean: (cpu.user + cpu.system) / 1000 / routes,
  };
}

/** Decisions without the similarity (node, action, best chunk, next node), and the similarities apart. */
function structural(key: string): { key: string; similarities: (number | null)[] } {
  const decisions = JSON.parse(key) as [number, string, unknown, number | null, number][];
  return {
    key: JSON.stringify(decisions.map((d) => [d[0], d[1], d[2], d[4]])),
    similarities: decisions.map((d) => d[3] ?? null),
  };
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
  const rows: { row: SizeRow; memory: MemoryReference }[] = [];
  for (const size of sizes) {
    log(`  ${size.chunks.toLocaleString('en')} chunks…`);
    const turns = size.chunks >= 1_000_000 ? 50 : 100;
    const row = inChild<SizeRow>(import.meta.url, 'measureChild', {
      size,
      turns,
      efValues: EF_VALUES,
      runnerUpEf: RUNNER_UP_EF,
      quick,
      coldStart: context.coldStart ?? false,
      calibrate: !context.noCalibration,
    } satisfies MeasureArgs);
    const memory = inChild<MemoryReference>(import.meta.url, 'memoryReferenceChild', {
      size,
      turns,
      thresholds: row.thresholds,
    });
    rows.push({ row, memory });
  }
  return report(rows);
}

const percent = (tally: { identical: number; turns: number }) =>
  `${tally.identical} / ${tally.turns} (${((tally.identical / tally.turns) * 100).toFixed(1)}%)`;

function report(rows: { row: SizeRow; memory: MemoryReference }[]): Section {
  const goals: Goal[] = [];
  const lines: string[] = [];
  lines.push(
    `\`exploreIn: 'vector-store'\` on \`PgVectorStore\` (PostgreSQL 15 + pgvector, HNSW m = 16, ef_construction = 64, cosine), the exploration benchmark's synthetic trees (384-d), the runtime loaded as \`new TreeAgent\` loads it (${rows[0]?.row.calibration === false ? 'thresholds at the default 0.25: `--no-calibration`' : 'thresholds calibrated at load'}). Each hop is one filtered \`search\` for the ${RUNNER_UP_WINDOW} best chunks below the node (its own excluded; \`hnsw.iterative_scan = strict_order\`): the best, and the runner-up under another child (the margin), plus one search without the winning child when all ${RUNNER_UP_WINDOW} are under it. Exact: the same store and SQL with \`enable_indexscan = off\` (sequential scan, top-N sort, no parallel workers). A turn agrees when every decision is identical (node, action, best chunk, its similarity, next node). In-memory exact: the exact float32 scan (\`exploreIn: 'memory'\`, \`exploreScan: 'exact'\`, same thresholds) in a child process of the same run, compared without the similarity (pgvector's float arithmetic differs in the last bits). Paraphrases: cosine ≈ 0.89 to their chunk; vague: ≈ 0.37. **CPU** per hop: this process + the PostgreSQL backend, summed over the configuration's hops (10 ms ticks) and divided; **wall** times are the machine's (shared, loaded).`,
  );
  for (const { row, memory } of rows) {
    const exact = row.configs.find((config) => config.efSearch === null)!;
    // In-memory exact against PostgreSQL exact, without the similarity; and the largest difference of similarity.
    let sameAsMemory = 0;
    let maxDelta = 0;
    for (const [text, key] of Object.entries(exact.keys)) {
      const pgRoute = structural(key);
      const memoryRoute = structural(memory.keys[text]!);
      if (pgRoute.key === memoryRoute.key) {
        sameAsMemory++;
        pgRoute.similarities.forEach((similarity, k) => {
          const other = memoryRoute.similarities[k];
          if (similarity !== null && other != null)
            maxDelta = Math.max(maxDelta, Math.abs(similarity - other));
        });
      }
    }
    const memoryTally = (config: ConfigRow) => {
      const texts = Object.keys(config.keys);
      return {
        turns: texts.length,
        identical: texts.filter(
          (text) => structural(config.keys[text]!).key === structural(memory.keys[text]!).key,
        ).length,
      };
    };
    lines.push(
      '',
      `**${row.chunks.toLocaleString('en')} chunks** — table ${bytes(row.dataset.tableBytes)}, HNSW index ${bytes(row.dataset.indexBytes)}; COPY ${(row.dataset.loadMs / 1000).toFixed(1)} s, index build ${(row.dataset.indexMs / 60_000).toFixed(1)} min${row.dataset.reusedIndex ? ` (an earlier run; reused after checking ${row.dataset.checked})` : ''}; turns: ${Object.entries(
        row.turns,
      )
        .map(([set, count]) => `${count} ${set}`)
        .join(', ')}. Plans: ${row.plans.map((plan) => `depth ${plan.depth}: ${plan.plan}`).join('; ')}.`,
      '',
      `Start-up (\`loadRuntime\` as \`new TreeAgent({ exploreIn: 'vector-store' })\` runs it; every chunk's vector generated, not read from a cache):`,
      '',
      table(
        [
          'start',
          'manifest found',
          'wall',
          'CPU (Node)',
          'CPU (PostgreSQL backend)',
          'records written',
          'pages of the collection read',
          'thresholds calibrated',
          'RSS after',
        ],
        row.starts.map((start) => [
          start.label,
          start.manifest,
          `${(start.wallMs / 1000).toFixed(2)} s`,
          `${(start.cpuMs / 1000).toFixed(2)} s`,
          `${(start.pgCpuMs / 1000).toFixed(2)} s`,
          start.written,
          start.pagesRead,
          start.calibrated,
          `${Math.round(start.rssMb)} MB`,
        ]),
      ),
      '',
      `In-memory exact float32 reference: ${sameAsMemory} / ${Object.keys(exact.keys).length} routes identical to PostgreSQL's exact search (largest similarity difference on those: ${maxDelta.toExponential(1)}); its route ${ms(memory.routeWallMedian)} wall median, ${ms(memory.routeCpuMean)} CPU mean; load ${(memory.loadMs / 1000).toFixed(1)} s.`,
      '',
      table(
        [
          'search',
          ...Object.keys(row.turns).map((set) => `${set}: identical to exact`),
          'identical to in-memory exact (all turns)',
          'hop wall median / p99 by depth',
          'CPU per hop (Node + PostgreSQL)',
          'route wall median',
          'runner-up searches / hops',
          'hops empty where exact found one',
        ],
        row.configs.map((config) => [
          config.config + (config.reused ? ' (cached routes)' : ''),
          ...Object.keys(row.turns).map((set) => {
            const tally = config.sets[set];
            return tally ? percent(tally) : '—';
          }),
          percent(memoryTally(config)),
          config.hopWall.map((hop) => `${hop.depth}: ${ms(hop.median)} / ${ms(hop.p99)}`).join('; '),
          config.reused && Number.isNaN(config.pgCpuPerHop)
            ? '(cached)'
            : `${ms(config.nodeCpuPerHop)} + ${ms(config.pgCpuPerHop)}`,
          Number.isNaN(config.routeWallMedian) ? '(cached)' : ms(config.routeWallMedian),
          config.reused ? '(cached)' : `${config.extraSearches} / ${config.hops}`,
          config.efSearch === null ? '—' : config.emptyHops,
        ]),
      ),
    );
    const runnerUp = row.configs
      .filter((config) => config.bestOnly)
      .map((bestOnly) => {
        const full = row.configs.find((config) => !config.bestOnly && config.efSearch === bestOnly.efSearch)!;
        const cpu = (config: ConfigRow) => config.nodeCpuPerHop + config.pgCpuPerHop;
        return `ef_search ${full.efSearch}: ${ms(cpu(full))} against ${ms(cpu(bestOnly))} of CPU per hop (${((cpu(full) / cpu(bestOnly) - 1) * 100).toFixed(0)}%), hop wall median at the top ${ms(full.hopWall[0]?.median ?? Number.NaN)} against ${ms(bestOnly.hopWall[0]?.median ?? Number.NaN)}; a second search on ${full.extraSearches} of ${full.hops} hops`;
      });
    if (runnerUp.length)
      lines.push(
        '',
        `The runner-up (${RUNNER_UP_WINDOW} results per hop against 1, same routes): ${runnerUp.join('; ')}.`,
      );
    const indexed = row.configs.filter((config) => config.efSearch !== null && !config.bestOnly);
    const agreeing = indexed.find((config) =>
      Object.values(config.sets).every((tally) => tally.identical / tally.turns >= GOAL),
    );
    const restart = row.starts.at(-1)!;
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
            .toFixed(3)}); restart ${(restart.wallMs / 1000).toFixed(1)} s`,
      met: agreeing !== undefined,
    });
  }
  return {
    id: 'vector-store-explore',
    title: '3d. Exploration in PostgreSQL + pgvector (HNSW)',
    markdown: lines.join('\n'),
    data: {
      rows: rows.map(({ row, memory }) => ({
        ...row,
        // The keys are the report's working data, not figures.
        configs: row.configs.map(({ keys: _keys, ...config }) => config),
        memory: {
          loadMs: memory.loadMs,
          routeWallMedian: memory.routeWallMedian,
          routeCpuMean: memory.routeCpuMean,
        },
      })),
    },
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
