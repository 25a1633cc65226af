import { writeFileSync } from 'node:fs';
import { HashedEmbedder } from '../../../packages/core/src/index.js';
import { loadClinc150 } from '../clinc150.js';
import { loadItalianIntents } from '../italian-intents.js';

/**
 * Writes the default embedder's sparse vectors of CLINC150 (train, val, oos_val, oos_train) and of
 * the Italian intent set to `vectors.json` beside this file, for the numpy experiments (README.md).
 *
 * npx tsx bench/routing/experiments/dump-vectors.ts
 */
const embedder = new HashedEmbedder();
const data = loadClinc150();
const italian = loadItalianIntents();
const sets: Record<string, [string, string][]> = {
  train: data.train,
  val: data.val,
  oos_val: data.oosVal,
  oos_train: data.oosTrain,
};
const chunks: [string, string][] = [];
const test: [string, string][] = [];
const domainOf: Record<string, string> = {};
for (const [domain, intents] of Object.entries(italian.domains))
  for (const [intent, set] of Object.entries(intents)) {
    domainOf[intent] = domain;
    for (const text of set.chunks) chunks.push([text, intent]);
    for (const text of set.test) test.push([text, intent]);
  }
sets.it_chunks = chunks;
sets.it_test = test;
sets.it_oos = italian.out_of_scope.map((text) => [text, 'none']);
const out: Record<string, unknown> = { domains: data.domains, itDomain: domainOf };
for (const [name, items] of Object.entries(sets)) {
  const rows = items.map(([text]) => {
    const vector = embedder.embedSparse(text);
    return [Array.from(vector.indices), Array.from(vector.values)];
  });
  out[name] = { labels: items.map(([, label]) => label), texts: items.map(([text]) => text), rows };
}
writeFileSync(new URL('./vectors.json', import.meta.url), JSON.stringify(out));
