import { writeFileSync } from 'node:fs';
import type { Embedder } from '../../packages/core/src/adapter/index.js';
import { evaluateRouting, type LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { HashedEmbedder, InMemoryEmbeddingCache, TreeAgent } from '../../packages/core/src/index.js';
import { clincFold, clincTestSet, clincTree, loadClinc150 } from './clinc150.js';

/**
 * Out of the box on CLINC150: `new TreeAgent({ tree })` with no threshold set, so that the agent
 * calibrates them from the tree's chunks. `--select` chooses the calibration's `keep` by 5-fold
 * cross-validation on `train` (+ `oos_train` as out-of-scope messages), never on `val`; then the
 * chosen (or default) setting is measured once on `val` + `oos_val`.
 *
 * npx tsx bench/routing/calibration.ts [--select] [--keeps 0.9,0.95] [--folds 5]
 */
const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const select = process.argv.includes('--select');
const keeps = (argument('--keeps') ?? '0.85,0.9,0.925,0.95,0.975').split(',').map(Number);
const folds = Number(argument('--folds') ?? 5);
const data = loadClinc150();
const cache = new InMemoryEmbeddingCache();
const embedder: Embedder = new HashedEmbedder();

interface Outcome {
  inScopeRight: number;
  inScopeKept: number;
  outOfScopeRecall: number;
  calibrationMs: number;
}

async function measure(
  train: [string, string][],
  test: LabelledUtterance[],
  keep: number | undefined,
): Promise<Outcome & { thresholds: unknown }> {
  const tree = clincTree(data, { threshold: null, train });
  const agent = new TreeAgent({
    tree,
    embedder,
    embeddingCache: cache,
    ...(keep === undefined ? {} : { calibrateThresholds: { keep } }),
  });
  const started = performance.now();
  await agent.ready();
  const loadMs = performance.now() - started;
  const report = await evaluateRouting(tree, (text) => agent.route(text), test);
  const inScope = report.results.filter((result) => result.expected !== 'none');
  const thresholds = (await agent.thresholds()).map((t) => ({
    name: t.name,
    threshold: t.threshold,
    source: t.source,
  }));
  return {
    inScopeRight: report.accuracy,
    inScopeKept: inScope.filter((result) => result.predicted !== 'none').length / inScope.length,
    outOfScopeRecall: report.outOfScopeRecall,
    calibrationMs: loadMs,
    thresholds,
  };
}

const results: Record<string, unknown> = { date: new Date().toISOString(), embedder: embedder.id };
let chosen: number | undefined;
if (select) {
  const scores: { keep: number; inScopeRight: number; inScopeKept: number; outOfScopeRecall: number }[] = [];
  const byKeep = new Map<number, Outcome[]>(keeps.map((keep) => [keep, []]));
  for (let fold = 0; fold < folds; fold++) {
    const { train, test } = clincFold(data, folds, fold);
    for (const keep of keeps) {
      const outcome = await measure(train, test, keep);
      byKeep.get(keep)!.push(outcome);
      console.log(
        `fold ${fold} keep ${keep}: in-scope right ${outcome.inScopeRight.toFixed(3)} kept ${outcome.inScopeKept.toFixed(3)} OOS recall ${outcome.outOfScopeRecall.toFixed(3)} (load ${(outcome.calibrationMs / 1000).toFixed(1)} s)`,
      );
    }
  }
  for (const [keep, outcomes] of byKeep) {
    const mean = (pick: (outcome: Outcome) => number) =>
      outcomes.reduce((sum, outcome) => sum + pick(outcome), 0) / outcomes.length;
    const inScopeRight = mean((o) => o.inScopeRight);
    const outOfScopeRecall = mean((o) => o.outOfScopeRecall);
    scores.push({ keep, inScopeRight, inScopeKept: mean((o) => o.inScopeKept), outOfScopeRecall });
  }
  // What a user expects: about 9 in 10 in-scope messages answered. The smallest keep whose held-out
  // in-scope messages are answered at least 90% of the time, i.e. the most out-of-scope recall under
  // that constraint. (Maximising in-scope right + out-of-scope recall instead picks keep 0.85 here,
  // which answers only 83% of held-out in-scope messages.)
  const eligible = scores.filter((score) => score.inScopeKept >= 0.9).sort((a, b) => a.keep - b.keep);
  chosen = (eligible[0] ?? scores.sort((a, b) => b.inScopeKept - a.inScopeKept)[0]!).keep;
  console.log('cross-validation on train:', scores);
  results.selection = { folds, scores, chosen };
}
const val = await measure(data.train, clincTestSet(data), chosen);
console.log(
  `val (keep ${chosen ?? 'default'}): in-scope right ${val.inScopeRight.toFixed(3)}, kept ${val.inScopeKept.toFixed(3)}, OOS recall ${val.outOfScopeRecall.toFixed(3)}, load ${(val.calibrationMs / 1000).toFixed(1)} s`,
);
results.val = val;
if (!argument('--no-write'))
  writeFileSync(
    new URL('./calibration-results.json', import.meta.url),
    `${JSON.stringify(results, null, 2)}\n`,
  );
