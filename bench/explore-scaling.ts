import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';
import { join } from 'node:path';
import { ChunkIndex, SIGN_SCAN_FROM } from '../packages/core/src/explore/chunk-index.js';
import { SIGN_CANDIDATES } from '../packages/core/src/explore/memory-chunk-search.js';
import { TreeAgent } from '../packages/core/src/index.js';
import { startCReference } from './lib/c-reference.js';
import { inChild } from './lib/child.js';
import { type BenchContext, type Goal, type Section, table, verdict } from './lib/report.js';
import { bytes, collectGarbage, consume, consumed, ms, type Stats, summarize, times } from './lib/stats.js';
import { routingTree } from './lib/trees.js';
import { NullEmbeddingCache } from './lib/vectors.js';

/**
 * Benchmark 3 — exploration against chunk count: 1k, 10k, 100k and 1M chunks of 384 dimensions in a
 * tree with 100 children per routing node (10 chunks per leaf). One explore step (`agent.route(text)`:
 * embed the direction, one similarity pass over the `ChunkIndex`, then a range scan per hop) against
 * the memory-bandwidth limit measured in the same run: the time of a plain sequential read (a sum)
 * of a float32 array as large as the vectors the step must read, compiled from C with
 * `gcc -O3 -march=native` (`lib/sequential-read.c`, which also times a compiled float32 dot pass).
 * The same sum in plain JavaScript is printed beside it; it is the limit only when gcc is missing,
 * and the report says so.
 */

const DIMENSIONS = 384;
const CHUNKS_PER_LEAF = 10;
const GOAL_RATIO = 2;
const GOAL_CHUNKS = 100_000;
/** Issue #18, goal 1: an explore step at a million chunks within this many milliseconds (median). */
const GOAL_MILLION_MS = 10;
/** Goal 2: the engine's resident bytes per chunk at 1M, and the peak while loading against them. */
const GOAL_BYTES_PER_CHUNK = 1024;
const GOAL_PEAK_RATIO = 1.5;
/** Goal 3: a warm load of 1M chunks. */
const GOAL_LOAD_MS = 3000;
const SIZES = [
  { chunks: 1_000, levels: [] as number[] },
  { chunks: 10_000, levels: [10] },
  { chunks: 100_000, levels: [100] },
  { chunks: 1_000_000, levels: [10, 100] },
];

interface ScalingRow {
  chunks: number;
  nodes: number;
  vectorBytes: number;
  /** Compiled C reference (`lib/sequential-read.c`), or why it could not run. */
  c: { compiler: string; sum: Stats; dot: Stats; sign: Stats } | { unavailable: string };
  /** Plain sequential sum of a Float32Array of `vectorBytes` in JavaScript (the faster of one or four accumulators). */
  jsSequentialRead: Stats;
  /** The limit the step is compared with: the C sum, or the JavaScript sum when C is unavailable. */
  limit: Stats;
  limitSource: 'C' | 'JavaScript';
  /** One explore step: `agent.route(text)`. */
  step: Stats;
  /** CPU time (user + system) of the same steps: less inflated by the machine's other load than wall time. */
  stepCpu: Stats;
  /** `step.median / limit.median`. */
  ratio: number;
  /** `step.median / jsSequentialRead.median`, the ratio earlier runs reported. */
  jsRatio: number;
  /** Same computation as the engine's pass, four dimensions per sweep (a reference kernel, not the engine). */
  blockedKernel: Stats;
  passesPerStep: number;
  hopsPerStep: number;
  /** Time of the similarity pass inside a step (median), the rest being embedding and hops. */
  passInStep: number;
  /** How the agent scanned (`ChunkIndex.signBits`): sign bits then exact rescoring, or float32. */
  scan: 'sign-bits' | 'exact';
  /** Bytes the pass per direction reads: the sign codes, or the float32 vectors. */
  passBytes: number;
  definitionMs: number;
  /** `agent.ready()` from the packed index file written by the cold load (wall). */
  loadMs: number;
  /** CPU time (user + system) of that load. */
  loadCpuMs: number;
  /** The first load (every chunk embedded, thresholds calibrated, the packed index file written), in its own process. */
  cold: ColdLoad;
  /** Bytes of the packed index file. */
  packedFileBytes: number;
  /** RSS after the load and a full collection. */
  rssBytes: number;
  /** RSS of the process before the tree is defined (Node, the modules), after a collection. */
  baseRssBytes: number;
  /** RSS after `defineTree` and a collection: the user's tree object. */
  treeRssBytes: number;
  /** Peak RSS of the process up to the end of the definition, and up to the end of the load. */
  peakAfterDefinitionBytes: number;
  peakAfterLoadBytes: number;
  /** Whether the float32 rows stayed in the packed index file. */
  rowsInFile: boolean;
  /** What the timed reads computed (kept so that they cannot be optimised away). */
  sink: number;
}

