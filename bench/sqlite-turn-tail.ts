import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import type { SessionStore } from '../packages/core/src/adapter/index.js';
import { TreeAgent } from '../packages/core/src/index.js';
import { openSqlite } from '../packages/sqlite/src/index.js';
import { ms, summarize } from './lib/stats.js';
import { routingTree } from './lib/trees.js';
import { newTextEachTurn } from './lib/vectors.js';

/**
 * Where the slow SQLite turns go (issue #18, goal 4): the engine-overhead benchmark's Tree Agent
 * turn on `openSqlite` (WAL, synchronous NORMAL), timed one by one, each split into its store calls
 * (lock, load, history, commit, the lock's release) and the rest (the engine's own work), with the
 * garbage collections that fell inside it (`perf_hooks`) and the background checkpoints reported
 * during it. Prints the median turn and the turns above the p99, attributed.
 *
 *   npx tsx bench/sqlite-turn-tail.ts [--nodes=10|200|2000] [--turns=20000] [--new] [--memory]
 *     [--dir=/dev/shm] [--checkpoint=background|inline] [--no-facts] [--block=200 --gap-ms=300]
 *
 * `--new`: every message a text never seen (as the engine-overhead "every message new" rows);
 * `--memory`: `InMemorySessionStore` instead of SQLite (the same turn without the store);
 * `--dir`: where the file goes (default the system's temporary directory; `/dev/shm` takes the disk
 * out of the turn); `--checkpoint`: `openSqlite`'s checkpoint mode (default `background`);
 * `--no-facts`: `turnFacts: false` (the commit without the turn's analytics row); `--block`, `--gap-ms`:
 * turns in blocks with the process idle between them (as in the engine-overhead benchmark, where the
 * other frameworks' blocks run in between); by default every turn follows the last at once.
 */

/** The engine-overhead benchmark's trees. */
const SIZES: Record<number, { levels: number[]; leaves: number; chunksPerLeaf: number }> = {
  10: { levels: [], leaves: 8, chunksPerLeaf: 20 },
  200: { levels: [9], leaves: 189, chunksPerLeaf: 10 },
  2000: { levels: [10, 10], leaves: 1888, chunksPerLeaf: 5 },
};
const TURNS_PER_SESSION = 10;
/** Untimed turns at the start of each block (`--block`), as in the engine-overhead benchmark. */
const BLOCK_WARMUP = 20;
const PHASES = ['lock', 'load', 'history', 'commit', 'release'] as const;
type Phase = (typeof PHASES)[number];

interface TurnSample {
  wall: number;
  phases: Record<Phase, number>;
  gc: number;
  gcKinds: string[];
  checkpoints: number;
}

const argument = (name: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1];
const nodes = Number(argument('nodes') ?? 10);
const turns = Number(argument('turns') ?? 20_000);
const fresh = process.argv.includes('--new');
const inMemory = process.argv.includes('--memory');
const noFacts = process.argv.includes('--no-facts');
const block = Number(argument('block') ?? 0);
const gapMs = Number(argument('gap-ms') ?? 300);
const parent = argument('dir') ?? tmpdir();
const checkpoint = (argument('checkpoint') ?? 'background') as 'background' | 'inline';
const size = SIZES[nodes];
if (!size) throw new Error(`--nodes must be 10, 200 or 2000; got ${nodes}`);

const routing = routingTree({ name: `overhead-${nodes}`, dimensions: 384, seed: nodes, ...size });
if (fresh) {
  routing.embedder = newTextEachTurn(routing.embedder);
}
const dir = mkdtempSync(join(parent, 'turn-tail-'));
const sqlite = inMemory ? null : openSqlite(dir, { synchronous: 'NORMAL', checkpoint: { mode: checkpoint } });
let current: TurnSample | null = null;
let checkpointsSeen = 0;
if (sqlite)
  sqlite.database.onCheckpoint = () => {
    checkpointsSeen++;
  };

