import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CalibrationOptions,
  InMemoryEmbeddingCache,
  type LabelledUtterance,
  type SpaceFitter,
  TreeAgent,
} from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { clincTestSet, clincTree, loadClinc150 } from './clinc150.js';

/**
 * Out of the box on CLINC150, as a user gets it: `new TreeAgent({ tree })` — no embedder, no fit
 * command, no threshold — on the tree built from `train`; the agent fits its space at load (in the
 * background) and calibrates the thresholds in it. Measured once on `val` + `oos_val` after
 * `await agent.whenFitted()`.
 *
 * `--select` first chooses the calibration's `keep` in the fitted space by 5-fold cross-validation on
 * `train` (+ `oos_train` as out-of-scope messages), never on `val`.
 *
 * npx tsx bench/routing/out-of-the-box.ts [--select] [--keeps 0.9,0.95] [--folds 5] [--no-write]
 */
const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const select = process.argv.includes('--select');
const keeps = (argument('--keeps') ?? '0.9,0.925,0.95,0.975,0.99').split(',').map(Number);
const folds = Number(argument('--folds') ?? 5);
const data = loadClinc150();

interface Outcome {
  inScopeRight: number;
  inScopeKept: number;
  outOfScopeRecall: number;
}

async function outcome(agent: TreeAgent, test: LabelledUtterance[]): Promise<Outcome> {
  let inScope = 0;
  let right = 0;
  let kept = 0;
  let declined = 0;
  for (const [text, expected] of test) {
    const routed = await agent.route(text);
    const predicted = routed.noMatch ? 'none' : routed.node.name;
    if (expected === 'none') declined += predicted === 'none' ? 1 : 0;
    else {
      inScope++;
      if (predicted !== 'none') kept++;
      if (predicted === expected) right++;
    }
  }
  return {
    inScopeRight: right / inScope,
    inScopeKept: kept / inScope,
    outOfScopeRecall: declined / (test.length - inScope),
  };
}

const results: Record<string, unknown> = { date: new Date().toISOString() };
let chosen: number | undefined;
if (select) {
  const byKeep = new Map<number, Outcome[]>(keeps.map((keep) => [keep, []]));
  const cache = new InMemoryEmbeddingCache();
  for (let fold = 0; fold < folds; fold++) {
    const seen = new Map<string, number>();
    const train: [string, string][] = [];
    const heldOut: LabelledUtterance[] = [];
    for (const item of data.train) {
      const index = seen.get(item[1]) ?? 0;
      seen.set(item[1], index + 1);
      if (index % folds === fold) heldOut.push(item);
      else train.push(item);
    }
    const test = [...heldOut, ...data.oosTrain.map(([text]) => [text, 'none'] as LabelledUtterance)];
    const tree = clincTree(data, { threshold: null, train });
    // One fit per fold, cached: the agents of the other keeps read it.
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-oob-'));
    const fitter: SpaceFitter = spaceFitter({ cacheDirectory: directory });
    try {
      for (const keep of keeps) {
        const calibrateThresholds: CalibrationOptions = { keep };
        const agent = new TreeAgent({
          tree,
          embeddingCache: cache,
          spaceFitter: fitter,
          calibrateThresholds,
        });
        const status = await agent.whenFitted();
        if (status.state !== 'fitted')
          throw new Error(`fold ${fold}: not fitted (${JSON.stringify(status)})`);
        const result = await outcome(agent, test);
        byKeep.get(keep)!.push(result);
        console.log(
          `fold ${fold} keep ${keep}: in-scope right ${result.inScopeRight.toFixed(3)} kept ${result.inScopeKept.toFixed(3)} OOS recall ${result.outOfScopeRecall.toFixed(3)}`,
        );
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }
  const scores = [...byKeep].map(([keep, outcomes]) => {
    const mean = (pick: (outcome: Outcome) => number) =>
      outcomes.reduce((sum, item) => sum + pick(item), 0) / outcomes.length;
    return {
      keep,
      inScopeRight: mean((o) => o.inScopeRight),
      inScopeKept: mean((o) => o.inScopeKept),
      outOfScopeRecall: mean((o) => o.outOfScopeRecall),
    };
  });
  // The same rule as for the unfitted space (calibration.ts): the smallest keep whose held-out
  // in-scope messages are still answered at least 90% of the time.
  const eligible = scores.filter((score) => score.inScopeKept >= 0.9).sort((a, b) => a.keep - b.keep);
  chosen = (eligible[0] ?? [...scores].sort((a, b) => b.inScopeKept - a.inScopeKept)[0]!).keep;
  console.log('cross-validation on train:', scores, 'chosen keep:', chosen);
  results.selection = { folds, scores, chosen };
}

if (!argument('--skip-val')) {
  // What a user gets: the tree from train, default options, nothing else.
  const tree = clincTree(data, { threshold: null });
  const started = performance.now();
  const agent = new TreeAgent({ tree });
  await agent.ready();
  const readyMs = performance.now() - started;
  const unfitted = agent.space().state === 'fitting' ? await outcome(agent, clincTestSet(data)) : null;
  const cpuBefore = process.cpuUsage();
  const status = await agent.whenFitted();
  const fittedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const testSet = clincTestSet(data);
  const routingCpu = process.cpuUsage();
  const val = await outcome(agent, testSet);
  const routed = process.cpuUsage(routingCpu);
  // CPU time per routed message (wall time on the shared machine measures the queue).
  const cpuMsPerMessage = (routed.user + routed.system) / 1000 / testSet.length;
  const thresholds = (await agent.thresholds()).map((t) => ({
    name: t.name,
    threshold: t.threshold,
    source: t.source,
  }));
  console.log('space:', status);
  console.log('unfitted, while the fit runs:', unfitted);
  console.log(
    `val, fitted (ready in ${(readyMs / 1000).toFixed(1)} s, fitted after ${(fittedMs / 1000).toFixed(1)} s):`,
    val,
  );
  results.val = {
    ...val,
    readyMs,
    fittedMs,
    cpuMsWhileFitting: (cpu.user + cpu.system) / 1000,
    cpuMsPerMessage,
    space: status,
    unfitted,
    thresholds,
  };
}
if (!process.argv.includes('--no-write'))
  writeFileSync(
    new URL('./out-of-the-box-results.json', import.meta.url),
    `${JSON.stringify(results, null, 2)}\n`,
  );
