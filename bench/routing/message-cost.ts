import { cpus, loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { TreeAgent } from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { baseOptions, parseBase } from '../student/bases.js';
import { clincTree, loadClinc150 } from './clinc150.js';

/**
 * What one message costs on the English fitted path over USE-lite + hashed (fitted at load), over
 * the USE-lite student (`--student-base`, default `student+hashed`: `bench/student/bases.ts`), over
 * the cascade of the two (`base: 'cascade'`: the median message and the share routed over
 * USE-lite too), and on the hashed path, in the same run: CPU time of the whole process per message (the serving thread and
 * USE-lite's worker thread) and messages routed per second, one message at a time and
 * `--concurrency` at once (a server's users writing together: their messages share USE-lite's model
 * calls). The tree: CLINC150 `train`, `--per-intent` utterances per intent (default 10: 1,500
 * chunks); the messages: other `train` utterances (never `val`), each distinct, so no cache answers.
 * "Turns per second on 2 cores" is 2,000 ms ÷ the CPU milliseconds of a message (what two free
 * cores could route); the measured rate is the shared machine's.
 *
 * CLINC150_DIR=/path/to/clinc150 nice npx tsx bench/routing/message-cost.ts [--messages=480] [--concurrency=16] [--per-intent=10]
 */
const option = (name: string, fallback: string) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const MESSAGES = option('messages', '480');
const CONCURRENCY = option('concurrency', '16');
const PER_INTENT = option('per-intent', '10');
const STUDENT_BASE = parseBase(
  process.argv.find((arg) => arg.startsWith('--student-base='))?.slice('--student-base='.length) ??
    'student+hashed',
);

const data = loadClinc150();
const tree = clincTree(data, { perIntent: PER_INTENT, threshold: null });
const byIntent = new Map<string, string[]>();
for (const [text, intent] of data.train) byIntent.set(intent, [...(byIntent.get(intent) ?? []), text]);
const pool = [...byIntent.values()].flatMap((texts) => texts.slice(PER_INTENT));
const step = Math.max(1, Math.floor(pool.length / (3 * MESSAGES)));
const all = pool.filter((_, i) => i % step === 0).slice(0, 3 * MESSAGES);
// Three disjoint sets: warm-up, one at a time, concurrent.
const [warm, sequential, concurrent] = [0, 1, 2].map((k) => all.slice(k * MESSAGES, (k + 1) * MESSAGES));

const processCpuMs = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};

interface Figures {
  cpuMsPerMessage: number;
  messagesPerSecond: number;
  /** One at a time: the median message's CPU time (each message measured alone). */
  medianCpuMs?: number;
  /** Share of the messages routed in a cascade's second space. */
  escalated?: number;
}

async function measure(
  agent: TreeAgent,
  texts: string[],
  concurrency: number,
  secondSpace?: string,
): Promise<Figures> {
  const cpu = processCpuMs();
  const started = performance.now();
  const each: number[] = [];
  let escalated = 0;
  for (let start = 0; start < texts.length; start += concurrency) {
    const before = processCpuMs();
    const routed = await Promise.all(
      texts.slice(start, start + concurrency).map((text) => agent.route(text)),
    );
    if (concurrency === 1) each.push(processCpuMs() - before);
    escalated += routed.filter((route) => secondSpace && route.fittedSpace === secondSpace).length;
  }
  const seconds = (performance.now() - started) / 1000;
  each.sort((a, b) => a - b);
  return {
    cpuMsPerMessage: (processCpuMs() - cpu) / texts.length,
    messagesPerSecond: texts.length / seconds,
    ...(each.length ? { medianCpuMs: each[Math.floor(each.length / 2)]! } : {}),
    ...(secondSpace ? { escalated: escalated / texts.length } : {}),
  };
}