/** The store with each call timed into the current turn's sample. */
function timed(store: SessionStore): SessionStore {
  const time = async <T>(phase: Phase, call: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await call();
    } finally {
      if (current) current.phases[phase] += performance.now() - started;
    }
  };
  return new Proxy(store, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      if (key === 'lock')
        return async (...args: unknown[]) => {
          const release = (await time('lock', () => value.apply(target, args))) as () => Promise<void>;
          return () => time('release', () => release());
        };
      if (PHASES.includes(key as Phase))
        return (...args: unknown[]) => time(key as Phase, () => value.apply(target, args));
      return value.bind(target);
    },
  });
}

const baseStore = sqlite?.sessionStore;
const agent = new TreeAgent({
  tree: routing.tree,
  embedder: routing.embedder,
  ...(noFacts ? { turnFacts: false } : {}),
  ...(sqlite && baseStore
    ? {
        sessionStore: timed(baseStore),
        vectorStore: sqlite.vectorStore,
        embeddingCache: sqlite.embeddingCache,
      }
    : {}),
});
await agent.ready();

const gcEntries: { start: number; duration: number; kind: string }[] = [];
const GC_KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
    gcEntries.push({
      start: entry.startTime,
      duration: entry.duration,
      kind: GC_KINDS[kind] ?? String(kind),
    });
  }
});
observer.observe({ entryTypes: ['gc'] });

const { messages } = routing;
const send = (prefix: string, i: number) =>
  agent.send(
    `${prefix}-${Math.floor(i / TURNS_PER_SESSION)}`,
    `${messages[i % messages.length]!.text}${fresh ? `#${prefix}-${i}` : ''}`,
  );
for (let i = 0; i < 2000; i++) await send('warmup', i);

const samples: TurnSample[] = [];
const intervals: [number, number][] = [];
const loadStart = loadavg()[0]!;
const cpuStart = process.cpuUsage();
const wallStart = performance.now();
let idle = 0;
for (let i = 0; i < turns; i++) {
  if (block > 0 && i > 0 && i % block === 0) {
    const pause = performance.now();
    await new Promise((resolve) => setTimeout(resolve, gapMs));
    // As the engine-overhead benchmark, each block starts with untimed turns.
    for (let w = 0; w < BLOCK_WARMUP; w++) await send('block-warmup', i * BLOCK_WARMUP + w);
    idle += performance.now() - pause;
  }
  current = {
    wall: 0,
    phases: { lock: 0, load: 0, history: 0, commit: 0, release: 0 },
    gc: 0,
    gcKinds: [],
    checkpoints: 0,
  };
  const before = checkpointsSeen;
  const started = performance.now();
  await send('run', i);
  const ended = performance.now();
  current.wall = ended - started;
  current.checkpoints = checkpointsSeen - before;
  intervals.push([started, ended]);
  samples.push(current);
}
const wallAll = performance.now() - wallStart - idle;
const cpu = process.cpuUsage(cpuStart);
current = null;
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();

// Garbage collections inside each turn (entries and turns are both in time order).
let g = 0;
for (let k = 0; k < samples.length; k++) {
  const [from, to] = intervals[k]!;
  while (g < gcEntries.length && gcEntries[g]!.start + gcEntries[g]!.duration < from) g++;
  for (let h = g; h < gcEntries.length && gcEntries[h]!.start < to; h++) {
    const entry = gcEntries[h]!;
    const overlap = Math.min(to, entry.start + entry.duration) - Math.max(from, entry.start);
    if (overlap > 0) {
      samples[k]!.gc += overlap;
      samples[k]!.gcKinds.push(entry.kind);
    }
  }
}

