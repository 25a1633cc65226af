import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RouteResult, routeText } from '../packages/core/src/engine/agent/route.js';
import { loadRuntime } from '../packages/core/src/engine/runtime/load-runtime.js';
import type { AgentRuntime } from '../packages/core/src/engine/runtime/runtime.js';
import type { ChunkIndex } from '../packages/core/src/explore/chunk-index.js';
import { MemoryChunkSearch, SIGN_CANDIDATES } from '../packages/core/src/explore/memory-chunk-search.js';
import { readPackedIndex, writePackedIndex } from '../packages/core/src/explore/packed-index-file.js';
import { InMemoryEmbeddingCache, type Tree } from '../packages/core/src/index.js';
import { inChild } from './lib/child.js';
import { type BenchContext, type Goal, type Section, table, verdict } from './lib/report.js';
import { benchRuntimeParts } from './lib/runtime-parts.js';
import { ms, summarize } from './lib/stats.js';
import { routingTree } from './lib/trees.js';
import { NullEmbeddingCache, PrecomputedEmbedder } from './lib/vectors.js';
import { CLINC150_DIR, clincTree, loadClinc150 } from './routing/clinc150.js';

/**
 * Benchmark 3b — decision agreement of the sign-bit scan (`exploreScan: 'sign-bits'`) with the exact
 * float32 scan: the same runtime (same index, same calibrated thresholds) routes every message twice,
 * once ranking a node's chunks by the Hamming distance of their sign bits and rescoring the nearest
 * `SIGN_CANDIDATES` exactly, once scoring every chunk in float32; a turn agrees when every
 * `explore-decision` (action, best chunk, its similarity, next node) is identical. Also: for every
 * hop of the exact route, the rank by Hamming distance of the exact best chunk in the node's range —
 * how many candidates the rescoring would have needed.
 *
 * Data: CLINC150 `val` and `oos_val` routed on the CLINC150 tree (15,000 training utterances as
 * chunks) embedded with Universal Sentence Encoder lite (512-d, `@treeagent/embedder-use`; the
 * vectors are cached in bench/.cache/ after the first run, about 3 minutes), and the exploration
 * benchmark's synthetic trees of 100,000 and 1,000,000 chunks of 384 dimensions.
 */

const GOAL = 0.999;
const DIMENSIONS = 384;
const CACHE = fileURLToPath(new URL('./.cache/', import.meta.url));

interface AgreementRow {
  data: string;
  chunks: number;
  turns: number;
  identical: number;
  /** Hops of the exact routes with a best chunk. */
  hops: number;
  /** Rank (1 = nearest) by Hamming distance of the exact best chunk in its node's range, over the hops. */
  rank: { median: number; p999: number; max: number };
  /** Turns whose every hop's exact best chunk is within the nearest k by Hamming distance. */
  withinK: Record<string, number>;
  /** Median wall time of one route (`routeText`: embedding lookup and every hop), sign bits and exact. */
  signStep: number;
  exactStep: number;
  /** Median CPU time (user + system) of the same routes: what the machine's other load does not inflate as much. */
  signCpu: number;
  exactCpu: number;
  /**
   * The same sign-bit scan on the index read back from its packed index file, the float32 rows left
   * in the file (int8 rows choose which to read): turns identical to the exact scan, and to the
   * sign-bit scan in memory (which rescored every candidate), median wall and CPU of a route, and
   * float32 rows read from the file per route (median / max; a hop over at most 1,024 chunks scores them all on their int8 rows first, like the candidates of a larger one).
   */
  file: {
    identical: number;
    identicalToMemory: number;
    step: number;
    cpu: number;
    rowsRead: { median: number; max: number };
  };
}

export async function exploreAgreement(context: BenchContext): Promise<Section> {
  const { quick, log, chunks } = context;
  const calibrate = !context.noCalibration;
  const rows: AgreementRow[] = [];
  // A quick run (the smoke test) skips CLINC150: its vectors take minutes to compute on a fresh checkout.
  if (!quick) {
    log('  CLINC150 (USE-lite)…');
    rows.push(inChild<AgreementRow>(import.meta.url, 'agreementChild', { data: 'clinc150', quick }));
  }
  const sizes = chunks ?? (quick ? [10_000] : [100_000, 1_000_000]);
  for (const size of sizes) {
    log(`  synthetic, ${size.toLocaleString('en')} chunks…`);
    rows.push(
      inChild<AgreementRow>(import.meta.url, 'agreementChild', {
        data: 'synthetic',
        chunks: size,
        quick,
        calibrate,
      }),
    );
  }
  return report(rows, calibrate);
}

