import { bikeShopTree } from '../examples/src/bike-shop/tree.js';
import { defineTree, type Tree, TreeAgent } from '../packages/core/src/index.js';

/**
 * Memory of one loaded tree version (docs/versions.md, "Several versions are loaded at once"): the
 * heap and array-buffer growth when an agent loads another version of its tree for a session on
 * it (`TreeAgentOptions.sessionTrees`), beside the estimate `maxLoadedTreeBytes` bounds
 * (`agent.loadedTreeBytes()`), for the demo tree and a 1,500-chunk tree, with the default
 * (hashed) embedder. Run with the collector exposed:
 *
 *   node --expose-gc --import tsx bench/loaded-version-memory.ts
 */

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc --import tsx bench/loaded-version-memory.ts');

const words =
  'order parcel bike wheel brake chain refund invoice delivery warranty saddle repair size colour'.split(' ');

/** A tree of `groups` emit nodes with `perGroup` example sentences each. */
function wideTree(groups: number, perGroup: number, answer: string): Tree {
  return defineTree({
    name: 'wide',
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      ...Array.from({ length: groups }, (_, group) => ({
        id: 10 + group,
        type: 'emit' as const,
        parent: 2,
        name: `topic-${group}`,
        chunks: Array.from(
          { length: perGroup },
          (_, index) =>
            `how do I ${words[(group + index) % words.length]} my ${words[(group * 7 + index * 3) % words.length]} for topic ${group} case ${index}`,
        ),
        emit: { message: { type: 'static' as const, content: `${answer} ${group}` } },
      })),
    ],
  });
}

function used(): number {
  gc!();
  gc!();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

/** Loads `other` beside `current` for one session and returns the growth and the estimate, in bytes. */
async function measure(
  current: Tree,
  other: Tree,
): Promise<{ chunks: number; delta: number; estimate: number }> {
  const agent = new TreeAgent({ tree: current, sessionTrees: { treeFor: async () => other } });
  await agent.ready();
  await agent.send('warm-up', 'hello'); // the session store, the turn code: not the version's cost
  await agent.deleteSession('warm-up');
  const before = used();
  await agent.send('pinned', 'hello');
  const delta = used() - before;
  return { chunks: other.chunks.length, delta, estimate: agent.loadedTreeBytes() };
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const cases: [string, () => Tree][] = [
  ['demo tree (examples/src/bike-shop)', () => bikeShopTree()],
  ['1,500-chunk tree (100 nodes × 15)', () => wideTree(100, 15, 'answer')],
];
console.log('| tree | chunks | heap + array buffers growth | estimate (loadedTreeBytes) |');
console.log('|---|---:|---:|---:|');
for (const [label, make] of cases) {
  const runs = [];
  // The agent's own tree is a small other one: what is measured is the version loaded beside it.
  for (let run = 0; run < 3; run++) runs.push(await measure(wideTree(1, 2, 'current'), make()));
  const median = runs.map((each) => each.delta).sort((a, b) => a - b)[1]!;
  console.log(`| ${label} | ${runs[0]!.chunks} | ${mib(median)} | ${mib(runs[0]!.estimate)} |`);
}
