import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SpaceFitter } from '../../packages/core/src/adapter/index.js';
import type { CalibrationOptions, LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { FileEmbeddingCache, TreeAgent } from '../../packages/core/src/index.js';
import { type SpaceFitterOptions, spaceFitter } from '../../packages/fit/src/index.js';
import { baseOptions, parseBase } from '../student/bases.js';
import { clincFold, clincTestSet, clincTree, loadClinc150 } from './clinc150.js';
import { routeCounts } from './route-counts.js';

/**
 * Out of the box on CLINC150, as the CLI and a scaffolded project run it:
 * `new TreeAgent({ tree, spaceFitter: spaceFitter() })` — no embedder, no fit command, no
 * threshold — on the tree built from `train`; the agent fits its space at load (in the
 * background) and calibrates the thresholds in it. With `@treeagent/embedder-use` installed (it is,
 * in this repository) the fit of this English tree is made over USE-lite + hashed n-grams 2:1
 * (`@treeagent/fit`'s base `'auto'`). Measured once on `val` + `oos_val` after
 * `await agent.whenFitted()`.
 *
 * `--hashed-base`: the fit over the agent's hashed embedder instead (`spaceFitter({ base: 'agent' })`,
 * what a user gets without `@treeagent/embedder-use`, or on a tree that is not in English).
 *
 * `--select` first chooses the calibration's `keep` in the fitted space by 5-fold cross-validation on
 * `train` (+ `oos_train` as out-of-scope messages), never on `val`; its embeddings go through
 * `bench/.cache/embeddings` (fill it with `embed-use-cache.ts`). The rule: for the USE-lite base, the
 * largest keep whose held-out out-of-scope messages are still declined at least 90% of the time
 * (the issue's 0.85 with a margin for new data); for the hashed base, the rule that chose its 0.95
 * (the smallest keep whose held-out in-scope messages are answered at least 90% of the time).
 *
 * `--base <name>` (with `--select`): another base of the fit for the cross-validation, one of
 * `bench/student/bases.ts` (`student`, `student+hashed`, `use+student+hashed`: the USE-lite student).
 *
 * `--data <dir>`: the agent keeps its embeddings (`FileEmbeddingCache`) and fits in `<dir>`, as
 * `treeagent dev` does in its data directory; run twice with the same directory for a warm start.
 * Without it: `new TreeAgent({ tree, spaceFitter: spaceFitter() })` alone, cold.
 *
 * npx tsx bench/routing/out-of-the-box.ts [--select] [--keeps 0.95,0.96] [--folds 5] [--hashed-base]
 *   [--whole N] [--no-refine] [--samples N] [--data <dir>] [--skip-val] [--no-write]
 */
const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const select = process.argv.includes('--select');
const hashedBase = process.argv.includes('--hashed-base');
const dataDirectory = argument('--data');
const selectBase = parseBase(argument('--base'));
if (argument('--base') && (!select || hashedBase))
  throw new Error('--base is for the cross-validation (--select), without --hashed-base');

/**
 * `--whole N`: USE-lite's 512 dimensions whole beside a PCA of the hashed part to N (`0`: one PCA of
 * both); default: what the base asks for.
 */
const whole = argument('--whole');
/** `--no-refine`: the LDA's map as it is, not refined on the chunks (`FitOptions.refine: false`). */
const wholePart = {
  ...(whole === undefined
    ? {}
    : { wholePart: whole === '0' ? (false as const) : { dimensions: 512, pcaOfRest: Number(whole) } }),
  ...(process.argv.includes('--no-refine') ? { refine: false as const } : {}),
};

/** The agent's fitter: the library's (`base: 'auto'`), or over the agent's hashed embedder. */
function fitterFor(options: SpaceFitterOptions): SpaceFitter {
  return spaceFitter({ ...options, ...wholePart, ...(hashedBase ? { base: 'agent' as const } : {}) });
}
const keeps = (
  argument('--keeps') ?? (hashedBase ? '0.9,0.925,0.95,0.975,0.99' : '0.95,0.955,0.96,0.965,0.97,0.975')
)
  .split(',')
  .map(Number);
/**
 * `--base-weights 0.1,0.35,0.5`: the fit's base weight chosen with the keep (the same fit per fold:
 * the base weight does not change the projection). Default: the library's only.
 */
const baseWeights = argument('--base-weights')?.split(',').map(Number) ?? [undefined];
const folds = Number(argument('--folds') ?? 5);
/** `--samples 512`: chunks sampled per routing node by the calibration under selection (default: the library's 128). */
const samplesPerNode = argument('--samples') === undefined ? undefined : Number(argument('--samples'));
/** `--max-folds 3`: run only the first folds of the split (a quicker, rougher selection). */
const maxFolds = Number(argument('--max-folds') ?? folds);
const data = loadClinc150();

interface Outcome {
  inScopeRight: number;
  inScopeKept: number;
  outOfScopeRecall: number;
}

async function outcome(agent: TreeAgent, test: LabelledUtterance[]): Promise<Outcome> {
  const counts = await routeCounts(agent, test);
  return {
    inScopeRight: counts.right / counts.inScope,
    inScopeKept: counts.answered / counts.inScope,
    outOfScopeRecall: counts.declined / counts.outOfScope,
  };
}

const results: Record<string, unknown> = { date: new Date().toISOString() };
let chosen: number | undefined;
if (select) {
  const settingsOf = (baseWeight: number | undefined, keep: number) => `${baseWeight ?? 'library'}/${keep}`;
  const byKeep = new Map<string, Outcome[]>(
    baseWeights.flatMap((w) => keeps.map((keep) => [settingsOf(w, keep), []] as [string, Outcome[]])),
  );
  const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));
  for (let fold = 0; fold < Math.min(folds, maxFolds); fold++) {
    const { train, test } = clincFold(data, folds, fold);
    const tree = clincTree(data, { threshold: null, train });
    // One fit per fold, cached: the agents of the other keeps read it.
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-oob-'));
    try {
      for (const baseWeight of baseWeights)
        for (const keep of keeps) {
          const fitter: SpaceFitter = fitterFor({
            cacheDirectory: directory,
            ...baseOptions(selectBase, tree),
            ...(baseWeight === undefined ? {} : { baseWeight }),
          });
          // The agent's option wins over the fitter's advice: the keep under test.
          const calibrateThresholds: CalibrationOptions = {
            keep,
            ...(samplesPerNode === undefined ? {} : { samplesPerNode }),
          };
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
          byKeep.get(settingsOf(baseWeight, keep))!.push(result);
          console.log(
            `fold ${fold} base weight ${baseWeight ?? 'library'} keep ${keep}: in-scope right ${result.inScopeRight.toFixed(3)} kept ${result.inScopeKept.toFixed(3)} OOS recall ${result.outOfScopeRecall.toFixed(3)}`,
          );
        }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }
  const scores = [...byKeep].map(([settings, outcomes]) => {
    const mean = (pick: (outcome: Outcome) => number) =>
      outcomes.reduce((sum, item) => sum + pick(item), 0) / outcomes.length;
    const [weight, keep] = settings.split('/');
    return {
      ...(weight === 'library' ? {} : { baseWeight: Number(weight) }),
      keep: Number(keep),
      inScopeRight: mean((o) => o.inScopeRight),
      inScopeKept: mean((o) => o.inScopeKept),
      outOfScopeRecall: mean((o) => o.outOfScopeRecall),
      // Each fold's figures: the spread that tells a difference from the noise of the split.
      perFold: outcomes.map((o) =>
        [o.inScopeRight, o.outOfScopeRecall].map((v) => Math.round(v * 1000) / 1000),
      ),
    };
  });
  if (hashedBase) {
    // The rule that chose the hashed base's 0.95 (and 0.925 unfitted, calibration.ts): the smallest
    // keep whose held-out in-scope messages are still answered at least 90% of the time.
    const eligible = scores.filter((score) => score.inScopeKept >= 0.9).sort((a, b) => a.keep - b.keep);
    chosen = (eligible[0] ?? [...scores].sort((a, b) => b.inScopeKept - a.inScopeKept)[0]!).keep;
  } else {
    // The most in-scope messages right among the settings whose held-out out-of-scope messages are
    // still declined at least 90% of the time (the issue's 0.85, with a margin for new data); for
    // one base weight, the largest such keep (right grows with the keep). Ties: the larger keep.
    const eligible = scores
      .filter((score) => score.outOfScopeRecall >= 0.9)
      .sort((a, b) => b.inScopeRight - a.inScopeRight || b.keep - a.keep);
    const best = eligible[0] ?? [...scores].sort((a, b) => b.outOfScopeRecall - a.outOfScopeRecall)[0]!;
    chosen = best.keep;
    results.chosenBaseWeight = best.baseWeight ?? null;
  }
  console.log(
    'cross-validation on train:',
    scores,
    'chosen keep:',
    chosen,
    'base weight:',
    results.chosenBaseWeight,
  );
  results.selection = { folds, scores, chosen, chosenBaseWeight: results.chosenBaseWeight ?? null };
}