const K_VALUES = [16, 64, 256, SIGN_CANDIDATES, 2048];

/** In a fresh process: route every message with both scans and compare. */
export async function agreementChild(args: {
  data: 'clinc150' | 'synthetic';
  chunks?: number;
  quick: boolean;
  /** Synthetic messages to route (default 2,000; 1,000 at a million chunks; 200 in a quick run). */
  turns?: number;
  /** `false` (`--no-calibration`): synthetic trees keep the default threshold. */
  calibrate?: boolean;
}): Promise<AgreementRow> {
  const { tree, embedder, texts } =
    args.data === 'clinc150'
      ? await clincSet(args.quick)
      : syntheticSet(args.chunks!, args.quick, args.turns);
  const signs = await loadRuntime(
    benchRuntimeParts(
      { tree, embedder },
      {
        embeddingCache: args.data === 'clinc150' ? new InMemoryEmbeddingCache() : new NullEmbeddingCache(),
        exploreScan: 'sign-bits',
        calibration: args.calibrate === false && args.data === 'synthetic' ? false : {},
      },
    ),
  );
  const index = signs.chunkIndex!;
  if (!index.signBits) throw new Error('the index keeps no sign bits (no WebAssembly SIMD?)');
  const exact: AgentRuntime = {
    ...signs,
    chunkSearch: (direction) => new MemoryChunkSearch(index, direction, { exact: true }),
  };
  // The same index through its packed index file, float32 rows in the file.
  const packedDirectory = mkdtempSync(join(tmpdir(), 'treeagent-agreement-'));
  const packedKey = {
    tree,
    embedderId: embedder.id,
    dimensions: embedder.dimensions,
    scan: 'sign-bits' as const,
  };
  let fileIndex: ChunkIndex;
  try {
    writePackedIndex(packedDirectory, packedKey, index, { key: 'bench', calibrations: [] }).reader?.close();
    fileIndex = readPackedIndex(packedDirectory, packedKey)!.index;
  } finally {
    // The open descriptor keeps the data readable.
    rmSync(packedDirectory, { recursive: true, force: true });
  }
  if (fileIndex.rowsInMemory) throw new Error('the packed index kept its float32 rows in memory');
  let rowsRead = 0;
  const similaritiesAt = fileIndex.similaritiesAt.bind(fileIndex);
  fileIndex.similaritiesAt = (direction, positions, length, out) => {
    rowsRead += length;
    similaritiesAt(direction, positions, length, out);
  };
  const similaritiesRange = fileIndex.similaritiesRange.bind(fileIndex);
  fileIndex.similaritiesRange = (direction, from, to, out) => {
    rowsRead += to - from;
    similaritiesRange(direction, from, to, out);
  };
  const fromFile: AgentRuntime = {
    ...signs,
    chunkSearch: (direction) => new MemoryChunkSearch(fileIndex, direction),
  };
  const fileTimes: number[] = [];
  const fileCpu: number[] = [];
  const fileRows: number[] = [];
  let fileIdentical = 0;
  let fileIdenticalToMemory = 0;
  const key = (result: RouteResult) =>
    JSON.stringify(
      result.decisions.map((d) => [d.nodeId, d.action, d.best?.chunkId, d.best?.similarity, d.nextNodeId]),
    );
  const distances = new Uint16Array(tree.chunks.length);
  const histogram = new Int32Array(index.codeBits + 1);
  const ranks: number[] = [];
  const withinK = Object.fromEntries(K_VALUES.map((k) => [String(k), 0]));
  const signTimes: number[] = [];
  const exactTimes: number[] = [];
  const signCpu: number[] = [];
  const exactCpu: number[] = [];
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const used = process.cpuUsage(since);
    return (used.user + used.system) / 1000;
  };
  let identical = 0;
  for (const text of texts) {
    let begin = performance.now();
    let cpu = process.cpuUsage();
    const a = await routeText(signs, text);
    signTimes.push(performance.now() - begin);
    signCpu.push(cpuMs(cpu));
    begin = performance.now();
    cpu = process.cpuUsage();
    const b = await routeText(exact, text);
    exactTimes.push(performance.now() - begin);
    exactCpu.push(cpuMs(cpu));
    if (key(a) === key(b)) identical++;
    begin = performance.now();
    cpu = process.cpuUsage();
    rowsRead = 0;
    const c = await routeText(fromFile, text);
    fileTimes.push(performance.now() - begin);
    fileCpu.push(cpuMs(cpu));
    fileRows.push(rowsRead);
    if (key(c) === key(b)) fileIdentical++;
    if (key(c) === key(a)) fileIdenticalToMemory++;
    // Rank of each exact best chunk by Hamming distance among the chunks of the node's range.
    index.hammingDistances(Float32Array.from(embedder.vector(text)), distances, histogram);
    let worst = 0;
    for (const decision of b.decisions) {
      if (!decision.best) continue;
      const node = tree.node(decision.nodeId);
      const position = index.positionOf(decision.best.chunkId)!;
      const own = distances[position]!;
      let rank = 1;
      for (let i = node.ownChunkEnd; i < node.chunkEnd; i++)
        if (distances[i]! < own || (distances[i] === own && i < position)) rank++;
      ranks.push(rank);
      worst = Math.max(worst, rank);
    }
    for (const k of K_VALUES) if (worst <= k) withinK[String(k)]!++;
  }
  ranks.sort((x, y) => x - y);
  const at = (q: number) => ranks[Math.min(ranks.length - 1, Math.floor(q * ranks.length))] ?? 0;
  return {
    data: args.data === 'clinc150' ? 'CLINC150 val + oos_val, USE-lite 512-d' : 'synthetic, 384-d',
    chunks: tree.chunks.length,
    turns: texts.length,
    identical,
    hops: ranks.length,
    rank: { median: at(0.5), p999: at(0.999), max: ranks[ranks.length - 1] ?? 0 },
    withinK,
    signStep: summarize(signTimes).median,
    exactStep: summarize(exactTimes).median,
    signCpu: summarize(signCpu).median,
    exactCpu: summarize(exactCpu).median,
    file: {
      identical: fileIdentical,
      identicalToMemory: fileIdenticalToMemory,
      step: summarize(fileTimes).median,
      cpu: summarize(fileCpu).median,
      rowsRead: { median: summarize(fileRows).median, max: Math.max(...fileRows) },
    },
  };
}

