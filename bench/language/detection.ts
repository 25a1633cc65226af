import { readFileSync, writeFileSync } from 'node:fs';
import { bikeShopTree } from '../../examples/src/bike-shop/tree.js';
import { eldLanguageDetector } from '../../packages/core/src/index.js';
import { CLINC150_DIR, loadClinc150 } from '../routing/clinc150.js';
import { loadItalianIntents } from '../routing/italian-intents.js';

/**
 * How well the default language identifier (`eldLanguageDetector`) tells Italian from English on
 * short customer messages, by length in words (docs/multilingual-trees.md, "Detection").
 *
 * Italian: every utterance of the demo's labelled set (`examples/src/bike-shop/utterances.tsv`), the
 * demo tree's signpost chunks (short messages such as "ciao", "grazie mille"), and of the Italian intent set (`bench/routing/italian-intents.json`: chunks, held-out tests,
 * out-of-scope messages). English: CLINC150's validation utterances (`val` and `oos_val`), read from
 * `CLINC150_DIR` at run time. A message is right when the detector, asked to choose between `it` and
 * `en` as a tree with `languages: ['it', 'en']` asks it, returns its language; `null` (no evidence) is
 * counted apart: the session then keeps the default language and tries the next message.
 *
 * npx tsx bench/language/detection.ts [--no-write]
 */
const BUCKETS = ['1–2 words', '3–4 words', '5–7 words', '8+ words'] as const;
type Bucket = (typeof BUCKETS)[number];

function bucketOf(text: string): Bucket {
  const words = text.trim().split(/\s+/).length;
  return words <= 2 ? '1–2 words' : words <= 4 ? '3–4 words' : words <= 7 ? '5–7 words' : '8+ words';
}

function italianMessages(): string[] {
  const tsv = readFileSync(new URL('../../examples/src/bike-shop/utterances.tsv', import.meta.url), 'utf8');
  const messages = tsv
    .split('\n')
    .map((line) => line.split('\t')[0]!.trim())
    .filter(Boolean);
  const intents = loadItalianIntents();
  for (const domain of Object.values(intents.domains))
    for (const intent of Object.values(domain)) messages.push(...intent.chunks, ...intent.test);
  messages.push(...intents.out_of_scope);
  messages.push(...bikeShopTree().chunks.map((chunk) => chunk.text));
  return [...new Set(messages)];
}

function englishMessages(): string[] {
  const clinc = loadClinc150(CLINC150_DIR);
  return [...new Set([...clinc.val, ...clinc.oosVal].map(([text]) => text))];
}

interface Row {
  messages: number;
  right: number;
  wrong: number;
  none: number;
  accuracy: number;
}

const loadStart = performance.now();
await eldLanguageDetector.detect('warm up', ['it', 'en']);
const loadMs = performance.now() - loadStart;

const results: Record<string, Record<string, Row>> = {};
let detections = 0;
const started = performance.now();
for (const [language, messages] of [
  ['it', italianMessages()],
  ['en', englishMessages()],
] as const) {
  const rows: Record<string, Row> = {};
  for (const text of messages) {
    const detected = await eldLanguageDetector.detect(text, ['it', 'en']);
    detections++;
    for (const key of [bucketOf(text), 'all']) {
      rows[key] ??= { messages: 0, right: 0, wrong: 0, none: 0, accuracy: 0 };
      const row = rows[key]!;
      row.messages++;
      if (detected === language) row.right++;
      else if (detected === null) row.none++;
      else row.wrong++;
    }
  }
  for (const row of Object.values(rows)) row.accuracy = Math.round((row.right / row.messages) * 1000) / 1000;
  results[language] = Object.fromEntries(
    [...BUCKETS, 'all'].filter((key) => rows[key]).map((key) => [key, rows[key]!]),
  );
}
const microsecondsPerMessage = ((performance.now() - started) * 1000) / detections;

const report = {
  date: new Date().toISOString(),
  detector: eldLanguageDetector.id,
  candidates: ['it', 'en'],
  loadMs: Math.round(loadMs),
  microsecondsPerMessage: Math.round(microsecondsPerMessage),
  results,
};
for (const [language, rows] of Object.entries(results))
  for (const [bucket, row] of Object.entries(rows))
    console.log(
      `${language} ${bucket.padEnd(10)} ${String(row.messages).padStart(5)} messages  accuracy ${(row.accuracy * 100).toFixed(1)}%  wrong ${row.wrong}  no language ${row.none}`,
    );
console.log(`load ${report.loadMs} ms, ${report.microsecondsPerMessage} µs per message`);
if (!process.argv.includes('--no-write'))
  writeFileSync(new URL('./detection-results.json', import.meta.url), `${JSON.stringify(report, null, 2)}\n`);
