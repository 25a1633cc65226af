import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { ChunkIndex, SIGN_SCAN_FROM } from '../packages/core/src/explore/chunk-index.js';
import { SIGN_CANDIDATES } from '../packages/core/src/explore/memory-chunk-search.js';
import { SignScratch, signCandidates } from '../packages/core/src/explore/sign-candidates.js';
import { InMemorySessionStore, TreeAgent } from '../packages/core/src/index.js';
import { openSqlite } from '../packages/sqlite/src/index.js';
import { inChild, startWorker, type Worker } from './lib/child.js';
import { type GraphShape, loadPeer, peerGraph, sqliteSaver } from './lib/langgraph.js';
import { type BenchContext, type Goal, type Section, table, verdict } from './lib/report.js';
import { consume, consumed, measure, ms, type Stats, summarize, times } from './lib/stats.js';
import { type RoutingTree, routingTree, scanBestRow } from './lib/trees.js';
import { newTextEachTurn } from './lib/vectors.js';

/**
 * Benchmark 1 — engine overhead per turn, no model in the loop. A routing tree of 10, 200 or 2,000
 * nodes answers with static emit leaves; LangGraph runs START → router → leaf → END over the same
 * chunk vectors (its router scans every chunk). Both embed through the same precomputed embedder.
 * In memory against in memory, SQLite against SQLite (WAL, synchronous NORMAL on both sides).
 */

const SIZES = [
  { nodes: 10, levels: [] as number[], leaves: 8, chunksPerLeaf: 20 },
  { nodes: 200, levels: [9], leaves: 189, chunksPerLeaf: 10 },
  { nodes: 2000, levels: [10, 10], leaves: 1888, chunksPerLeaf: 5 },
];
const DIMENSIONS = 384;
/** Turns per session/thread: every measured turn has a short, realistic history behind it. */
const TURNS_PER_SESSION = 10;
/** Ratio of Tree Agent's per-turn time to LangGraph's that the issue sets as the goal. */
const GOAL_RATIO = 0.1;
/** Untimed turns at the start of each block, after the process sat idle while the others ran. */
const BLOCK_WARMUP = 20;

/**
 * `sqlite-new`: SQLite, every message a text never seen before (so Tree Agent embeds it, as in a
 * real conversation; LangGraph embeds every message anyway).
 */
type Persistence = 'memory' | 'sqlite' | 'sqlite-new';
const PERSISTENCE_LABEL: Record<Persistence, string> = {
  memory: 'in memory',
  sqlite: 'SQLite',
  'sqlite-new': 'SQLite, every message new',
};
type RunnerKind = 'tree-agent' | GraphShape;
const SHAPES: GraphShape[] = ['node-per-leaf', 'one-leaf-node'];
const RUNNERS: RunnerKind[] = ['tree-agent', ...SHAPES];

type Size = (typeof SIZES)[number];

interface Settings {
  taSamples: number;
  peerSamples: number;
  /** Blocks per framework, alternating between the frameworks' processes. */
  rounds: number;
  /** Messages checked for agreement (same leaf in both frameworks). */
  checks: number;
  warmup: { minTurns: number; minMs: number; maxTurns: number };
}

interface Row {
  nodes: number;
  chunks: number;
  leaves: number;
  persistence: Persistence;
  treeAgent: Stats;
  langGraph: Record<GraphShape, Stats>;
  /** Tree Agent ÷ LangGraph, per LangGraph shape. */
  ratios: Record<GraphShape, { median: number; p99: number }>;
  /** Messages on which both frameworks picked the same leaf, of those checked. */
  agreement: { same: number; checked: number };
  /** Median of each block of each runner, in round order, to see the spread over time. */
  perRound: Record<RunnerKind, number[]>;
  /** One-minute load average before and after this configuration. */
  load: { start: number; end: number };
}

interface SharedWork {
  /** What the timed calls computed (kept so that they cannot be optimised away). */
  sink?: number;
  nodes: number;
  chunks: number;
  /** The agent's scan on this tree (`exploreScan: 'auto'`). */
  scan: 'float32' | 'sign-bits';
  peerScan: Stats;
  similarityPass: Stats;
}