interface ColdLoad {
  loadMs: number;
  loadCpuMs: number;
  peakBytes: number;
}

export async function exploreScaling(context: BenchContext): Promise<Section> {
  const { quick, log, chunks, tmp } = context;
  const calibrate = !context.noCalibration;
  const notes: string[] = [];
  let sizes = chunks
    ? SIZES.filter((size) => chunks.includes(size.chunks))
    : quick
      ? SIZES.slice(0, 2)
      : SIZES;
  if (chunks && sizes.length !== chunks.length)
    throw new Error(
      `--chunks=${chunks.join(',')}: the exploration benchmark has trees of ${SIZES.map((size) => size.chunks).join(', ')} chunks only`,
    );
  // The million-chunk tree peaks near 6 GB (vectors while packing, then the 1.5 GB matrix), and the
  // C reference holds another 1.5 GB.
  if (!quick && totalmem() < 12 * 2 ** 30) {
    sizes = sizes.filter((size) => size.chunks < 1_000_000);
    notes.push(
      `1M chunks skipped: the machine has ${bytes(totalmem())} of memory (about 7.5 GB needed at peak).`,
    );
  }
  const rows: ScalingRow[] = [];
  for (const size of sizes) {
    log(`  ${size.chunks.toLocaleString('en')} chunks…`);
    // Each size in fresh processes: its own heap, and the memory of the large trees is returned.
    // The first embeds every chunk, calibrates and writes the packed index file; the second starts
    // from that file, as a restart with a warm cache does, and is the one timed.
    const indexDirectory = join(tmp, `index-${size.chunks}`);
    mkdirSync(indexDirectory, { recursive: true });
    const cold = inChild<ColdLoad>(import.meta.url, 'coldLoadChild', { size, indexDirectory, calibrate });
    const packedFileBytes = readdirSync(indexDirectory).reduce(
      (total, name) => total + statSync(join(indexDirectory, name)).size,
      0,
    );
    const row = inChild<ScalingRow>(import.meta.url, 'scalingChild', {
      size,
      quick,
      indexDirectory,
      calibrate,
    });
    rows.push({ ...row, cold, packedFileBytes });
    rmSync(indexDirectory, { recursive: true, force: true });
  }
  if (!calibrate)
    notes.push(
      '`--no-calibration`: the trees were loaded without calibrating thresholds (`calibrateThresholds: false`); a cold load with the default calibration takes longer.',
    );
  return report(rows, notes, quick);
}

