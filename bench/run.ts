import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineOverhead } from './engine-overhead.js';
import { exploreAgreement } from './explore-agreement.js';
import { exploreAnn } from './explore-ann.js';
import { exploreScaling } from './explore-scaling.js';
import { historyGrowth } from './history-growth.js';
import { loadPeer } from './lib/langgraph.js';
import { type BenchContext, type Goal, type Section, table, verdict } from './lib/report.js';
import { bytes } from './lib/stats.js';
import { serverLoad } from './server-load.js';
import { startup } from './startup.js';
import { vectorStoreExplore } from './vector-store-explore.js';

/**
 * The performance suite: `npm run bench` runs every benchmark and writes bench/RESULTS.md and
 * bench/results.json. `--quick` is the smoke version (tiny sizes, a few seconds once the peer is
 * installed), written to bench/.cache/ instead. `--only=engine-overhead,startup` runs a subset;
 * `--chunks=100000` keeps only those tree sizes in the exploration benchmark; `--nodes=200,2000` only
 * those trees in the engine-overhead benchmark (10, 200 and 2000). `--cold-start`: the
 * vector-store exploration benchmark measures a first start (its collection's manifest removed).
 */
const quick = process.argv.includes('--quick');
const noCalibration = process.argv.includes('--no-calibration');
const coldStart = process.argv.includes('--cold-start');
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const chunksArg = process.argv.find((arg) => arg.startsWith('--chunks='));
const chunks = chunksArg
  ?.slice('--chunks='.length)
  .split(',')
  .map((item) => Number(item.replaceAll('_', '')));
if (chunks?.some((value) => !Number.isInteger(value) || value <= 0)) {
  console.error(`${chunksArg}: expected chunk counts separated by commas, such as --chunks=100000,1000000`);
  process.exit(2);
}

const nodesArg = process.argv.find((arg) => arg.startsWith('--nodes='));
const nodes = nodesArg
  ?.slice('--nodes='.length)
  .split(',')
  .map((item) => Number(item));
if (nodes?.some((value) => ![10, 200, 2000].includes(value))) {
  console.error(
    `${nodesArg}: expected tree sizes of the engine-overhead benchmark (10, 200, 2000) separated by commas`,
  );
  process.exit(2);
}

const BENCHMARKS: { id: string; run: (context: BenchContext) => Promise<Section> }[] = [
  { id: 'engine-overhead', run: engineOverhead },
  { id: 'history-growth', run: historyGrowth },
  { id: 'startup', run: startup },
  { id: 'server-load', run: serverLoad },
  // Last: the million-chunk tree needs the most memory.
  { id: 'explore-scaling', run: exploreScaling },
  { id: 'explore-agreement', run: exploreAgreement },
  // usearch HNSW against the scan (issue #18, goal 1); builds take minutes at 1M.
  { id: 'explore-ann', run: exploreAnn },
  // PostgreSQL + pgvector: 100k chunks unless --chunks says otherwise (the tables are kept and reused).
  { id: 'vector-store-explore', run: vectorStoreExplore },
];