export async function engineOverhead(context: BenchContext): Promise<Section> {
  const { quick, log, tmp } = context;
  const settings: Settings = quick
    ? {
        taSamples: 40,
        peerSamples: 20,
        rounds: 2,
        checks: 8,
        warmup: { minTurns: 20, minMs: 0, maxTurns: 20 },
      }
    : {
        taSamples: 2000,
        peerSamples: 600,
        rounds: 10,
        checks: 16,
        warmup: { minTurns: 300, minMs: 1500, maxTurns: 20_000 },
      };
  const peer = await loadPeer(log);
  const sizes = quick
    ? SIZES.slice(0, 1)
    : SIZES.filter((size) => !context.nodes || context.nodes.includes(size.nodes));
  const rows: Row[] = [];
  const scans: SharedWork[] = [];
  for (const size of sizes) {
    log(`  ${size.nodes} nodes: shared work…`);
    scans.push(inChild<SharedWork>(import.meta.url, 'sharedWorkChild', { size, quick }));
    for (const persistence of ['memory', 'sqlite', 'sqlite-new'] as const) {
      const loadStart = loadavg()[0]!;
      const samples = new Map<RunnerKind, number[]>(RUNNERS.map((runner) => [runner, []]));
      const perRound = Object.fromEntries(
        RUNNERS.map((runner) => [runner, [] as number[]]),
      ) as Row['perRound'];
      const replies = new Map<RunnerKind, string[]>();
      // One process per framework, all alive at once but run one at a time, in alternating blocks.
      log(`  ${size.nodes} nodes, ${persistence}: starting and warming up the three processes…`);
      const workers = new Map<RunnerKind, Worker>();
      try {
        for (const runner of RUNNERS) {
          const worker = await startWorker(import.meta.url, 'turnsWorker', {
            size,
            persistence,
            runner,
            dir: join(tmp, `overhead-${size.nodes}-${persistence}-${runner}`),
          } satisfies WorkerArgs);
          workers.set(runner, worker);
          replies.set(runner, await worker.call<string[]>('checks', settings.checks));
          await worker.call('warmup', settings.warmup);
        }
        log(`  ${size.nodes} nodes, ${persistence}: ${settings.rounds} rounds…`);
        for (let round = 0; round < settings.rounds; round++) {
          // Rotate the order, so drift and noise hit every framework alike.
          const order = RUNNERS.map((_, k) => RUNNERS[(k + round) % RUNNERS.length]!);
          for (const runner of order) {
            const count = Math.ceil(
              (runner === 'tree-agent' ? settings.taSamples : settings.peerSamples) / settings.rounds,
            );
            const block = await workers.get(runner)!.call<number[]>('block', count);
            samples.get(runner)!.push(...block);
            perRound[runner].push(summarize(block).median);
          }
        }
      } finally {
        for (const worker of workers.values()) await worker.close();
      }
      const reference = replies.get('tree-agent')!;
      const same = reference.filter((reply, k) =>
        SHAPES.every((shape) => replies.get(shape)![k] === reply),
      ).length;
      const treeAgent = summarize(samples.get('tree-agent')!);
      const langGraph = Object.fromEntries(
        SHAPES.map((shape) => [shape, summarize(samples.get(shape)!)]),
      ) as Record<GraphShape, Stats>;
      const ratiosOf = (ours: Stats, theirs: Record<GraphShape, Stats>) =>
        Object.fromEntries(
          SHAPES.map((shape) => [
            shape,
            { median: ours.median / theirs[shape].median, p99: ours.p99 / theirs[shape].p99 },
          ]),
        ) as Row['ratios'];
      const ratios = ratiosOf(treeAgent, langGraph);
      rows.push({
        nodes: size.nodes,
        chunks: size.leaves * size.chunksPerLeaf,
        leaves: size.leaves,
        persistence,
        treeAgent,
        langGraph,
        ratios,
        agreement: { same, checked: reference.length },
        perRound,
        load: { start: loadStart, end: loadavg()[0]! },
      });
    }
  }
  return report(rows, scans, settings, peer.versions, quick);
}

function treeOf(size: Size): RoutingTree {
  return routingTree({ name: `overhead-${size.nodes}`, dimensions: DIMENSIONS, seed: size.nodes, ...size });
}

interface WorkerArgs {
  size: Size;
  persistence: Persistence;
  runner: RunnerKind;
  dir: string;
}