if (!process.argv.includes('--skip-val')) {
  // What a user gets: the tree from train, default options, nothing else.
  const tree = clincTree(data, { threshold: null });
  const cpuAtStart = process.cpuUsage();
  const started = performance.now();
  const agent = new TreeAgent({
    tree,
    ...(dataDirectory
      ? {
          embeddingCache: new FileEmbeddingCache(join(dataDirectory, 'embeddings')),
          spaceFitter: fitterFor({ cacheDirectory: join(dataDirectory, 'fits') }),
        }
      : hashedBase
        ? { spaceFitter: fitterFor({}) }
        : { spaceFitter: spaceFitter(wholePart) }),
  });
  await agent.ready();
  const readyMs = performance.now() - started;
  const readyCpu = process.cpuUsage(cpuAtStart);
  const warm = agent.space().state === 'fitted';
  const unfitted = agent.space().state === 'fitting' ? await outcome(agent, clincTestSet(data)) : null;
  const cpuBefore = process.cpuUsage();
  const status = await agent.whenFitted();
  const fittedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const loadCpu = process.cpuUsage(cpuAtStart);
  // The first message also loads the model of the base, when it has one: not counted per message.
  await agent.route(data.val[0]![0]);
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
  const key = `${hashedBase ? 'hashed' : `library default (${status.state === 'fitted' ? status.baseId : 'unfitted'})`}${dataDirectory ? (warm ? ' warm' : ' data directory cold') : ''}`;
  results.run = key;
  results.val = {
    ...val,
    readyMs,
    fittedMs,
    cpuMsToReady: (readyCpu.user + readyCpu.system) / 1000,
    cpuMsToFitted: (loadCpu.user + loadCpu.system) / 1000,
    loadAverage: (await import('node:os')).loadavg(),
    cpuMsWhileFitting: (cpu.user + cpu.system) / 1000,
    cpuMsPerMessage,
    space: status,
    unfitted,
    thresholds,
  };
}
if (!process.argv.includes('--no-write')) {
  // One entry per kind of run (base × cold/warm), so the runs do not overwrite each other.
  const file = new URL('./out-of-the-box-results.json', import.meta.url);
  const previous = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const runs = previous.runs ?? (previous.val ? { [`hashed (${previous.date})`]: previous } : {});
  const kind = hashedBase ? 'hashed' : selectBase === 'use+hashed' ? 'library default' : `base ${selectBase}`;
  runs[String(results.run ?? (select ? `${kind} selection` : kind))] = results;
  if (select && results.run) runs[`${kind} selection`] = { selection: results.selection };
  writeFileSync(file, `${JSON.stringify({ runs }, null, 2)}\n`);
}