/** The CLINC150 tree and its validation messages, embedded with USE-lite (cached in bench/.cache/). */
async function clincSet(quick: boolean) {
  const data = loadClinc150(CLINC150_DIR);
  const tree: Tree = clincTree(data, { threshold: null });
  const messages = [...data.val, ...data.oosVal].map(([text]) => text);
  const texts = quick ? messages.filter((_, i) => i % 10 === 0) : messages;
  const all = [...new Set([...data.train.map(([text]) => text), ...messages])];
  const vectors = await useVectors(all);
  return {
    tree,
    embedder: new PrecomputedEmbedder({ dimensions: 512, vectors, id: 'use-lite-cached' }),
    texts,
  };
}

async function useVectors(texts: string[]): Promise<Map<string, Float32Array>> {
  const namesFile = `${CACHE}clinc-use.json`;
  const vectorsFile = `${CACHE}clinc-use.f32`;
  let names: string[] = existsSync(namesFile) ? JSON.parse(readFileSync(namesFile, 'utf8')) : [];
  const known = new Set(names);
  if (!texts.every((text) => known.has(text))) {
    const { UseEmbedder } = await import('../packages/embedder-use/src/index.js');
    const use = new UseEmbedder({ batchSize: 256 });
    const out = new Float32Array(texts.length * 512);
    for (let start = 0; start < texts.length; start += 1000) {
      const batch = await use.embed(texts.slice(start, start + 1000));
      batch.forEach((row, i) => {
        out.set(row, (start + i) * 512);
      });
    }
    mkdirSync(CACHE, { recursive: true });
    writeFileSync(namesFile, JSON.stringify(texts));
    writeFileSync(vectorsFile, out);
    names = texts;
  }
  const buffer = readFileSync(vectorsFile);
  const all = new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4);
  return new Map(names.map((name, i) => [name, all.subarray(i * 512, (i + 1) * 512)]));
}

