import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuUsage } from 'node:process';
import { main } from '../packages/cli/src/main.js';
import { definitionFromJSON } from '../packages/core/src/document.js';
import { lintTree } from '../packages/core/src/evaluation.js';
import { defineTree, HashedEmbedder } from '../packages/core/src/index.js';
import { closeSiblingPairs, type SiblingPairs } from '../packages/core/src/lint/close-pairs.js';
import { embedRows, rowDot, type SparseRows } from '../packages/core/src/lint/sparse-rows.js';
import type { Tree } from '../packages/core/src/tree/tree.js';
import {
  deepEnglishTree,
  englishTree,
  hasEnglishCorpus,
  seededRandom,
  syllableTree,
} from './lib/lint-trees.js';

/**
 * `treeagent lint` on large trees:
 * `npx tsx bench/lint-scaling.ts [--nodes=5000,10000,20002,50000] [--trees=english,deep]` (add
 * `syllables` to the trees for the made-up vocabulary).
 *
 * Trees (`lib/lint-trees.ts`), written as JSON files: `english`, a support-desk tree of English
 * questions (agent → 10 domains → 150 intents → groups of 25 leaves; needs the CLINC150 utterances,
 * `CLINC150_DIR`); `deep`, the same questions in ten chains of follow-ups under the agent (depth
 * grows with the tree: 2,000 levels at 20,002 nodes); and `syllables`, phrases of a 600-word
 * made-up vocabulary under topics of 25.
 * For each, the whole command as a user runs it — `main(['lint', file])` of the CLI: read and
 * validate the file, every lint rule with the default embedder, the routing thresholds, the report
 * (its lines counted, not printed) — then `lintTree` alone and the close-pair search alone.
 *
 * The goal (issues #16 and #36): 50,000 nodes linted in under 10 s on the 2-core development
 * machine. The machine is shared, so CPU time (this process's user + system) is printed beside wall
 * time: under load the wall time mostly measures the other processes. A second table gives the
 * scaling: for each tree, each size's `treeagent lint` time against the smallest size's, beside the
 * ratio of the node counts (near-linear: the two ratios are close).
 */
const argument = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const sizes = argument('nodes', '5000,10000,20002,50000').split(',').map(Number);
const kinds = argument('trees', 'english,deep').split(',');
const GOAL_SECONDS = 10;

const RECALL_SAMPLE = 300;
const recalls: string[] = [];
/** `treeagent lint`'s times per tree and size, for the scaling table. */
const runs: { kind: string; size: number; chunks: number; wall: number; cpu: number }[] = [];
const treeOf = (kind: string, size: number) =>
  kind === 'english' ? englishTree(size) : kind === 'deep' ? deepEnglishTree(size) : syllableTree(size);

/**
 * The share of the true close pairs (similarity ≥ 0.9, chunks of sibling subtrees) of sampled chunks
 * that the search found, overall and for the pairs just above the limit (below 0.92), the ones
 * hashing is likeliest to miss.
 */
function recall(tree: Tree, rows: SparseRows, found: SiblingPairs[]): string {
  const reported = new Set<string>();
  for (const group of found)
    for (const pair of group.pairs)
      reported.add(`${Math.min(pair.left, pair.right)}:${Math.max(pair.left, pair.right)}`);
  const owner = (chunk: number) => tree.node(tree.chunks[chunk]!.nodeId);
  const inside = (node: ReturnType<typeof owner>, chunk: number) =>
    chunk >= node.chunkStart && chunk < node.chunkEnd;
  const next = seededRandom(RECALL_SAMPLE);
  let all = 0;
  let hit = 0;
  let near = 0;
  let nearHit = 0;
  for (let s = 0; s < RECALL_SAMPLE; s++) {
    const i = Math.floor(next() * rows.count);
    const ownerI = owner(i);
    for (let j = 0; j < rows.count; j++) {
      if (j === i) continue;
      const ownerJ = owner(j);
      if (ownerI === ownerJ || inside(ownerI, j) || inside(ownerJ, i)) continue;
      const similarity = rowDot(rows, i, j);
      if (similarity < 0.9) continue;
      const isHit = reported.has(`${Math.min(i, j)}:${Math.max(i, j)}`);
      all++;
      if (isHit) hit++;
      if (similarity < 0.92) {
        near++;
        if (isHit) nearHit++;
      }
    }
  }
  return `${hit} of ${all} true pairs found${near ? `; just above the limit (0.90–0.92): ${nearHit} of ${near}` : ''}`;
}

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
    if (kind !== 'syllables' && !hasEnglishCorpus()) {
      console.log(`| ${kind} | — | — | skipped: no CLINC150 utterances (set CLINC150_DIR) | | | | |`);
      continue;
    }
    for (const size of sizes) {
      const json = treeOf(kind, size);
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
      runs.push({ kind, size, chunks: tree.chunks.length, wall: cli.wall, cpu: cli.cpu });
      if (size === Math.max(...sizes)) recalls.push(`${kind} ${size}: ${recall(tree, rows, pairs.value)}`);
      const verdict =
        cli.wall < GOAL_SECONDS ? 'met' : cli.cpu < GOAL_SECONDS ? 'met in CPU time' : 'NOT met';
      console.log(
        `| ${kind} | ${size} | ${tree.chunks.length} | ${cli.wall.toFixed(2)} s / ${cli.cpu.toFixed(2)} s | ${verdict} | ${lint.wall.toFixed(2)} s / ${lint.cpu.toFixed(2)} s | ${pairs.wall.toFixed(2)} s / ${pairs.cpu.toFixed(2)} s | ${lint.value.length} (${ambiguous}) |`,
      );
    }
  }
  console.log(`load average ${loadavg()[0]!.toFixed(2)} at the end`);
  console.log(
    '\nScaling of `treeagent lint` (each size against the smallest of its tree; near-linear when the time ratio stays close to the node ratio):',
  );
  console.log('| tree | nodes | × nodes | wall | × wall | CPU | × CPU | CPU per 1,000 nodes |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const run of runs) {
    const first = runs.find((other) => other.kind === run.kind)!;
    console.log(
      `| ${run.kind} | ${run.size} | ${(run.size / first.size).toFixed(1)} | ${run.wall.toFixed(2)} s | ${(run.wall / first.wall).toFixed(1)} | ${run.cpu.toFixed(2)} s | ${(run.cpu / first.cpu).toFixed(1)} | ${((run.cpu / run.size) * 1000).toFixed(3)} s |`,
    );
  }
  if (recalls.length) {
    console.log(
      `\nRecall of the close-pair search against the exact scan, on ${RECALL_SAMPLE} chunks drawn at random (every pair of sibling subtrees with one of them at similarity ≥ 0.9, found by comparing it with every chunk):`,
    );
    for (const line of recalls) console.log(`- ${line}`);
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
