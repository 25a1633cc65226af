import { readFileSync, writeFileSync } from 'node:fs';
import type { LabelledUtterance } from '../../packages/core/src/evaluation.js';
import { defineTree, type NodeDefinition, type Tree, TreeAgent } from '../../packages/core/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { CLINC150_DIR, loadClinc150 } from '../routing/clinc150.js';
import { italianIntentsTestSet, loadItalianIntents } from '../routing/italian-intents.js';
import { routeCounts } from '../routing/route-counts.js';

/**
 * Routing Italian and English messages in one tree (docs/multilingual-trees.md, "Routing"): the 16
 * intents of the Italian bike-shop set, as an Italian tree (its 12 Italian chunks per intent), an
 * English tree (6 English chunks per intent, `english-intents.json`) and a bilingual tree (both, each
 * chunk with its `language`). Each routes the held-out Italian tests and out-of-scope messages, and the
 * English tests (4 per intent) with CLINC150's English out-of-scope validation messages (`CLINC150_DIR`),
 * in the hashed space (`fit: false`) and fitted (`spaceFitter()`); thresholds calibrated at load.
 *
 * npx tsx bench/language/routing.ts [--no-write]
 */
const italian = loadItalianIntents();
const english = JSON.parse(readFileSync(new URL('./english-intents.json', import.meta.url), 'utf8')) as {
  intents: Record<string, { chunks: string[]; test: string[] }>;
};

function intentTree(name: string, languages: ('it' | 'en')[]): Tree {
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, name: 'negozio' },
  ];
  let id = 10;
  for (const [domain, intents] of Object.entries(italian.domains)) {
    const domainId = id++;
    nodes.push({ id: domainId, type: 'empty', parent: 2, name: domain });
    for (const [intent, { chunks }] of Object.entries(intents))
      nodes.push({
        id: id++,
        type: 'emit',
        parent: domainId,
        name: intent,
        chunks: [
          ...(languages.includes('it') ? chunks.map((text) => ({ text, language: 'it' })) : []),
          ...(languages.includes('en')
            ? english.intents[intent]!.chunks.map((text) => ({ text, language: 'en' }))
            : []),
        ],
        emit: { message: { type: 'static', content: intent } },
      });
  }
  return defineTree({ name, languages, nodes });
}

const tests: Record<'it' | 'en', LabelledUtterance[]> = {
  it: italianIntentsTestSet(italian),
  en: [
    ...Object.entries(english.intents).flatMap(([intent, { test }]) =>
      test.map((text): LabelledUtterance => [text, intent]),
    ),
    ...loadClinc150(CLINC150_DIR).oosVal.map(([text]): LabelledUtterance => [text, 'none']),
  ],
};

async function measure(agent: TreeAgent, set: LabelledUtterance[]) {
  const counts = await routeCounts(agent, set);
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    inScope: counts.inScope,
    outOfScope: counts.outOfScope,
    inScopeRight: round(counts.right / counts.inScope),
    outOfScopeDeclined: round(counts.declined / counts.outOfScope),
  };
}

const results: Record<string, unknown> = { date: new Date().toISOString() };
for (const [label, languages] of [
  ['Italian tree', ['it']],
  ['English tree', ['en']],
  ['bilingual tree', ['it', 'en']],
] as const) {
  const tree = intentTree(label, [...languages]);
  for (const [space, options] of [
    ['hashed', { fit: false }],
    ['fitted', {}],
  ] as const) {
    const agent = new TreeAgent({ tree, spaceFitter: spaceFitter(), ...options });
    const status = await agent.whenFitted();
    const row: Record<string, unknown> = { chunks: tree.chunks.length, space: status.state };
    for (const language of ['it', 'en'] as const) row[language] = await measure(agent, tests[language]);
    results[`${label}, ${space}`] = row;
    console.log(`${label}, ${space}`, JSON.stringify(row));
  }
}
if (!process.argv.includes('--no-write'))
  writeFileSync(new URL('./routing-results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