const log = (line: string) => console.log(line);
const benchDirectory = fileURLToPath(new URL('.', import.meta.url));
const started = performance.now();
// Other work on the machine skews every figure: the load averages are reported with the results.
const loadAtStart = loadavg()[0]!;
const peer = await loadPeer(log);
const sections: Section[] = [];
const failures: { id: string; error: string }[] = [];
for (const benchmark of BENCHMARKS) {
  if (only && !only.includes(benchmark.id)) continue;
  log(`\n▶ ${benchmark.id}${quick ? ' (quick)' : ''}`);
  const tmp = mkdtempSync(join(tmpdir(), `treeagent-bench-${benchmark.id}-`));
  const benchStarted = performance.now();
  try {
    const section = await benchmark.run({
      quick,
      log,
      tmp,
      ...(chunks ? { chunks } : {}),
      ...(nodes ? { nodes } : {}),
      ...(noCalibration ? { noCalibration } : {}),
      ...(coldStart ? { coldStart } : {}),
    });
    sections.push(section);
    log(`\n${section.markdown}\n`);
    log(`  (${((performance.now() - benchStarted) / 1000).toFixed(1)} s)`);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    failures.push({ id: benchmark.id, error: message });
    console.error(`✖ ${benchmark.id} failed:\n${message}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
const totalSeconds = (performance.now() - started) / 1000;

const environment = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memory: bytes(totalmem()),
  peer: peer.versions,
  quick,
  totalSeconds,
  /** One-minute load average when the run started and when it ended (cores: `cores`). */
  load: { start: loadAtStart, end: loadavg()[0]! },
};
// Reported in the issue's order (they run in another: the million-chunk tree last).
const ORDER = [
  'engine-overhead',
  'history-growth',
  'explore-scaling',
  'explore-agreement',
  'vector-store-explore',
  'explore-ann',
  'startup',
  'server-load',
];
sections.sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id));
const goals: Goal[] = sections.flatMap((section) => section.goals);
const markdown = [
  '# Tree Agent — performance results',
  '',
  `Generated by \`npm run bench\`${quick ? ' --quick (smoke run: tiny sizes, figures not meaningful)' : ''} on ${environment.date.slice(0, 10)}: Node ${environment.node}, ${environment.platform}, ${environment.cpu}, ${environment.cores} cores, ${environment.memory} of memory; ${totalSeconds.toFixed(0)} s in all; load average ${environment.load.start.toFixed(1)} at the start, ${environment.load.end.toFixed(1)} at the end. Times are wall-clock medians and p99 (nearest rank) after warm-up; every ratio compares figures measured in this same run. Peer: ${Object.entries(
    peer.versions,
  )
    .map(([name, version]) => `${name}@${version}`)
    .join(', ')} (installed in bench/node_modules by the benchmark, not a dependency of the framework).`,
  '',
  '## Goals',
  '',
  table(
    ['benchmark', 'goal', 'measured', 'verdict'],
    goals.map((goal) => [goal.benchmark, goal.goal, goal.measured, verdict(goal.met)]),
  ),
  ...sections.flatMap((section) => ['', `## ${section.title}`, '', section.markdown]),
  // The changes these figures called for, before and after (kept by hand in BEFORE-AFTER.md).
  ...(quick || only ? [] : ['', readFileSync(join(benchDirectory, 'BEFORE-AFTER.md'), 'utf8').trimEnd()]),
  ...(failures.length
    ? [
        '',
        '## Failures',
        '',
        ...failures.map((failure) => `- ${failure.id}: ${failure.error.split('\n')[0]}`),
      ]
    : []),
  '',
].join('\n');
const json = `${JSON.stringify({ environment, goals, sections: Object.fromEntries(sections.map((s) => [s.id, s.data])), failures }, null, 2)}\n`;

const outDir = quick ? join(benchDirectory, '.cache') : benchDirectory;
mkdirSync(outDir, { recursive: true });
const mdFile = join(outDir, quick ? 'quick-RESULTS.md' : 'RESULTS.md');
const jsonFile = join(outDir, quick ? 'quick-results.json' : 'results.json');
if (!only || quick) {
  writeFileSync(mdFile, markdown);
  writeFileSync(jsonFile, json);
  log(`\nwritten ${mdFile} and ${jsonFile} (${totalSeconds.toFixed(0)} s)`);
} else {
  // A partial run must not overwrite the full results.
  const partial = join(benchDirectory, '.cache');
  mkdirSync(partial, { recursive: true });
  writeFileSync(join(partial, 'partial-RESULTS.md'), markdown);
  writeFileSync(join(partial, 'partial-results.json'), json);
  log(`\nwritten ${join(partial, 'partial-RESULTS.md')} (${totalSeconds.toFixed(0)} s)`);
}
if (failures.length) process.exitCode = 1;