/** The bench tree of one size (`vectors: 'generated'`: no vector is stored twice). */
function sizeTree(size: (typeof SIZES)[number]) {
  return routingTree({
    name: `explore-${size.chunks}`,
    levels: size.levels,
    leaves: size.chunks / CHUNKS_PER_LEAF,
    chunksPerLeaf: CHUNKS_PER_LEAF,
    dimensions: DIMENSIONS,
    seed: 11,
    vectors: 'generated',
  });
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** In a fresh process: the first load of one tree size, which writes its packed index file. */
export async function coldLoadChild({
  size,
  indexDirectory,
  calibrate,
}: {
  size: (typeof SIZES)[number];
  indexDirectory: string;
  calibrate: boolean;
}): Promise<ColdLoad> {
  const routing = sizeTree(size);
  const started = performance.now();
  const cpu = process.cpuUsage();
  const agent = new TreeAgent({
    tree: routing.tree,
    embedder: routing.embedder,
    embeddingCache: new NullEmbeddingCache(),
    indexDirectory,
    ...(calibrate ? {} : { calibrateThresholds: false }),
  });
  await agent.ready();
  return {
    loadMs: performance.now() - started,
    loadCpuMs: cpuMs(cpu),
    peakBytes: process.resourceUsage().maxRSS * 1024,
  };
}

/** In a fresh process: one tree size loaded from its packed index, its memory, its limit, its explore steps. */
export async function scalingChild({
  size,
  quick,
  indexDirectory,
  calibrate,
}: {
  size: (typeof SIZES)[number];
  quick: boolean;
  indexDirectory: string;
  calibrate: boolean;
}): Promise<Omit<ScalingRow, 'cold' | 'packedFileBytes'>> {
  const floats = size.chunks * DIMENSIONS;
  const vectorBytes = floats * 4;
  const large = size.chunks >= 1_000_000;
  const repeat = quick
    ? { warmup: 2, samples: 5 }
    : large
      ? { warmup: 2, samples: 8 }
      : size.chunks >= 100_000
        ? { warmup: 5, samples: 30 }
        : { warmup: 30, samples: 200 };

  collectGarbage();
  const baseRssBytes = process.memoryUsage().rss;
  let started = performance.now();
  const routing = sizeTree(size);
  const definitionMs = performance.now() - started;
  collectGarbage();
  const treeRssBytes = process.memoryUsage().rss;
  const peakAfterDefinitionBytes = process.resourceUsage().maxRSS * 1024;
  // Which index the load restored from the file (none: the file was not used, and the row says so).
  let restored: ChunkIndex | null = null;
  const fromPacked = ChunkIndex.fromPacked;
  ChunkIndex.fromPacked = (tree, parts) => {
    restored = fromPacked.call(ChunkIndex, tree, parts);
    return restored;
  };
  started = performance.now();
  const cpu = process.cpuUsage();
  // No embedding cache: the packed index file the cold load wrote is what makes this start warm
  // (a chunk the file did not cover would be embedded again, and the load would show it).
  const agent = new TreeAgent({
    tree: routing.tree,
    embedder: routing.embedder,
    embeddingCache: new NullEmbeddingCache(),
    indexDirectory,
    ...(calibrate ? {} : { calibrateThresholds: false }),
  });
  await agent.ready();
  const loadMs = performance.now() - started;
  const loadCpuMs = cpuMs(cpu);
  const peakAfterLoadBytes = process.resourceUsage().maxRSS * 1024;
  collectGarbage();
  const rssBytes = process.memoryUsage().rss;
  ChunkIndex.fromPacked = fromPacked;
  if (!restored) throw new Error(`${size.chunks} chunks: the second load did not read the packed index file`);
  const rowsInFile = !(restored as ChunkIndex).rowsInMemory;
  const { messages } = routing;

  // The limit: a plain sequential read of a float32 array as large as the vectors, compiled from C
  // (with a compiled dot pass), and the same read in JavaScript (one accumulator or four; the faster
  // is kept), and the reference kernel on the JavaScript array. Timed in rotation with the explore
  // steps, so that all of them meet the same machine.
  const compiled = await startCReference(size.chunks, DIMENSIONS);
  const columns = new Float32Array(floats);
  for (let i = 0; i < floats; i++) columns[i] = (i & 1023) / 1024 - 0.5;
  const direction = new Float32Array(DIMENSIONS).map((_, j) => Math.sin(j + 1));
  const timings = {
    one: [] as number[],
    four: [] as number[],
    kernel: [] as number[],
    step: [] as number[],
    stepCpu: [] as number[],
    cSum: [] as number[],
    cDot: [] as number[],
    cSign: [] as number[],
  };
  const time = async (list: number[] | null, body: () => unknown) => {
    const begin = performance.now();
    await body();
    list?.push(performance.now() - begin);
  };
  try {
    for (let i = 0; i < repeat.warmup + repeat.samples; i++) {
      const keep = i >= repeat.warmup;
      if ('round' in compiled) {
        const round = await compiled.round();
        if (keep) {
          timings.cSum.push(round.sum);
          timings.cDot.push(round.dot);
          timings.cSign.push(round.sign);
        }
      }
      await time(keep ? timings.one : null, () => consume(sum(columns)));
      await time(keep ? timings.four : null, () => consume(sum4(columns)));
      await time(keep ? timings.kernel : null, () =>
        consume(blockedSimilarities(columns, direction, size.chunks)),
      );
      const stepCpu = process.cpuUsage();
      await time(keep ? timings.step : null, () => agent.route(messages[i % messages.length]!.text));
      if (keep) timings.stepCpu.push(cpuMs(stepCpu));
    }
  } finally {
    if ('close' in compiled) compiled.close();
  }
  const one = summarize(timings.one);
  const four = summarize(timings.four);
  const jsSequentialRead = one.median <= four.median ? one : four;
  const c =
    'round' in compiled
      ? {
          compiler: compiled.compiler,
          sum: summarize(timings.cSum),
          dot: summarize(timings.cDot),
          sign: summarize(timings.cSign),
        }
      : compiled;
  const limit = 'sum' in c ? c.sum : jsSequentialRead;
  const blockedKernel = summarize(timings.kernel);
  const step = summarize(timings.step);
  const stepCpu = summarize(timings.stepCpu);

  // After the timing (so the wrapper cannot change what was timed): count the similarity passes per step.
  const original = ChunkIndex.prototype.similarities;
  const originalSignPass = ChunkIndex.prototype.signPass;
  let passes = 0;
  let passMs = 0;
  let signBits = false;
  // Every argument passed on: the search fills its own buffer (`into`) and reads it, not the result.
  ChunkIndex.prototype.similarities = function (
    this: ChunkIndex,
    ...args: Parameters<ChunkIndex['similarities']>
  ) {
    passes++;
    const begin = performance.now();
    const result = original.apply(this, args);
    passMs += performance.now() - begin;
    return result;
  };
  ChunkIndex.prototype.signPass = function (this: ChunkIndex, direction, histogram) {
    passes++;
    signBits = true;
    const begin = performance.now();
    const result = originalSignPass.call(this, direction, histogram);
    passMs += performance.now() - begin;
    return result;
  };
  let hops = 0;
  const checks = quick ? 2 : large ? 3 : 12;
  const inStep: number[] = [];
  try {
    for (let k = 0; k < checks; k++) {
      const before = passMs;
      const result = await agent.route(messages[k]!.text);
      inStep.push(passMs - before);
      hops += result.decisions.length;
    }
  } finally {
    ChunkIndex.prototype.similarities = original;
    ChunkIndex.prototype.signPass = originalSignPass;
  }
  return {
    chunks: size.chunks,
    nodes: routing.nodeCount,
    vectorBytes,
    c,
    jsSequentialRead,
    limit,
    limitSource: 'sum' in c ? 'C' : 'JavaScript',
    step,
    stepCpu,
    ratio: step.median / limit.median,
    jsRatio: step.median / jsSequentialRead.median,
    blockedKernel,
    passesPerStep: passes / checks,
    hopsPerStep: hops / checks,
    // The first calls after wrapping run de-optimised code: keep the later ones when there are enough.
    passInStep: summarize(inStep.length > 4 ? inStep.slice(2) : inStep).median,
    scan: signBits ? 'sign-bits' : 'exact',
    passBytes: signBits ? size.chunks * Math.ceil(DIMENSIONS / 128) * 16 : vectorBytes,
    definitionMs,
    loadMs,
    loadCpuMs,
    rssBytes,
    baseRssBytes,
    treeRssBytes,
    peakAfterDefinitionBytes,
    peakAfterLoadBytes,
    rowsInFile,
    sink: consumed(),
  };
}

/** A plain sequential read: the sum of every element, in order. */
function sum(values: Float32Array): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i]!;
  return total;
}