/** In a fresh process: one framework and one persistence, timed on the parent's request. */
export async function turnsWorker(args: WorkerArgs) {
  const routing = treeOf(args.size);
  const fresh = args.persistence === 'sqlite-new';
  if (fresh) {
    routing.embedder = newTextEachTurn(routing.embedder);
  }
  let turn: (sessionId: string, text: string) => Promise<string>;
  let close = async () => {};
  if (args.runner === 'tree-agent') {
    const sqlite = args.persistence !== 'memory' ? openSqlite(args.dir, { synchronous: 'NORMAL' }) : null;
    const agent = new TreeAgent({
      tree: routing.tree,
      embedder: routing.embedder,
      ...(sqlite
        ? {
            sessionStore: sqlite.sessionStore,
            vectorStore: sqlite.vectorStore,
            embeddingCache: sqlite.embeddingCache,
          }
        : { sessionStore: new InMemorySessionStore() }),
    });
    await agent.ready();
    turn = async (sessionId, text) => (await agent.send(sessionId, text)).messages[0]?.content ?? '';
    if (sqlite) close = () => sqlite.close();
  } else {
    const peer = await loadPeer(() => {});
    let checkpointer: unknown;
    if (args.persistence !== 'memory') {
      mkdirSync(args.dir, { recursive: true });
      const { saver, db } = sqliteSaver(peer, join(args.dir, 'langgraph.db'), 'NORMAL');
      checkpointer = saver;
      close = async () => db.close();
    } else checkpointer = new peer.langgraph.MemorySaver();
    const graph = peerGraph(peer, routing, { shape: args.runner, style: 'plain', checkpointer });
    turn = (threadId, text) => graph.turn(threadId, text);
  }
  const { messages } = routing;
  const runner = (prefix: string) => (i: number) =>
    turn(
      `${prefix}-${Math.floor(i / TURNS_PER_SESSION)}`,
      `${messages[i % messages.length]!.text}${fresh ? `#${prefix}-${i}` : ''}`,
    );
  const warm = runner('warmup');
  const measured = runner('run');
  let next = 0;
  let warmed = 0;
  return {
    /** Answers to the first `count` messages, each on a fresh session. */
    async checks(count: number): Promise<string[]> {
      const replies: string[] = [];
      for (let k = 0; k < count; k++)
        replies.push(await turn(`check-${k}`, messages[k % messages.length]!.text));
      return replies;
    },
    async warmup({ minTurns, minMs, maxTurns }: Settings['warmup']): Promise<number> {
      const started = performance.now();
      let i = 0;
      while (i < maxTurns && (i < minTurns || performance.now() - started < minMs)) await warm(warmed + i++);
      warmed += i;
      return i;
    },
    /**
     * `count` timed turns after `BLOCK_WARMUP` untimed ones (the process was idle while the others
     * ran). No forced collection: a full GC shrinks V8's young generation, and the block would then
     * time the frequent scavenges that follow — a state a serving process is never in.
     */
    async block(count: number): Promise<number[]> {
      for (let i = 0; i < BLOCK_WARMUP; i++) await warm(warmed++);
      const offset = next;
      next += count;
      return measure((k) => measured(offset + k), { warmup: 0, samples: count });
    },
    close,
  };
}

/** In a fresh process: the work both routers do inside a turn, timed alone. */
export async function sharedWorkChild({ size, quick }: { size: Size; quick: boolean }): Promise<SharedWork> {
  const routing = treeOf(size);
  const index = await ChunkIndex.build(routing.tree, routing.embedder);
  const { messages, matrix, dimensions } = routing;
  const { warmup, samples } = quick ? { warmup: 5, samples: 20 } : { warmup: 200, samples: 500 };
  const scan: number[] = [];
  const pass: number[] = [];
  // What the agent's pass per direction is on this index: float32 similarities to every chunk, or
  // (from SIGN_SCAN_FROM chunks on) the sign-bit pass and the float32 rescoring of the first hop's
  // nearest SIGN_CANDIDATES, whose range is the whole tree.
  const count = routing.chunkCount;
  const scratch = new SignScratch(index.codeBits);
  const histogram = new Int32Array(index.codeBits + 1);
  const scores = new Float32Array(count);
  const similarityPass = (vector: Float32Array): void => {
    if (!index.signBits) {
      consume(index.similarities(vector));
      return;
    }
    const { distances } = index.signPass(vector, histogram);
    const length = signCandidates(
      { distances, histogram },
      null,
      0,
      count,
      SIGN_CANDIDATES,
      scratch,
      (cut, positions) => index.positionsWithin(distances, 0, count, cut, positions),
    );
    index.similaritiesAt(vector, scratch.positions, length, scores);
    consume(scores);
  };
  // Alternated in blocks of BLOCK calls, so both see the same machine and neither finds its data
  // evicted from the caches by the other on every call (each runs alone in its turns).
  const BLOCK = quick ? 5 : 50;
  for (let i = 0; i < warmup + samples; i += BLOCK) {
    for (let k = i; k < i + BLOCK; k++) {
      const vector = messages[k % messages.length]!.vector;
      const started = performance.now();
      consume(scanBestRow(matrix, dimensions, vector));
      if (k >= warmup) scan.push(performance.now() - started);
    }
    for (let k = i; k < i + BLOCK; k++) {
      const vector = messages[k % messages.length]!.vector;
      const started = performance.now();
      similarityPass(vector);
      if (k >= warmup) pass.push(performance.now() - started);
    }
  }
  return {
    nodes: size.nodes,
    chunks: count,
    scan: index.signBits ? 'sign-bits' : 'float32',
    peerScan: summarize(scan),
    similarityPass: summarize(pass),
    sink: consumed(),
  };
}

