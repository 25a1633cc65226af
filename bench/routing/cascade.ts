import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { FileEmbeddingCache, TreeAgent } from '../../packages/core/src/index.js';
import { type SpaceFitterOptions, spaceFitter } from '../../packages/fit/src/index.js';
import { clincFold, clincTestSet, clincTree, loadClinc150 } from './clinc150.js';
import { routeCounts } from './route-counts.js';

/**
 * The `'cascade'` base against its two parts, on CLINC150, as the library serves them
 * (`new TreeAgent({ tree, spaceFitter: spaceFitter({ base }) })`, thresholds calibrated at load):
 * the USE-lite student + hashed alone (`'use-student'`), USE-lite + hashed alone (`'auto'`, the
 * default), and the cascade (`'cascade'`: the student first, USE-lite for unsure messages). For each:
 * in-scope right, answered, out-of-scope declined, and the share of messages the cascade routed
 * over USE-lite (`RouteResult.fittedSpace`).
 *
 * `--cv [folds]` (default): cross-validation on `train` (`oos_train` as out-of-scope), the first
 * `--max-folds` folds. `--val`: one read of `val` + `oos_val` with the tree of all of `train`.
 * Embeddings through `bench/.cache/embeddings` (`embed-use-cache.ts` fills it); the three agents of a
 * fold share one fits directory, so the cascade reads the two fits the others made.
 *
 * CLINC150_DIR=/path/to/clinc150 npx tsx bench/routing/cascade.ts [--val] [--folds=5] [--max-folds=5] [--json=file]
 */
const option = (name: string, fallback: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const val = process.argv.includes('--val');
const folds = Number(option('folds', '5'));
const maxFolds = Number(option('max-folds', String(folds)));
const data = loadClinc150();
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));
const BASES = { student: 'use-student', 'use-lite': 'auto', cascade: 'cascade' } as const;

interface Outcome {
  right: number;
  answered: number;
  declined: number;
  escalated: number;
}

async function outcome(agent: TreeAgent, test: LabelledUtterance[], secondSpace?: string): Promise<Outcome> {
  const counts = await routeCounts(agent, test, secondSpace);
  return {
    right: counts.right / counts.inScope,
    answered: counts.answered / counts.inScope,
    declined: counts.declined / counts.outOfScope,
    escalated: counts.escalated / test.length,
  };
}

async function compare(train: [string, string][], test: LabelledUtterance[]) {
  const tree = clincTree(data, { threshold: null, train });
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-cascade-'));
  try {
    const results: Record<string, Outcome> = {};
    for (const [name, base] of Object.entries(BASES)) {
      const options: SpaceFitterOptions = { cacheDirectory: directory, base };
      const agent = new TreeAgent({
        tree,
        embeddingCache: cache,
        spaceFitter: spaceFitter(options),
        log: () => {},
      });
      const status = await agent.whenFitted();
      if (status.state !== 'fitted') throw new Error(`${name}: not fitted (${JSON.stringify(status)})`);
      if (name === 'cascade' && !status.escalation) throw new Error('the cascade has no second space');
      results[name] = await outcome(agent, test, status.escalation?.embedderId);
    }
    return results;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000;
const show = (results: Record<string, Outcome>) =>
  Object.entries(results)
    .map(
      ([name, o]) =>
        `${name}: right ${round(o.right)}, answered ${round(o.answered)}, declined ${round(o.declined)}${name === 'cascade' ? `, escalated ${round(o.escalated)}` : ''}`,
    )
    .join('; ');

console.log(`${new Date().toISOString()}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}`);
const output: Record<string, unknown> = { date: new Date().toISOString() };
if (val) {
  const results = await compare(data.train, clincTestSet(data));
  console.log(`val + oos_val (one read): ${show(results)}`);
  output.val = results;
} else {
  const perFold: Record<string, Outcome>[] = [];
  for (let fold = 0; fold < Math.min(folds, maxFolds); fold++) {
    const { train, test } = clincFold(data, folds, fold);
    const results = await compare(train, test);
    perFold.push(results);
    console.log(`fold ${fold}: ${show(results)}`);
  }
  const mean: Record<string, Outcome> = {};
  for (const name of Object.keys(BASES)) {
    const of = (pick: (o: Outcome) => number) =>
      perFold.reduce((sum, r) => sum + pick(r[name]!), 0) / perFold.length;
    mean[name] = {
      right: of((o) => o.right),
      answered: of((o) => o.answered),
      declined: of((o) => o.declined),
      escalated: of((o) => o.escalated),
    };
  }
  console.log(`mean of ${perFold.length} folds: ${show(mean)}`);
  output.cv = { folds, foldsRun: perFold.length, perFold, mean };
}
const json = option('json', '');
if (json) writeFileSync(json, `${JSON.stringify(output, null, 2)}\n`);
process.exit(0);
