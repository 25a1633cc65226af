import { createRowKernel } from '../packages/core/src/explore/dot-kernel.js';
import { inChild } from './lib/child.js';
import { installPeer } from './lib/langgraph.js';
import { type BenchContext, type Section, table } from './lib/report.js';
import { bytes, collectGarbage, ms, summarize } from './lib/stats.js';
import { chunkVectorInto } from './lib/trees.js';

/**
 * Benchmark 3e — an approximate-nearest-neighbour index against the scan (issue #18, goal 1: "a
 * well-kept ANN index for sizes beyond that, if it beats the scan — measure both and keep what wins
 * at each size"). usearch 2.26.2 (prebuilt binaries for linux-x64, installed in bench/node_modules,
 * not a dependency of the framework), HNSW over the same synthetic chunk vectors as the exploration
 * benchmark (384-d, seed 11), int8 quantisation (the resident budget of goal 2 rules out float32 in
 * the graph; the vectors scaled by 1 / their largest coordinate, as usearch's int8 maps [-1, 1]), connectivity 16, expansion 128 while adding and 64 while searching (usearch's
 * defaults). For each message of the synthetic suite: the k nearest by the index, rescored exactly in
 * float32 with the engine's own kernel, against the exact best over every chunk (the first hop's
 * decision, whose range is the whole tree). The index answers for the whole tree only: a hop below
 * the root needs the best chunk in its node's range, which usearch's JavaScript API cannot restrict
 * (no filter callback), so a hop would need an index per routing node or an over-fetch — what the
 * report says the scan keeps instead.
 */

const DIMENSIONS = 384;
const SEED = 11;
const KS = [1, 16, 64];
/** The full run's size; `--chunks=1000000` builds the 1M index too (about 12 minutes on 2 cores). */
const SIZES = [100_000];

interface AnnRow {
  chunks: number;
  /** Building the index (`add` of every vector, usearch's own threads). */
  buildMs: number;
  buildCpuMs: number;
  /** RSS the index added (after a collection), per chunk. */
  indexBytesPerChunk: number;
  messages: number;
  /** Per k: searches whose k results, rescored in float32, hold the exact best; median wall / CPU of search + rescoring. */
  byK: { k: number; identical: number; wall: number; cpu: number }[];
  /** The exact float32 pass over every chunk (the engine's SIMD kernel), median wall per message. */
  exactWall: number;
}

