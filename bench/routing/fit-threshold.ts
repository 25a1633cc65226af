/**
 * Does fitting the embedding space help a small tree? The automatic fit starts at
 * `AUTO_FIT_MIN_CHUNKS` (100) exploration chunks; the English template of `npm create treeagent` has
 * fewer. Small flat trees (agent → intents) of 20, 40, 60 and 100 chunks (4, 8, 12 and 20 CLINC150
 * intents × 5 training utterances), each size over 5 folds: each fold draws its own intents (seeded)
 * and its own 5 training utterances per intent; tested on the validation utterances of those intents
 * (30 each) and the 100 out-of-scope validation utterances. Routed with the default hashed embedder,
 * unfitted (`fit: false`) and fitted (`fit: true`, `@treeagent/fit`'s `spaceFitter`), thresholds
 * calibrated at load as served. Reports in-scope accuracy and out-of-scope recall, mean and spread
 * over the folds.
 *
 * npx tsx bench/routing/fit-threshold.ts [--folds 5] [--no-write]
 */
import { writeFileSync } from 'node:fs';
import { evaluateRouting, type LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { defineTree, type NodeDefinition, TreeAgent } from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { loadClinc150 } from './clinc150.js';

const argument = (name: string) => {
  const index = process.argv.indexOf(name);
  return index < 0 ? undefined : process.argv[index + 1];
};
const folds = Number(argument('--folds') ?? 5);
const PER_INTENT = 5;
const SIZES = [20, 40, 60, 100];
const data = loadClinc150();
const intents = Object.values(data.domains).flat();
const fitter = spaceFitter({ cacheDirectory: false, worker: false });

/** A seeded shuffle (mulberry32), so the folds are the same on every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function foldOf(size: number, fold: number) {
  const chosen = shuffled(intents, 1000 * size + fold).slice(0, size / PER_INTENT);
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ];
  chosen.forEach((intent, index) => {
    const utterances = data.train.filter(([, label]) => label === intent);
    nodes.push({
      id: 10 + index,
      type: 'emit',
      parent: 2,
      name: intent,
      chunks: utterances.slice(fold * PER_INTENT, (fold + 1) * PER_INTENT).map(([text]) => text),
      emit: { message: { type: 'static', content: intent } },
    });
  });
  const set = new Set(chosen);
  const test: LabelledUtterance[] = [
    ...data.val.filter(([, label]) => set.has(label)).map(([text, label]) => [text, label] as const),
    ...data.oosVal.map(([text]) => [text, 'none'] as const),
  ];
  return { tree: defineTree({ name: `small-${size}-${fold}`, nodes }), test };
}

async function score(fitted: boolean, size: number, fold: number) {
  const { tree, test } = foldOf(size, fold);
  const agent = new TreeAgent({ tree, fit: fitted, spaceFitter: fitter, log: () => undefined });
  const space = await agent.whenFitted();
  if (fitted && space.state !== 'fitted')
    throw new Error(`fold ${fold} of ${size}: not fitted (${space.state})`);
  const report = await evaluateRouting(tree, agent, test);
  return { accuracy: report.accuracy, outOfScopeRecall: report.outOfScopeRecall };
}

const summary = (values: number[]) => {
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    mean: Math.round(mean * 1000) / 1000,
    min: Math.round(Math.min(...values) * 1000) / 1000,
    max: Math.round(Math.max(...values) * 1000) / 1000,
  };
};

const rows = [];
for (const size of SIZES) {
  const row: Record<string, unknown> = { chunks: size, intents: size / PER_INTENT };
  for (const fitted of [false, true]) {
    const results = [];
    for (let fold = 0; fold < folds; fold++) results.push(await score(fitted, size, fold));
    row[fitted ? 'fitted' : 'hashed'] = {
      accuracy: summary(results.map((result) => result.accuracy)),
      outOfScopeRecall: summary(results.map((result) => result.outOfScopeRecall)),
      perFold: results,
    };
  }
  const hashed = row.hashed as { accuracy: { mean: number }; outOfScopeRecall: { mean: number } };
  const fitted = row.fitted as { accuracy: { mean: number }; outOfScopeRecall: { mean: number } };
  console.log(
    `${size} chunks (${size / PER_INTENT} intents): accuracy hashed ${hashed.accuracy.mean} → fitted ${fitted.accuracy.mean}; out-of-scope recall ${hashed.outOfScopeRecall.mean} → ${fitted.outOfScopeRecall.mean}`,
  );
  rows.push(row);
}
if (!process.argv.includes('--no-write'))
  writeFileSync(
    new URL('./fit-threshold-results.json', import.meta.url),
    `${JSON.stringify({ date: new Date().toISOString(), folds, perIntent: PER_INTENT, rows }, null, 2)}\n`,
  );