/** The same read with four independent accumulators. */
function sum4(values: Float32Array): number {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  const end = values.length & ~3;
  for (let i = 0; i < end; i += 4) {
    a += values[i]!;
    b += values[i + 1]!;
    c += values[i + 2]!;
    d += values[i + 3]!;
  }
  for (let i = end; i < values.length; i++) a += values[i]!;
  return a + b + c + d;
}

/** The engine's similarity pass (dimension-major) computed four dimensions per sweep of the output. */
function blockedSimilarities(columns: Float32Array, direction: Float32Array, count: number): Float32Array {
  const out = new Float32Array(count);
  const dimensions = direction.length;
  let j = 0;
  for (; j + 3 < dimensions; j += 4) {
    const w0 = direction[j]!;
    const w1 = direction[j + 1]!;
    const w2 = direction[j + 2]!;
    const w3 = direction[j + 3]!;
    const b0 = j * count;
    const b1 = b0 + count;
    const b2 = b1 + count;
    const b3 = b2 + count;
    for (let row = 0; row < count; row++) {
      out[row]! +=
        w0 * columns[b0 + row]! + w1 * columns[b1 + row]! + w2 * columns[b2 + row]! + w3 * columns[b3 + row]!;
    }
  }
  for (; j < dimensions; j++) {
    const w = direction[j]!;
    const base = j * count;
    for (let row = 0; row < count; row++) out[row]! += w * columns[base + row]!;
  }
  return out;
}

