import { cpus, loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { embedTexts } from '../packages/core/src/embedding/embed-texts.js';
import { defineTree, HashedEmbedder, lintTree, type NodeDefinition } from '../packages/core/src/index.js';
import { closeSiblingPairs } from '../packages/core/src/lint/close-pairs.js';

/**
 * `treeagent lint` on large trees: `npx tsx bench/lint-scaling.ts [--nodes=2000,10000,50000]`.
 * Each tree has a root, one agent, topics of 25 nodes, and one chunk per node: a short phrase of
 * 4–7 words from a 600-word vocabulary, so chunks differ as the questions of a real tree do, and
 * every 500th node repeats another topic's phrase (a true ambiguous pair lint must report).
 * Reports the time of the whole `lintTree` (embedding with the default `HashedEmbedder` included).
 * The goal of issue #16: 50 000 nodes in under 10 s on the 2-core development machine.
 */
const sizes = (
  process.argv.find((arg) => arg.startsWith('--nodes='))?.slice('--nodes='.length) ?? '2000,10000,50000'
)
  .split(',')
  .map(Number);

function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ba', 'co', 'di', 'fe', 'ga', 'li', 'mo', 'nu', 'pe', 'ra', 'si', 'to', 'vu', 'ze'];

function vocabulary(next: () => number): string[] {
  const words = new Set<string>();
  while (words.size < 600) {
    const length = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

function largeTree(nodes: number) {
  const next = random(nodes);
  const words = vocabulary(next);
  const phrase = () =>
    Array.from({ length: 4 + Math.floor(next() * 4) }, () => words[Math.floor(next() * words.length)]).join(
      ' ',
    );
  const definitions: NodeDefinition[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ];
  const phrases: string[] = [];
  let topic = 0;
  for (let id = 3; definitions.length < nodes; id++) {
    const isTopic = (id - 3) % 25 === 0;
    if (isTopic) topic = id;
    const text = id % 500 === 0 && phrases.length > 100 ? phrases[Math.floor(next() * 50)]! : phrase();
    phrases.push(text);
    definitions.push({
      id,
      type: 'emit',
      parent: isTopic ? 2 : topic,
      chunks: [text],
      emit: { message: { type: 'static', content: 'ok' } },
    });
  }
  return defineTree({ name: `lint-${nodes}`, nodes: definitions });
}

console.log(`lint scaling — ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}`);
// CPU time of this process as well as wall time: on a shared machine the wall time mostly measures
// the other processes.
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const used = cpuUsage(since);
  return (used.user + used.system) / 1e6;
};
console.log(
  '| nodes | chunks | lintTree wall (all rules, embedding included) | lintTree CPU | sibling pair search alone: wall / CPU | ambiguous-siblings warnings |',
);
console.log('|---|---|---|---|---|---|');
for (const size of sizes) {
  const tree = largeTree(size);
  const started = performance.now();
  const cpuStarted = cpuUsage();
  const warnings = await lintTree(tree);
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(cpuStarted);
  const ambiguous = warnings.filter((warning) => warning.code === 'ambiguous-siblings').length;
  const vectors = await embedTexts(
    new HashedEmbedder(),
    tree.chunks.map((chunk) => chunk.text),
  );
  const pairsStarted = performance.now();
  const pairsCpu = cpuUsage();
  closeSiblingPairs(tree, vectors, 0.9);
  const pairSeconds = (performance.now() - pairsStarted) / 1000;
  console.log(
    `| ${size} | ${tree.chunks.length} | ${seconds.toFixed(2)} s | ${cpu.toFixed(2)} s | ${pairSeconds.toFixed(2)} s / ${cpuSeconds(pairsCpu).toFixed(2)} s | ${ambiguous} |`,
  );
}
