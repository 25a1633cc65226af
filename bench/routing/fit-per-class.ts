import { writeFileSync } from 'node:fs';
import type { LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { InMemoryEmbeddingCache, TreeAgent } from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { clincTree, loadClinc150 } from './clinc150.js';
import { routeCounts } from './route-counts.js';

/**
 * Does fitting at load help a tree with few chunks per node? On CLINC150 `train` only: trees built
 * from the first `n` training utterances of each intent (n = 12, 25, 50), measured on the last 20 of
 * each intent (never in any tree here) and `oos_train`, out of the box with and without the fit
 * (thresholds calibrated either way): whether the fit at load needs a rule on chunks per node (it
 * does not: it gains at every size). `val` is not read.
 *
 * npx tsx bench/routing/fit-per-class.ts [--sizes 12,25,50] [--no-write]
 */
const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const sizes = (argument('--sizes') ?? '12,25,50').split(',').map(Number);
const data = loadClinc150();
const byIntent = new Map<string, [string, string][]>();
for (const item of data.train) byIntent.set(item[1], [...(byIntent.get(item[1]) ?? []), item]);
const test: LabelledUtterance[] = [
  ...[...byIntent.values()].flatMap((items) => items.slice(-20)),
  ...data.oosTrain.map(([text]) => [text, 'none'] as const),
];
const cache = new InMemoryEmbeddingCache();

async function measure(agent: TreeAgent) {
  const counts = await routeCounts(agent, test);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    inScopeRight: round(counts.right / counts.inScope),
    inScopeKept: round(counts.answered / counts.inScope),
    outOfScopeDeclined: round(counts.declined / counts.outOfScope),
  };
}

const results: Record<string, unknown> = { date: new Date().toISOString(), test: test.length };
for (const size of sizes) {
  const train = [...byIntent.values()].flatMap((items) => items.slice(0, size));
  const tree = clincTree(data, { threshold: null, train });
  for (const fit of [false, true]) {
    const agent = new TreeAgent({ tree, embeddingCache: cache, fit, spaceFitter: spaceFitter() });
    const space = await agent.whenFitted();
    const outcome = await measure(agent);
    results[`${size} per intent, ${fit ? 'fitted' : 'unfitted'}`] = { ...outcome, space: space.state };
    console.log(size, fit ? 'fitted' : 'unfitted', outcome, space.state);
  }
}
if (!process.argv.includes('--no-write'))
  writeFileSync(
    new URL('./fit-per-class-results.json', import.meta.url),
    `${JSON.stringify(results, null, 2)}\n`,
  );