function report(
  rows: Row[],
  scans: SharedWork[],
  settings: Settings,
  versions: Record<string, string>,
  quick: boolean,
): Section {
  const goals: Goal[] = [];
  const lines: string[] = [];
  const met = (ratio: { median: number; p99: number }) =>
    ratio.median <= GOAL_RATIO && ratio.p99 <= GOAL_RATIO;
  for (const row of rows) {
    // The verdict uses the faster LangGraph shape: the comparison least favourable to Tree Agent.
    const fastest = SHAPES.reduce((a, b) => (row.langGraph[a].median <= row.langGraph[b].median ? a : b));
    const ratio = row.ratios[fastest];
    goals.push({
      benchmark: '1. engine overhead',
      goal: `${row.nodes} nodes, ${PERSISTENCE_LABEL[row.persistence]}: Tree Agent ≤ 1/10 of LangGraph (median and p99)`,
      measured: `median ${times(ratio.median)}, p99 ${times(ratio.p99)} (vs LangGraph ${fastest}); vs node-per-leaf ${times(row.ratios['node-per-leaf'].median)} / ${times(row.ratios['node-per-leaf'].p99)}; load average ${row.load.start.toFixed(1)} → ${row.load.end.toFixed(1)}`,
      met: quick ? null : met(ratio),
    });
  }
  lines.push(
    `Per-turn wall time of \`agent.send\` against LangGraph \`graph.invoke\`, no model: ${settings.taSamples} Tree Agent turns and ${settings.peerSamples} LangGraph turns per configuration over sessions/threads of ${TURNS_PER_SESSION} turns. Each framework runs in its own fresh process (three per configuration, alive together but run one at a time): warm-up of at least ${settings.warmup.minTurns} turns and ${settings.warmup.minMs / 1000} s each, then the timed turns in ${settings.rounds} rounds of one block per framework (rotating order; each block starts with ${BLOCK_WARMUP} untimed turns, as the process sat idle while the others ran; no forced garbage collection, which would shrink V8's young generation and time a burst of scavenges no serving process sees), so that the machine's noise falls on all of them alike. Vectors: ${DIMENSIONS} dimensions, precomputed, looked up by text by the same embedder for both. LangGraph: plain \`{ role, content }\` messages with a concat reducer; \`node-per-leaf\` has one graph node per tree leaf (router → conditional edge), \`one-leaf-node\` one node answering for every leaf. Tree Agent: \`InMemorySessionStore\`, or \`openSqlite\` (session store, vector store and embedding cache in one file, WAL, synchronous NORMAL); LangGraph: \`MemorySaver\`, or \`SqliteSaver\` on its own file with WAL and synchronous NORMAL. "SQLite, every message new": every message is a text neither framework saw before (the vector of a known message under a new text), so Tree Agent embeds it, as in a real conversation (since issue #18 the message's vector stays in a bounded in-memory cache, \`messageEmbeddings: 'memory'\`, the default: the turn writes nothing for it; \`bench/new-messages-sqlite.ts\` compares writing it to the SQLite embedding cache in the turn and off the turn's path). Peer: ${Object.entries(
      versions,
    )
      .map(([name, version]) => `${name}@${version}`)
      .join(', ')}.`,
    '',
    table(
      [
        'tree',
        'persistence',
        'Tree Agent median / p99',
        'LangGraph node-per-leaf median / p99',
        'LangGraph one-leaf-node median / p99',
        'ratio vs node-per-leaf (median / p99)',
        'ratio vs one-leaf-node (median / p99)',
        'goal ≤ 0.1×',
        'same leaf',
        'load avg',
      ],
      rows.map((row) => {
        const fastest = SHAPES.reduce((a, b) => (row.langGraph[a].median <= row.langGraph[b].median ? a : b));
        return [
          `${row.nodes} nodes (${row.leaves} leaves × ${row.chunks / row.leaves} chunks)`,
          PERSISTENCE_LABEL[row.persistence],
          `${ms(row.treeAgent.median)} / ${ms(row.treeAgent.p99)}`,
          `${ms(row.langGraph['node-per-leaf'].median)} / ${ms(row.langGraph['node-per-leaf'].p99)}`,
          `${ms(row.langGraph['one-leaf-node'].median)} / ${ms(row.langGraph['one-leaf-node'].p99)}`,
          `${times(row.ratios['node-per-leaf'].median)} / ${times(row.ratios['node-per-leaf'].p99)}`,
          `${times(row.ratios['one-leaf-node'].median)} / ${times(row.ratios['one-leaf-node'].p99)}`,
          verdict(quick ? null : met(row.ratios[fastest])),
          `${row.agreement.same}/${row.agreement.checked}`,
          `${row.load.start.toFixed(1)} → ${row.load.end.toFixed(1)}`,
        ];
      }),
    ),
    '',
    'The goal is judged against the faster LangGraph shape of each row (the comparison least favourable to Tree Agent), on the median and on the p99. “Load avg” is the machine’s one-minute load average when the configuration started and ended (this suite alone keeps it near 1–2 on 2 cores); other work on the machine lands first in the wall-clock p99 of the shortest turns, Tree Agent’s.',
    '',
    `Shared work inside a turn, timed alone (both are part of the figures above): the LangGraph router scanning every chunk (row-major, one dot product per chunk) and Tree Agent’s pass over its \`ChunkIndex\` once per direction, the one the agent runs on that tree (\`exploreScan: 'auto'\`): below ${SIGN_SCAN_FROM.toLocaleString('en')} chunks a float32 pass (row-major in WebAssembly memory, a SIMD \`f32x4\` dot product per chunk); from there on the sign-bit pass (a Hamming distance per chunk) and the float32 rescoring of the first hop's nearest ${SIGN_CANDIDATES} chunks.`,
    '',
    table(
      ['tree', 'chunks', 'LangGraph router scan median', 'Tree Agent scan', 'Tree Agent pass median'],
      scans.map((scan) => [
        `${scan.nodes} nodes`,
        scan.chunks,
        ms(scan.peerScan.median),
        scan.scan === 'sign-bits' ? `sign bits + ${SIGN_CANDIDATES} rescored` : 'float32',
        ms(scan.similarityPass.median),
      ]),
    ),
  );
  lines.push(
    '',
    'The same turns without the shared work (turn median minus the scan median of its tree; an estimate, for reading the ratios above): what each framework adds around the vector math.',
    '',
    table(
      ['tree', 'persistence', 'Tree Agent − its pass', 'LangGraph (faster shape) − router scan', 'ratio'],
      rows.map((row) => {
        const scan = scans.find((item) => item.nodes === row.nodes)!;
        const fastest = SHAPES.reduce((a, b) => (row.langGraph[a].median <= row.langGraph[b].median ? a : b));
        const ours = row.treeAgent.median - scan.similarityPass.median;
        const theirs = row.langGraph[fastest].median - scan.peerScan.median;
        // The two are timed in different processes: a difference below zero is noise.
        const small = ours <= 0;
        return [
          `${row.nodes} nodes`,
          PERSISTENCE_LABEL[row.persistence],
          small ? '≈ 0 (within noise)' : ms(ours),
          `${ms(theirs)} (${fastest})`,
          small ? '≈ 0' : times(ours / theirs),
        ];
      }),
    ),
  );
  return {
    id: 'engine-overhead',
    title: '1. Engine overhead per turn (no model)',
    markdown: lines.join('\n'),
    data: { settings, dimensions: DIMENSIONS, turnsPerSession: TURNS_PER_SESSION, rows, sharedWork: scans },
    goals,
  };
}
