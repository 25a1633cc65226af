import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { cpuUsage } from 'node:process';
import { summarize } from './lib/stats.js';

/**
 * What USE-lite (`@treeagent/embedder-use`) costs the thread that calls it — the thread that serves
 * HTTP turns — with the model on that thread (`thread: 'calling'`) and in its worker thread
 * (`thread: 'worker'`, the default):
 * - one message (a batch of 1): wall time, CPU time of the calling thread (Linux
 *   `/proc/thread-self/schedstat`, ns) and of the whole process (every thread);
 * - a load: `--texts` texts (default 2,000) embedded in batches of 16, as the fit at load embeds a
 *   tree's chunks (`new UseEmbedder({ batchSize: 16 })`, calls of 500 texts): its wall time and the
 *   calling thread's CPU; then the same load again with the event loop's longest stall
 *   (`monitorEventLoopDelay`, 1 ms resolution) and messages arriving meanwhile, each 100 ms after
 *   the previous one's answer (a user's turns during a fit), timed from arrival to vector.
 * Both modes in one process, one after the other, same texts; the load average and the longest
 * stall of the idle event loop beforehand are printed, since the machine is shared. `--modes=calling` measures one mode (the code before the worker thread
 * had only that one and ignores the option).
 *
 * npx tsx bench/use-embedder-thread.ts [--messages=200] [--texts=2000] [--modes=calling,worker] [--dist]
 */
const option = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const MESSAGES = Number(option('messages', '200'));
const TEXTS = Number(option('texts', '2000'));
const MODES = option('modes', 'calling,worker').split(',') as ('calling' | 'worker')[];
const LOAD_CALL = 500;
/** While the load runs, a message arrives this long after the previous one was answered (ms). */
const MESSAGE_PERIOD = 100;
/** How long the event loop is watched idle, before anything runs (ms). */
const IDLE_MS = 5000;
const dist = process.argv.includes('--dist');
const { UseEmbedder } = (
  dist
    ? await import('../packages/embedder-use/dist/index.js' as string)
    : await import('../packages/embedder-use/src/index.js')
) as typeof import('../packages/embedder-use/src/index.js');

/** CPU time of the calling thread so far, in ms (Linux); NaN elsewhere. */
function threadCpuMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

function processCpuMs(): number {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
}

/** Distinct English sentences, a few words each (as chunks and messages are). */
function sentences(count: number, seed: number): string[] {
  const openings = ['can you tell me', 'i want to know', 'please show me', 'what is', 'i need to check'];
  const verbs = [
    'the cost of',
    'how to change',
    'when i get',
    'where to find',
    'if i can cancel',
    'who handles',
  ];
  const objects = [
    'my order',
    'the delivery',
    'a refund',
    'my password',
    'the invoice',
    'a table for two',
    'my flight',
    'the warranty',
    'my credit card',
    'the weather tomorrow',
    'a new account',
    'the opening hours',
  ];
  const out: string[] = [];
  for (let i = 0; out.length < count; i++) {
    const n = i + seed;
    out.push(
      `${openings[n % openings.length]} ${verbs[(n >> 3) % verbs.length]} ${objects[(n >> 5) % objects.length]} number ${n}`,
    );
  }
  return out;
}

interface ModeFigures {
  message: { wallMs: number; wallP99Ms: number; threadCpuMs: number; processCpuMs: number };
  load: {
    texts: number;
    wallMs: number;
    threadCpuMs: number;
    processCpuMs: number;
    longestStallMs: number;
    stallP99Ms: number;
    messagesDuring: number;
    messageDuringMs: number;
    messageDuringP99Ms: number;
  };
}