async function path(name: string, agent: TreeAgent) {
  const loadStarted = performance.now();
  const status = await agent.whenFitted();
  const ready = (performance.now() - loadStarted) / 1000;
  const second = status.state === 'fitted' ? status.escalation?.embedderId : undefined;
  // Warm both ways, one at a time too: the model's worker sees single-message calls before they are measured.
  await measure(agent, warm!.slice(0, 64), CONCURRENCY);
  await measure(agent, warm!.slice(64, 128), 1);
  const one = await measure(agent, sequential!, 1, second);
  const many = await measure(agent, concurrent!, CONCURRENCY, second);
  console.log(
    `${name} (${status.state}${status.state === 'fitted' ? `, base ${status.baseId}` : ''}; ready in ${ready.toFixed(1)} s): one at a time ${one.cpuMsPerMessage.toFixed(2)} ms CPU/message (median ${one.medianCpuMs?.toFixed(2)} ms), ${one.messagesPerSecond.toFixed(0)}/s; ${CONCURRENCY} at once ${many.cpuMsPerMessage.toFixed(2)} ms CPU/message, ${many.messagesPerSecond.toFixed(0)}/s${second ? `; routed over the second space: ${(100 * one.escalated!).toFixed(0)}% / ${(100 * many.escalated!).toFixed(0)}%` : ''} (load average ${loadavg()[0]!.toFixed(1)})`,
  );
  return { one, many };
}

console.log(
  `${new Date().toISOString()}, ${cpus().length} cores (${cpus()[0]?.model}), load average ${loadavg()
    .map((v) => v.toFixed(1))
    .join(' ')}; tree of ${tree.chunks.length} chunks, ${MESSAGES} messages per measure`,
);
const hashed = await path('hashed', new TreeAgent({ tree }));
const english = await path(
  'English fitted, USE-lite',
  new TreeAgent({ tree, spaceFitter: spaceFitter({ cacheDirectory: false }) }),
);
const student = await path(
  `English fitted, ${STUDENT_BASE}`,
  new TreeAgent({
    tree,
    spaceFitter: spaceFitter({ cacheDirectory: false, ...baseOptions(STUDENT_BASE, tree) }),
  }),
);
const cascade = await path(
  'English fitted, cascade (student, then USE-lite when unsure)',
  new TreeAgent({ tree, spaceFitter: spaceFitter({ cacheDirectory: false, base: 'cascade' }) }),
);
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const perSecondOnTwoCores = (figures: Figures) => (2000 / figures.cpuMsPerMessage).toFixed(0);
for (const [name, figures] of [
  ['hashed', hashed],
  ['English fitted, USE-lite', english],
  [`English fitted, ${STUDENT_BASE}`, student],
  ['English fitted, cascade', cascade],
] as const)
  console.log(
    `${name}: turns per second on 2 cores (2,000 ms ÷ CPU per message): one at a time ${perSecondOnTwoCores(figures.one)}, ${CONCURRENCY} at once ${perSecondOnTwoCores(figures.many)}`,
  );
console.log(
  `English fitted ÷ hashed, CPU per message: one at a time ${ratio(english.one.cpuMsPerMessage, hashed.one.cpuMsPerMessage)}, ${CONCURRENCY} at once ${ratio(english.many.cpuMsPerMessage, hashed.many.cpuMsPerMessage)}`,
);
console.log(
  `English fitted, ${CONCURRENCY} at once ÷ one at a time: CPU per message ${ratio(english.many.cpuMsPerMessage, english.one.cpuMsPerMessage)}, messages per second ${ratio(english.many.messagesPerSecond, english.one.messagesPerSecond)}`,
);
console.log(
  `USE-lite ÷ student (${STUDENT_BASE}), CPU per message: one at a time ${ratio(english.one.cpuMsPerMessage, student.one.cpuMsPerMessage)}, ${CONCURRENCY} at once ${ratio(english.many.cpuMsPerMessage, student.many.cpuMsPerMessage)}; student ÷ hashed: ${ratio(student.one.cpuMsPerMessage, hashed.one.cpuMsPerMessage)}, ${ratio(student.many.cpuMsPerMessage, hashed.many.cpuMsPerMessage)}`,
);
console.log(
  `USE-lite ÷ cascade, CPU per message: one at a time ${ratio(english.one.cpuMsPerMessage, cascade.one.cpuMsPerMessage)} (median ${ratio(english.one.medianCpuMs!, cascade.one.medianCpuMs!)}), ${CONCURRENCY} at once ${ratio(english.many.cpuMsPerMessage, cascade.many.cpuMsPerMessage)}`,
);
process.exit(0);