const walls = summarize(samples.map((sample) => sample.wall));
const cut = walls.p99;
const slow = samples.filter((sample) => sample.wall >= cut);
const typical = samples.filter((sample) => sample.wall < cut);
const mean = (list: TurnSample[], pick: (sample: TurnSample) => number) =>
  list.reduce((sum, sample) => sum + pick(sample), 0) / Math.max(1, list.length);
const other = (sample: TurnSample) =>
  sample.wall - PHASES.reduce((sum, phase) => sum + sample.phases[phase], 0);
const medianOf = (list: TurnSample[], pick: (sample: TurnSample) => number) =>
  summarize(list.map(pick)).median;

console.log(
  `${nodes} nodes, ${inMemory ? 'in memory' : `SQLite in ${parent}, checkpoint ${checkpoint}`}${fresh ? ', every message new' : ''}${noFacts ? ', no turn facts' : ''}${block > 0 ? `, blocks of ${block} turns ${gapMs} ms apart` : ''}: ${turns} turns, load average ${loadStart.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}; CPU ${((cpu.user + cpu.system) / 1000 / turns).toFixed(3)} ms per turn (all threads), wall ${(wallAll / turns).toFixed(3)} ms per turn`,
);
console.log(`turn wall: median ${ms(walls.median)}, p99 ${ms(walls.p99)}, max ${ms(walls.max)}`);
console.log(`GCs during the timed turns: ${gcEntries.filter((entry) => entry.start >= wallStart).length}`);
const rows: [string, (sample: TurnSample) => number][] = [
  ...PHASES.map(
    (phase) => [phase, (sample: TurnSample) => sample.phases[phase]] as [string, (s: TurnSample) => number],
  ),
  ['engine (the rest)', other],
  ['  of which GC', (sample) => sample.gc],
];
console.log(`\n| part | median turn (median) | turns < p99 (mean) | turns ≥ p99 (mean) |`);
console.log('| --- | --- | --- | --- |');
for (const [name, pick] of rows)
  console.log(
    `| ${name} | ${ms(medianOf(samples, pick))} | ${ms(mean(typical, pick))} | ${ms(mean(slow, pick))} |`,
  );
const withGc = slow.filter((sample) => sample.gc > 0).length;
const withCheckpoint = slow.filter((sample) => sample.checkpoints > 0).length;
console.log(
  `\nturns ≥ p99: ${slow.length}; with a GC inside: ${withGc} (${((typical.filter((s) => s.gc > 0).length / typical.length) * 100).toFixed(1)}% of the others); with a checkpoint report: ${withCheckpoint}`,
);
const kinds = new Map<string, number>();
for (const sample of slow) for (const kind of sample.gcKinds) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
console.log(
  `GC kinds inside slow turns: ${[...kinds].map(([kind, count]) => `${kind} ${count}`).join(', ') || 'none'}`,
);
// Which part carries the excess of each slow turn over the median turn.
const blame = new Map<string, number>();
const medians = Object.fromEntries(rows.map(([name, pick]) => [name, medianOf(samples, pick)]));
for (const sample of slow) {
  let worst = '';
  let excess = -Infinity;
  for (const [name, pick] of rows.slice(0, -1)) {
    const value = name === 'engine (the rest)' ? pick(sample) - sample.gc : pick(sample);
    const over = value - medians[name]!;
    if (over > excess) {
      excess = over;
      worst = name;
    }
  }
  if (sample.gc > excess) worst = 'GC';
  blame.set(worst, (blame.get(worst) ?? 0) + 1);
}
console.log(
  `largest excess of each slow turn: ${[...blame].map(([name, count]) => `${name} ${count}`).join(', ')}`,
);
if (sqlite) {
  const wal = statSync(`${sqlite.database.file}-wal`, { throwIfNoEntry: false });
  console.log(
    `WAL file at the end: ${((wal?.size ?? 0) / 2 ** 20).toFixed(1)} MiB (its high-water mark: SQLite reuses it from the start)`,
  );
}
await sqlite?.close();
rmSync(dir, { recursive: true, force: true });