async function measureMode(thread: 'calling' | 'worker'): Promise<ModeFigures> {
  const embedder = new UseEmbedder({ batchSize: 16, thread });
  // Load the model and warm the JIT and the backend up.
  for (const text of sentences(20, 900_000)) await embedder.embed([text]);

  const walls: number[] = [];
  const threadCpus: number[] = [];
  const processCpus: number[] = [];
  for (const text of sentences(MESSAGES, 0)) {
    const thread0 = threadCpuMs();
    const process0 = processCpuMs();
    const started = performance.now();
    await embedder.embed([text]);
    walls.push(performance.now() - started);
    threadCpus.push(threadCpuMs() - thread0);
    processCpus.push(processCpuMs() - process0);
  }

  const texts = sentences(TEXTS, 100_000);
  const embedLoad = async () => {
    for (let start = 0; start < texts.length; start += LOAD_CALL)
      await embedder.embed(texts.slice(start, start + LOAD_CALL));
  };
  // The load alone: what it costs the calling thread.
  const thread0 = threadCpuMs();
  const process0 = processCpuMs();
  const started = performance.now();
  await embedLoad();
  const wallMs = performance.now() - started;
  const loadThreadCpu = threadCpuMs() - thread0;
  const loadProcessCpu = processCpuMs() - process0;

  // The load again, with the event loop's delay sampled every 1 ms (≈ 30 ms of CPU a second, so
  // not during the CPU figures above) and messages arriving meanwhile: each one's latency is counted
  // from when it arrived, not from when a blocked event loop got to it.
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  let loading = true;
  const load = embedLoad().then(() => {
    loading = false;
  });
  const latencies: number[] = [];
  const messages = sentences(10_000, 500_000);
  for (let i = 0; loading; i++) {
    // Due MESSAGE_PERIOD ms after the previous answer (one user, no backlog); a blocked event loop
    // runs the timer late, and that wait counts.
    const arrival = performance.now() + MESSAGE_PERIOD;
    await new Promise<void>((resolve) => setTimeout(resolve, MESSAGE_PERIOD));
    if (!loading) break;
    await embedder.embed([messages[i % messages.length]!]);
    if (loading) latencies.push(performance.now() - arrival);
  }
  await load;
  histogram.disable();
  await (embedder as { close?: () => Promise<void> }).close?.();

  const message = summarize(walls);
  const during = summarize(latencies);
  return {
    message: {
      wallMs: message.median,
      wallP99Ms: message.p99,
      threadCpuMs: summarize(threadCpus).median,
      processCpuMs: summarize(processCpus).median,
    },
    load: {
      texts: TEXTS,
      wallMs,
      threadCpuMs: loadThreadCpu,
      processCpuMs: loadProcessCpu,
      longestStallMs: histogram.max / 1e6,
      stallP99Ms: histogram.percentile(99) / 1e6,
      messagesDuring: latencies.length,
      messageDuringMs: during.median,
      messageDuringP99Ms: during.p99,
    },
  };
}

const round = (value: number) => (Number.isFinite(value) ? Math.round(value * 100) / 100 : value);
const load = () => loadavg().map((value) => value.toFixed(2));
console.log(
  `load average before: ${load().join(', ')} (${new Date().toISOString()}, ${dist ? 'dist' : 'sources'})`,
);
// The machine's own share: the longest stall of an idle event loop here (the machine is shared).
const idle = monitorEventLoopDelay({ resolution: 1 });
idle.enable();
await new Promise<void>((resolve) => setTimeout(resolve, IDLE_MS));
idle.disable();
console.log(
  `idle event loop for ${IDLE_MS / 1000} s: longest stall ${round(idle.max / 1e6)} ms (p99 ${round(idle.percentile(99) / 1e6)})`,
);
const figures: Partial<Record<'calling' | 'worker', ModeFigures>> = {};
for (const mode of MODES) {
  figures[mode] = await measureMode(mode);
  console.log(`\n${mode} thread:`);
  console.log(
    `  one message (median of ${MESSAGES}): ${round(figures[mode].message.wallMs)} ms wall (p99 ${round(figures[mode].message.wallP99Ms)}), ` +
      `${round(figures[mode].message.threadCpuMs)} ms CPU of the calling thread, ${round(figures[mode].message.processCpuMs)} ms CPU of the process`,
  );
  const l = figures[mode].load;
  console.log(
    `  ${l.texts} texts in batches of 16: ${round(l.wallMs)} ms wall, ${round(l.threadCpuMs)} ms CPU of the calling thread, ${round(l.processCpuMs)} ms of the process; ` +
      `longest event-loop stall ${round(l.longestStallMs)} ms (p99 ${round(l.stallP99Ms)}); ` +
      `messages during it (${l.messagesDuring}, each ${MESSAGE_PERIOD} ms after the previous answer): ${round(l.messageDuringMs)} ms from arrival to vector, median (p99 ${round(l.messageDuringP99Ms)})`,
  );
}
const { calling, worker } = figures;
if (calling && worker) {
  const ratio = (before: number, after: number) => `${round(before / after)}×`;
  console.log('\ncalling ÷ worker:');
  console.log(
    `  one message: wall ${ratio(calling.message.wallMs, worker.message.wallMs)}, CPU of the calling thread ${ratio(calling.message.threadCpuMs, worker.message.threadCpuMs)}`,
  );
  console.log(
    `  load: longest stall ${ratio(calling.load.longestStallMs, worker.load.longestStallMs)}, CPU of the calling thread ${ratio(calling.load.threadCpuMs, worker.load.threadCpuMs)}, wall ${ratio(calling.load.wallMs, worker.load.wallMs)}`,
  );
}
console.log(`\nload average after: ${load().join(', ')}`);
console.log(
  JSON.stringify({
    date: new Date().toISOString(),
    loadAverage: loadavg(),
    idle: { longestStallMs: idle.max / 1e6, stallP99Ms: idle.percentile(99) / 1e6 },
    figures,
  }),
);