export async function exploreAnn(context: BenchContext): Promise<Section> {
  const { quick, log, chunks } = context;
  installPeer(log);
  const sizes = chunks ?? (quick ? [10_000] : SIZES);
  const rows: AnnRow[] = [];
  for (const size of sizes) {
    log(`  usearch HNSW, ${size.toLocaleString('en')} chunks…`);
    rows.push(inChild<AnnRow>(import.meta.url, 'annChild', { chunks: size, quick }));
  }
  const markdown = [
    'usearch 2.26.2 (HNSW, int8, connectivity 16, expansion 128 / 64) over the synthetic chunk vectors of the exploration benchmark; each message searched for its k nearest, those rescored in float32 with the engine’s kernel, against the exact best over every chunk (the first hop’s decision). Build: `add` of every vector on the machine’s 2 cores. Compare the search with the explore step of 3c (a whole `agent.route`, every hop, decisions identical to the exact scan).',
    '',
    table(
      [
        'chunks',
        'build wall / CPU',
        'index RSS per chunk',
        ...KS.map((k) => `k = ${k}: exact best found`),
        ...KS.map((k) => `k = ${k}: search + rescoring, median wall / CPU`),
        'exact float32 pass, median wall',
      ],
      rows.map((row) => [
        row.chunks.toLocaleString('en'),
        `${(row.buildMs / 1000).toFixed(1)} s / ${(row.buildCpuMs / 1000).toFixed(1)} s`,
        bytes(row.indexBytesPerChunk),
        ...row.byK.map((entry) => `${entry.identical} / ${row.messages}`),
        ...row.byK.map((entry) => `${ms(entry.wall)} / ${ms(entry.cpu)}`),
        ms(row.exactWall),
      ]),
    ),
  ].join('\n');
  return {
    id: 'explore-ann',
    title: '3e. An approximate-nearest-neighbour index (usearch HNSW) against the scan',
    markdown,
    data: { rows },
    goals: [],
  };
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** In a fresh process: build the index of one size, search every message, compare with the exact best. */
export async function annChild({ chunks, quick }: { chunks: number; quick: boolean }): Promise<AnnRow> {
  // Imported by name at run time (bench/node_modules), so type-checking does not need it installed.
  const name = 'usearch';
  const usearch = ((await import(name)) as { default: any }).default;
  const kernel = createRowKernel(chunks, DIMENSIONS);
  if (!kernel) throw new Error('explore-ann: no WebAssembly SIMD for the exact pass');
  const stride = kernel.stride;
  const vector = new Float32Array(DIMENSIONS);
  for (let g = 0; g < chunks; g++) {
    chunkVectorInto(vector, SEED, g);
    kernel.rows.set(vector, g * stride);
  }
  const messageCount = quick ? 20 : chunks >= 1_000_000 ? 100 : 200;
  // Paraphrases of random chunks, as the suite's messages (`routingTree`).
  const directions = syntheticMessages(chunks, messageCount);

  // usearch's int8 maps [-1, 1] to [-127, 127]: unit vectors of 384 dimensions have coordinates of
  // a few hundredths, so the chunk vectors are all scaled by 1 / the largest coordinate of any of
  // them, and each query by 1 / its own largest (inner products change by one positive factor per
  // query: the ranking is the same).
  let largestChunk = 0;
  for (let i = 0; i < kernel.rows.length; i++)
    largestChunk = Math.max(largestChunk, Math.abs(kernel.rows[i]!));
  const scaled = (from: Float32Array, into: Float32Array, at: number, largest?: number) => {
    let top = largest ?? 0;
    if (largest === undefined) for (let j = 0; j < DIMENSIONS; j++) top = Math.max(top, Math.abs(from[j]!));
    const factor = top > 0 ? 1 / top : 1;
    for (let j = 0; j < DIMENSIONS; j++) into[at + j] = from[j]! * factor;
  };
  collectGarbage();
  const before = process.memoryUsage().rss;
  const index = new usearch.Index({
    metric: 'ip',
    dimensions: DIMENSIONS,
    quantization: 'i8',
    connectivity: 16,
    expansion_add: 128,
    expansion_search: 64,
  });
  const batch = 50_000;
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let start = 0; start < chunks; start += batch) {
    const count = Math.min(batch, chunks - start);
    const keys = new BigUint64Array(count);
    const block = new Float32Array(count * DIMENSIONS);
    for (let k = 0; k < count; k++) {
      keys[k] = BigInt(start + k);
      scaled(
        kernel.rows.subarray((start + k) * stride, (start + k) * stride + DIMENSIONS),
        block,
        k * DIMENSIONS,
        largestChunk,
      );
    }
    index.add(keys, block, 0);
  }
  const buildMs = performance.now() - started;
  const buildCpuMs = cpuMs(cpu);
  collectGarbage();
  const indexBytesPerChunk = (process.memoryUsage().rss - before) / chunks;

  const similarities = new Float32Array(chunks);
  const exactBest: number[] = [];
  const exactTimes: number[] = [];
  for (const direction of directions) {
    const begin = performance.now();
    kernel.dots(direction, similarities);
    exactTimes.push(performance.now() - begin);
    let best = 0;
    for (let i = 1; i < chunks; i++) if (similarities[i]! > similarities[best]!) best = i;
    exactBest.push(best);
  }
  const positions = new Int32Array(Math.max(...KS));
  const scores = new Float32Array(positions.length);
  const query = new Float32Array(DIMENSIONS);
  const byK = KS.map((k) => {
    let identical = 0;
    const wall: number[] = [];
    const cpuTimes: number[] = [];
    directions.forEach((direction, m) => {
      const begin = performance.now();
      const since = process.cpuUsage();
      scaled(direction, query, 0);
      const found = index.search(query, k, 1) as { keys: BigUint64Array };
      const length = found.keys.length;
      for (let j = 0; j < length; j++) positions[j] = Number(found.keys[j]!);
      positions.subarray(0, length).sort();
      kernel.dotsAt(direction, positions, length, scores);
      let best = 0;
      for (let j = 1; j < length; j++) if (scores[j]! > scores[best]!) best = j;
      wall.push(performance.now() - begin);
      cpuTimes.push(cpuMs(since));
      if (length > 0 && positions[best] === exactBest[m]) identical++;
    });
    return { k, identical, wall: summarize(wall).median, cpu: summarize(cpuTimes).median };
  });
  return {
    chunks,
    buildMs,
    buildCpuMs,
    indexBytesPerChunk,
    messages: directions.length,
    byK,
    exactWall: summarize(exactTimes).median,
  };
}

/** Unit vectors near random chunks (cosine ≈ 0.89, as the suite's messages: `nearby(base, 0.5)`). */
function syntheticMessages(chunks: number, count: number): Float32Array[] {
  let state = 0x5bd1e995 ^ SEED;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const base = new Float32Array(DIMENSIONS);
  const noise = new Float32Array(DIMENSIONS);
  return Array.from({ length: count }, () => {
    chunkVectorInto(base, SEED, Math.floor(next() * chunks));
    let norm = 0;
    for (let j = 0; j < DIMENSIONS; j++) {
      noise[j] = next() * 2 - 1;
      norm += noise[j]! * noise[j]!;
    }
    const out = new Float32Array(DIMENSIONS);
    let total = 0;
    for (let j = 0; j < DIMENSIONS; j++) {
      out[j] = base[j]! + (0.5 * noise[j]!) / Math.sqrt(norm);
      total += out[j]! * out[j]!;
    }
    for (let j = 0; j < DIMENSIONS; j++) out[j]! /= Math.sqrt(total);
    return out;
  });
}
