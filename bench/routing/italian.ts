import { writeFileSync } from 'node:fs';
import type { LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { TreeAgent } from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { italianIntentsTestSet, italianIntentsTree, loadItalianIntents } from './italian-intents.js';

/**
 * The Italian intent set out of the box (`new TreeAgent({ tree, spaceFitter: spaceFitter() })`, as
 * the CLI runs it; no threshold set): before the fit at load (`fit: false`, thresholds calibrated in
 * the hashed space) and after (fitted in the background, thresholds calibrated again in the fitted
 * space). Never used to tune anything.
 *
 * npx tsx bench/routing/italian.ts [--no-write]
 */
const data = loadItalianIntents();
const tree = italianIntentsTree(data, null);
const test = italianIntentsTestSet(data);

async function measure(agent: TreeAgent, set: LabelledUtterance[]) {
  let inScope = 0;
  let right = 0;
  let kept = 0;
  let declined = 0;
  for (const [text, expected] of set) {
    const routed = await agent.route(text);
    const predicted = routed.noMatch ? 'none' : routed.node.name;
    if (expected === 'none') declined += predicted === 'none' ? 1 : 0;
    else {
      inScope++;
      if (predicted !== 'none') kept++;
      if (predicted === expected) right++;
    }
  }
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    inScope,
    outOfScope: set.length - inScope,
    inScopeRight: round(right / inScope),
    inScopeKept: round(kept / inScope),
    outOfScopeDeclined: round(declined / (set.length - inScope)),
  };
}

const results: Record<string, unknown> = { date: new Date().toISOString(), chunks: tree.chunks.length };
for (const [label, options] of [
  ['unfitted', { fit: false }],
  ['fitted', {}],
  ['fitted, thresholds open', { calibrateThresholds: false }],
] as const) {
  const agent = new TreeAgent({ tree, spaceFitter: spaceFitter(), ...options });
  const space = await agent.whenFitted();
  const thresholds = (await agent.thresholds()).map((t) => `${t.name}=${t.threshold} (${t.source})`);
  const outcome = await measure(agent, test);
  results[label] = { ...outcome, space: space.state, thresholds };
  console.log(label, outcome, space.state, thresholds.join(', '));
}
if (!process.argv.includes('--no-write'))
  writeFileSync(new URL('./italian-results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
