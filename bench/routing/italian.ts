import { readFileSync, writeFileSync } from 'node:fs';
import { bikeShopTree } from '../../examples/src/bike-shop/tree.js';
import type { LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { type RoutingLanguage, type Tree, TreeAgent } from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { italianIntentsTestSet, italianIntentsTree, loadItalianIntents } from './italian-intents.js';
import { routeCounts } from './route-counts.js';

/**
 * The Italian intent set out of the box (`new TreeAgent({ tree, spaceFitter: spaceFitter() })`, as
 * the CLI runs it; no threshold set): before the fit at load (`fit: false`, thresholds calibrated in
 * the hashed space) and after (fitted in the background, thresholds calibrated again in the fitted
 * space). Never used to tune anything. Each is measured with words hashed as written
 * (`language: 'none'`, the default before issue #43) and with the Italian analysis the default
 * embedder now picks for an Italian tree (stems, elision, stop words); the demo's eval set (the bike
 * shop and its utterances.tsv) the same way.
 *
 * npx tsx bench/routing/italian.ts [--no-write]
 */
const data = loadItalianIntents();
const sets: Record<string, { tree: Tree; test: LabelledUtterance[] }> = {
  'Italian intent set': { tree: italianIntentsTree(data, null), test: italianIntentsTestSet(data) },
  'bike-shop demo eval set': {
    tree: bikeShopTree(),
    test: readFileSync(new URL('../../examples/src/bike-shop/utterances.tsv', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
      .map((line) => line.split('\t') as unknown as LabelledUtterance),
  },
};

async function measure(agent: TreeAgent, set: LabelledUtterance[]) {
  const counts = await routeCounts(agent, set);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    inScope: counts.inScope,
    outOfScope: counts.outOfScope,
    inScopeRight: round(counts.right / counts.inScope),
    inScopeKept: round(counts.answered / counts.inScope),
    outOfScopeDeclined: round(counts.declined / counts.outOfScope),
  };
}

const results: Record<string, unknown> = { date: new Date().toISOString() };
for (const [setName, { tree, test }] of Object.entries(sets)) {
  const rows: Record<string, unknown> = { chunks: tree.chunks.length, messages: test.length };
  for (const language of ['none', 'auto'] as RoutingLanguage[])
    for (const [label, options] of [
      ['unfitted', { fit: false }],
      ['fitted', {}],
    ] as const) {
      const agent = new TreeAgent({ tree, language, spaceFitter: spaceFitter(), ...options });
      const space = await agent.whenFitted();
      const thresholds = (await agent.thresholds()).map((t) => `${t.name}=${t.threshold} (${t.source})`);
      const outcome = await measure(agent, test);
      const key = `${language === 'none' ? 'words as written' : 'language-aware'}, ${label}`;
      rows[key] = { ...outcome, space: space.state, embedderId: space.embedderId, thresholds };
      console.log(setName, '|', key, outcome, space.state, space.embedderId);
    }
  results[setName] = rows;
}
if (!process.argv.includes('--no-write'))
  writeFileSync(new URL('./italian-results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
