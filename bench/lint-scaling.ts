import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import { main } from '../packages/cli/src/main.js';
import { defineTree, definitionFromJSON, HashedEmbedder, lintTree } from '../packages/core/src/index.js';
import { closeSiblingPairs } from '../packages/core/src/lint/close-pairs.js';
import { embedRows } from '../packages/core/src/lint/sparse-rows.js';
import { englishTree, hasEnglishCorpus, syllableTree } from './lib/lint-trees.js';

/**
 * `treeagent lint` on large trees:
 * `npx tsx bench/lint-scaling.ts [--nodes=2000,10000,50000] [--trees=english,syllables]`.
 *
 * Trees (`lib/lint-trees.ts`), written as JSON files: `english`, a support-desk tree of English
 * questions (agent → 10 domains → 150 intents → groups of 25 leaves; needs the CLINC150 utterances,
 * `CLINC150_DIR`), and `syllables`, phrases of a 600-word made-up vocabulary under topics of 25.
 * For each, the whole command as a user runs it — `main(['lint', file])` of the CLI: read and
 * validate the file, every lint rule with the default embedder, the routing thresholds, the report
 * (its lines counted, not printed) — then `lintTree` alone and the close-pair search alone.
 *
 * The goal of issue #16: 50,000 nodes linted in under 10 s on the 2-core development machine. The
 * machine is shared, so CPU time (this process's user + system) is printed beside wall time: under
 * load the wall time mostly measures the other processes.
 */
const argument = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const sizes = argument('nodes', '2000,10000,50000').split(',').map(Number);
const kinds = argument('trees', 'english,syllables').split(',');
const GOAL_SECONDS = 10;

const directory = mkdtempSync(join(tmpdir(), 'treeagent-lint-bench-'));
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
async function timed<T>(work: () => Promise<T> | T): Promise<{ value: T; wall: number; cpu: number }> {
  const started = performance.now();
  const cpuStarted = cpuUsage();
  const value = await work();
  return { value, wall: (performance.now() - started) / 1000, cpu: cpuSeconds(cpuStarted) };
}

console.log(`lint scaling — ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)} at the start`);
console.log(
  '| tree | nodes | chunks | `treeagent lint`: wall / CPU | goal (< 10 s) | lintTree alone: wall / CPU | close-pair search alone: wall / CPU | warnings (ambiguous-siblings) |',
);
console.log('|---|---|---|---|---|---|---|---|');
try {
  for (const kind of kinds) {
    if (kind === 'english' && !hasEnglishCorpus()) {
      console.log(`| english | — | — | skipped: no CLINC150 utterances (set CLINC150_DIR) | | | | |`);
      continue;
    }
    for (const size of sizes) {
      const json = kind === 'english' ? englishTree(size) : syllableTree(size);
      const file = join(directory, `${kind}-${size}.json`);
      writeFileSync(file, JSON.stringify(json));
      let lines = 0;
      const silent = { log: () => void lines++, write: () => {}, error: () => {} };
      const cli = await timed(() => main(['lint', file], silent));
      if (cli.value !== 0) throw new Error(`treeagent lint ${file} exited with ${cli.value}`);

      const tree = defineTree(definitionFromJSON(json));
      const lint = await timed(() => lintTree(tree));
      const ambiguous = lint.value.filter((warning) => warning.code === 'ambiguous-siblings').length;
      const { rows } = await embedRows(
        new HashedEmbedder(),
        tree.chunks.map((chunk) => chunk.text),
      );
      const pairs = await timed(() => closeSiblingPairs(tree, rows, 0.9));
      const verdict =
        cli.wall < GOAL_SECONDS ? 'met' : cli.cpu < GOAL_SECONDS ? 'met in CPU time' : 'NOT met';
      console.log(
        `| ${kind} | ${size} | ${tree.chunks.length} | ${cli.wall.toFixed(2)} s / ${cli.cpu.toFixed(2)} s | ${verdict} | ${lint.wall.toFixed(2)} s / ${lint.cpu.toFixed(2)} s | ${pairs.wall.toFixed(2)} s / ${pairs.cpu.toFixed(2)} s | ${lint.value.length} (${ambiguous}) |`,
      );
    }
  }
  console.log(`load average ${loadavg()[0]!.toFixed(2)} at the end`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
