import { cosineSimilarity } from '../../packages/core/src/embedding/vector-math.js';
import { HashedEmbedder } from '../../packages/core/src/index.js';
import { loadItalianIntents } from './italian-intents.js';

/**
 * The embedder alone on the Italian intent set: each held-out test message is given the intent of its
 * nearest chunk (no tree, no thresholds), with words hashed as written and with the Italian analysis.
 * Never used to tune anything.
 *
 * npx tsx bench/routing/italian-nearest.ts
 */
const data = loadItalianIntents();
const chunks: { text: string; intent: string }[] = [];
const tests: { text: string; intent: string }[] = [];
for (const intents of Object.values(data.domains))
  for (const [intent, { chunks: texts, test }] of Object.entries(intents)) {
    for (const text of texts) chunks.push({ text, intent });
    for (const text of test) tests.push({ text, intent });
  }
for (const embedder of [new HashedEmbedder(), new HashedEmbedder({ language: 'it' })]) {
  const chunkVectors = embedder.embed(chunks.map((chunk) => chunk.text));
  let right = 0;
  for (const test of tests) {
    const [vector] = embedder.embed([test.text]);
    let best = -2;
    let intent = '';
    chunkVectors.forEach((chunkVector, k) => {
      const similarity = cosineSimilarity(vector!, chunkVector);
      if (similarity > best) [best, intent] = [similarity, chunks[k]!.intent];
    });
    if (intent === test.intent) right++;
  }
  console.log(
    `${embedder.id}: nearest chunk's intent right ${right}/${tests.length} = ${(right / tests.length).toFixed(3)}`,
  );
}