function gbPerSecond(vectorBytes: number, stats: Stats): string {
  return `${((vectorBytes / stats.median) * 1e-6).toFixed(1)} GB/s`;
}

function report(rows: ScalingRow[], notes: string[], quick: boolean): Section {
  const goals: Goal[] = [];
  const atGoal = rows.find((row) => row.chunks === GOAL_CHUNKS);
  goals.push({
    benchmark: '3. exploration scaling',
    goal: `explore step ≤ ${GOAL_RATIO}× the memory-bandwidth limit at 100k chunks`,
    measured: atGoal
      ? `${times(atGoal.ratio)} (${ms(atGoal.step.median)} step vs ${ms(atGoal.limit.median)} to read ${bytes(atGoal.vectorBytes)} in ${atGoal.limitSource}${atGoal.limitSource === 'C' ? '' : ': gcc unavailable, not the machine’s limit'})`
      : 'not measured (quick run)',
    met: atGoal && !quick ? atGoal.ratio <= GOAL_RATIO : null,
  });
  const million = rows.find((row) => row.chunks === 1_000_000);
  goals.push({
    benchmark: '3. exploration scaling',
    goal: `explore step ≤ ${GOAL_MILLION_MS} ms median at 1M chunks (decisions against exact float32: 3b)`,
    measured: million
      ? `${ms(million.step.median)} (p99 ${ms(million.step.p99)}; CPU ${ms(million.stepCpu.median)} / ${ms(million.stepCpu.p99)}; ${'sign' in million.c ? `C sign-bit pass ${ms(million.c.sign.median)} in the same run; ` : ''}${million.scan === 'sign-bits' ? 'sign-bit scan' : 'float32 scan'}${million.rowsInFile ? ', float32 rows in the packed index file' : ''})`
      : 'not measured',
    met: million && !quick ? million.step.median <= GOAL_MILLION_MS : null,
  });
  goals.push({
    benchmark: '3. exploration scaling',
    goal: `≤ ${GOAL_BYTES_PER_CHUNK} B resident per chunk at 1M after load and GC (engine's index; peak while loading ≤ ${GOAL_PEAK_RATIO}× resident)`,
    measured: million
      ? `engine ${Math.round((million.rssBytes - million.treeRssBytes) / million.chunks)} B/chunk, tree ${Math.round((million.treeRssBytes - million.baseRssBytes) / million.chunks)} B/chunk, process ${Math.round(million.rssBytes / million.chunks)} B/chunk; peak ${times(million.peakAfterLoadBytes / million.rssBytes)} of resident`
      : 'not measured',
    met: million
      ? (million.rssBytes - million.treeRssBytes) / million.chunks <= GOAL_BYTES_PER_CHUNK &&
        million.peakAfterLoadBytes / million.rssBytes <= GOAL_PEAK_RATIO
      : null,
  });
  goals.push({
    benchmark: '3. exploration scaling',
    goal: `load 1M chunks from a warm cache in ≤ ${GOAL_LOAD_MS / 1000} s (the packed index file)`,
    measured: million
      ? `${ms(million.loadMs)} wall, ${ms(million.loadCpuMs)} CPU (cold: ${ms(million.cold.loadMs)} wall, ${ms(million.cold.loadCpuMs)} CPU)`
      : 'not measured',
    met: million && !quick ? million.loadMs <= GOAL_LOAD_MS : null,
  });
  const rescans = rows.filter((row) => row.passesPerStep !== 1);
  goals.push({
    benchmark: '3. exploration scaling',
    goal: 'one similarity pass per direction, no rescan per hop',
    measured: rows
      .map((row) => `${row.chunks.toLocaleString('en')}: ${row.passesPerStep} pass / ${row.hopsPerStep} hops`)
      .join('; '),
    met: rescans.length === 0,
  });
  const compilers = [...new Set(rows.map((row) => ('compiler' in row.c ? row.c.compiler : null)))].filter(
    (compiler) => compiler !== null,
  );
  const unavailable = [
    ...new Set(rows.map((row) => ('unavailable' in row.c ? row.c.unavailable : null))),
  ].filter((reason) => reason !== null);
  const markdown = [
    ...(unavailable.length
      ? [
          `**The compiled reference could not run (${unavailable.join('; ')}): the limit below is the plain JavaScript sum, which is slower than what this machine can read — the ratios understate the distance to the real limit.**`,
          '',
        ]
      : []),
    `Each step is \`agent.route(text)\` on a fresh direction (embedding lookup, one pass over the \`ChunkIndex\`, one range scan per hop). From ${SIGN_SCAN_FROM.toLocaleString('en')} chunks on the agent keeps one sign bit per dimension (\`exploreScan: 'auto'\`): the pass is a Hamming distance per chunk over ${DIMENSIONS / 8} bytes instead of a float32 dot product over ${DIMENSIONS * 4}, and each hop rescores its nearest ${SIGN_CANDIDATES} chunks exactly (scan \`sign-bits\`; decisions compared with the float32 scan in 3b); the limit below is still the time to read the float32 vectors. ${DIMENSIONS} dimensions, ${CHUNKS_PER_LEAF} chunks per leaf, 100 children per routing node (10 at the top of the 1M tree). The limit is the median time of a plain sequential sum of a float32 array of the same size as the vectors a step reads (chunks × ${DIMENSIONS} × 4 bytes) in C (\`bench/lib/sequential-read.c\`, compiled in the run${compilers.length ? ` by ${compilers.join('; ')}` : ''}; SIMD loads, four accumulators), measured in the same run, in rotation with the steps. Beside it: a compiled float32 dot pass over the same array (one score per chunk, the exact scan's computation), a compiled sign-bit pass (Hamming distance and histogram over one bit per dimension per chunk, the sign-bit scan's pass: what the step at 100k and 1M chunks should be compared with) and the same sum in plain JavaScript (the limit earlier runs used).`,
    '',
    table(
      [
        'chunks',
        'vector bytes',
        'explore step median / p99',
        'step CPU median / p99',
        'sequential read, C (limit)',
        'dot pass, C',
        'sign-bit pass, C',
        'sequential read, JavaScript',
        'step ÷ limit',
        'step ÷ JavaScript read',
        'goal',
        'scan',
        'pass in a step (bytes read)',
        'passes / hops per step',
      ],
      rows.map((row) => [
        row.chunks.toLocaleString('en'),
        bytes(row.vectorBytes),
        `${ms(row.step.median)} / ${ms(row.step.p99)}`,
        row.stepCpu ? `${ms(row.stepCpu.median)} / ${ms(row.stepCpu.p99)}` : 'not measured',
        'sum' in row.c
          ? `${ms(row.c.sum.median)} (${gbPerSecond(row.vectorBytes, row.c.sum)})`
          : 'unavailable',
        'dot' in row.c
          ? `${ms(row.c.dot.median)} (${gbPerSecond(row.vectorBytes, row.c.dot)})`
          : 'unavailable',
        'sign' in row.c && row.c.sign ? ms(row.c.sign.median) : 'unavailable',
        `${ms(row.jsSequentialRead.median)} (${gbPerSecond(row.vectorBytes, row.jsSequentialRead)})`,
        `${times(row.ratio)}${row.limitSource === 'C' ? '' : ' (JavaScript limit)'}`,
        times(row.jsRatio),
        row.chunks === GOAL_CHUNKS ? verdict(row.ratio <= GOAL_RATIO) : `(≤ ${GOAL_RATIO}× at 100k)`,
        row.scan ?? 'exact',
        `${ms(row.passInStep)} (${bytes(row.passBytes ?? row.vectorBytes)})`,
        `${row.passesPerStep} / ${row.hopsPerStep}`,
      ]),
    ),
    '',
    'Reference kernel (not the engine): a dimension-major pass in plain JavaScript accumulating four dimensions per sweep of the output array (the engine’s layout for sparse vectors; dense 384-d vectors like these are stored row-major and scored by the WebAssembly SIMD kernel).',
    '',
    table(
      ['chunks', 'four-dimension kernel median', 'kernel ÷ limit'],
      rows.map((row) => [
        row.chunks.toLocaleString('en'),
        ms(row.blockedKernel.median),
        times(row.blockedKernel.median / row.limit.median),
      ]),
    ),
    '',
    'Loading the trees (same run, each load in a fresh process). Cold: `agent.ready()` embedding every chunk (the precomputed embedder), calibrating the thresholds and writing the packed index file. Warm: a restart with that file (`indexDirectory`), the timed runs above use this agent. Wall times depend on the machine’s load; CPU times (user + system of the process) less so.',
    '',
    table(
      [
        'chunks',
        'nodes',
        'definition',
        'cold load wall / CPU (peak RSS)',
        'packed file',
        'warm load wall / CPU',
        'warm ÷ cold CPU',
        'rows',
      ],
      rows.map((row) => [
        row.chunks.toLocaleString('en'),
        row.nodes.toLocaleString('en'),
        ms(row.definitionMs),
        `${ms(row.cold.loadMs)} / ${ms(row.cold.loadCpuMs)} (${bytes(row.cold.peakBytes)})`,
        bytes(row.packedFileBytes),
        `${ms(row.loadMs)} / ${ms(row.loadCpuMs)}`,
        times(row.loadCpuMs / row.cold.loadCpuMs),
        row.rowsInFile ? 'int8 + sign bits in memory, float32 in the file' : 'float32 in memory',
      ]),
    ),
    '',
    'Memory of the warm process (RSS after a full collection): before the tree is defined (Node and the modules), after `defineTree` (the user’s tree object: node definitions, chunk texts, the compiled `Tree`), after the load (the engine’s index added); per chunk, the engine’s part is the difference made by the load. Peak: the process’s maximum RSS up to the end of the definition and up to the end of the load.',
    '',
    table(
      [
        'chunks',
        'RSS: base / + tree / + load',
        'tree per chunk',
        'engine per chunk',
        'total per chunk',
        'peak: definition / load',
        'peak ÷ resident after load',
      ],
      rows.map((row) => [
        row.chunks.toLocaleString('en'),
        `${bytes(row.baseRssBytes)} / ${bytes(row.treeRssBytes)} / ${bytes(row.rssBytes)}`,
        `${Math.round((row.treeRssBytes - row.baseRssBytes) / row.chunks)} B`,
        `${Math.round((row.rssBytes - row.treeRssBytes) / row.chunks)} B`,
        `${Math.round(row.rssBytes / row.chunks)} B`,
        `${bytes(row.peakAfterDefinitionBytes)} / ${bytes(row.peakAfterLoadBytes)}`,
        times(row.peakAfterLoadBytes / row.rssBytes),
      ]),
    ),
    ...(notes.length ? ['', ...notes.map((note) => `- ${note}`)] : []),
    ...(quick ? ['', '- Quick run: 1k and 10k chunks only.'] : []),
  ].join('\n');
  return {
    id: 'explore-scaling',
    title: '3. Exploration against chunk count',
    markdown,
    data: { rows, notes },
    goals,
  };
}