/** The exploration benchmark's synthetic tree (100 children per routing node, 10 chunks per leaf). */
function syntheticSet(chunks: number, quick: boolean, turns?: number) {
  const routing = routingTree({
    name: `agreement-${chunks}`,
    levels: chunks >= 1_000_000 ? [10, 100] : [100],
    leaves: chunks / 10,
    chunksPerLeaf: 10,
    dimensions: DIMENSIONS,
    seed: 11,
    vectors: 'generated',
    // At a million chunks each exact route reads 1.5 GB: 1,000 turns (still enough to see 99.9%).
    messages: turns ?? (quick ? 200 : chunks >= 1_000_000 ? 1000 : 2000),
  });
  return {
    tree: routing.tree,
    embedder: routing.embedder,
    texts: routing.messages.map((message) => message.text),
  };
}

function report(rows: AgreementRow[], calibrate: boolean): Section {
  const goals: Goal[] = rows.flatMap((row) => [
    {
      benchmark: '3b. sign-bit scan agreement',
      goal: `decisions identical to exact float32 on ≥ ${GOAL * 100}% of turns (${row.data}, ${row.chunks.toLocaleString('en')} chunks)`,
      measured: `${row.identical} / ${row.turns} (${((100 * row.identical) / row.turns).toFixed(2)}%)`,
      met: row.identical / row.turns >= GOAL,
    },
    {
      benchmark: '3b. sign-bit scan agreement',
      goal: `the same with the float32 rows in the packed index file (${row.data}, ${row.chunks.toLocaleString('en')} chunks)`,
      measured: `${row.file.identical} / ${row.turns} (${((100 * row.file.identical) / row.turns).toFixed(2)}%); identical to the in-memory sign-bit scan on ${row.file.identicalToMemory} / ${row.turns}`,
      met: row.file.identical / row.turns >= GOAL,
    },
  ]);
  const markdown = [
    `Each message is routed twice on the same runtime (same index, same calibrated thresholds): with the sign-bit scan (\`exploreScan: 'sign-bits'\`: Hamming distance of one sign bit per dimension to every chunk, then the nearest ${SIGN_CANDIDATES} of each hop's range rescored in float32) and with the exact float32 scan. A turn agrees when every explore decision (action, best chunk, its similarity, next node) is identical. "Rank" is the position, by Hamming distance within the hop's range, of the chunk the exact scan chose: the candidates the rescoring needs for that hop.`,
    '',
    table(
      [
        'data',
        'chunks',
        'turns identical',
        'goal',
        'rank of the exact best (median / 99.9% / max)',
        ...K_VALUES.map((k) => `turns within ${k}`),
        'route, sign bits / exact: median wall',
        'median CPU',
      ],
      rows.map((row) => [
        row.data,
        row.chunks.toLocaleString('en'),
        `${row.identical} / ${row.turns}`,
        verdict(row.identical / row.turns >= GOAL),
        `${row.rank.median} / ${row.rank.p999} / ${row.rank.max}`,
        ...K_VALUES.map((k) => String(row.withinK[String(k)])),
        `${ms(row.signStep)} / ${ms(row.exactStep)}`,
        `${ms(row.signCpu)} / ${ms(row.exactCpu)}`,
      ]),
    ),
    '',
    `The same sign-bit scan on the index read back from its packed index file, the float32 rows left in the file: each hop's ${SIGN_CANDIDATES} candidates are scored on their int8 rows with an error bound, and only those that can still be the best are read from the file and rescored in float32 (docs/architecture.md, "Packed index files").`,
    '',
    table(
      [
        'data',
        'chunks',
        'turns identical to exact',
        'identical to the in-memory sign-bit scan',
        'float32 rows read per route (median / max)',
        'route median wall / CPU',
        'CPU ÷ in-memory sign bits',
      ],
      rows.map((row) => [
        row.data,
        row.chunks.toLocaleString('en'),
        `${row.file.identical} / ${row.turns}`,
        `${row.file.identicalToMemory} / ${row.turns}`,
        `${row.file.rowsRead.median} / ${row.file.rowsRead.max}`,
        `${ms(row.file.step)} / ${ms(row.file.cpu)}`,
        `${(row.file.cpu / row.signCpu).toFixed(2)}×`,
      ]),
    ),
    ...(calibrate
      ? []
      : [
          '',
          '- `--no-calibration`: the synthetic trees were routed with the default threshold (no calibration at load); CLINC150 is calibrated as always.',
        ]),
  ].join('\n');
  return {
    id: 'explore-agreement',
    title: '3b. Sign-bit scan: decisions against exact float32',
    markdown,
    data: { rows },
    goals,
  };
}
