/**
 * Chooses the HashedEmbedder defaults on CLINC150, using only train / val / oos_val.
 *
 *   npx tsx bench/routing-hashed/evaluate.ts [--grid]
 *
 * - acc: cosine 1-NN over the 15,000 train utterances, intent accuracy on the 3,000 val utterances.
 * - OOS recall: share of oos_val whose best similarity is below the threshold that keeps 90% of
 *   in-scope val utterances at or above it.
 * - acc@10 / acc@50: same 1-NN, but each train "chunk" concatenates 10 (≈80 words) or 50 (≈400 words)
 *   train utterances of one intent: longer texts put more features into the buckets, so collisions
 *   (and therefore the choice of dimensions) matter more than with short utterances.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  HashedEmbedder,
  type HashedEmbedderOptions,
} from '../../packages/core/src/embedding/hashed-embedder.js';
import { cosineSimilarity } from '../../packages/core/src/embedding/vector-math.js';
import { buildIndex, type Neighbour, nearest } from './knn.js';

type Item = [utterance: string, intent: string];
interface Clinc {
  train: Item[];
  val: Item[];
  oos_val: Item[];
}

const DATASET = process.env.CLINC150 ?? '/work/shared/datasets/clinc150/dev.json';
const data = JSON.parse(readFileSync(DATASET, 'utf8')) as Clinc;
const KEEP_IN_SCOPE = 0.9;
const texts = (items: Item[]) => items.map(([text]) => text);

const curated: HashedEmbedderOptions[] = [
  { dimensions: 4096, wordNgrams: [1, 1], charNgrams: false },
  { dimensions: 4096, wordNgrams: [1, 2], charNgrams: false },
  { dimensions: 4096, wordNgrams: false, charNgrams: [3, 5] },
  ...[1024, 2048, 4096, 8192].flatMap((dimensions): HashedEmbedderOptions[] => [
    { dimensions, wordNgrams: [1, 1], charNgrams: [3, 5] },
    { dimensions, wordNgrams: [1, 2], charNgrams: [3, 5] },
    { dimensions, wordNgrams: [1, 2], charNgrams: [2, 4] },
  ]),
  { dimensions: 4096, wordNgrams: [1, 2], charNgrams: [2, 5] },
  { dimensions: 4096, wordNgrams: [1, 2], charNgrams: [3, 6] },
  { dimensions: 4096, wordNgrams: [1, 2], charNgrams: [3, 5], wordWeight: 2 },
];

function grid(): HashedEmbedderOptions[] {
  const out: HashedEmbedderOptions[] = [];
  for (const dimensions of [1024, 2048, 4096, 8192])
    for (const wordNgrams of [false, [1, 1], [1, 2], [1, 3]] as const)
      for (const charNgrams of [false, [2, 4], [3, 5], [2, 5], [3, 6], [4, 6]] as const)
        for (const wordWeight of [1, 2])
          if ((wordNgrams || charNgrams) && (wordNgrams || wordWeight === 1))
            out.push({ dimensions, wordNgrams, charNgrams, wordWeight });
  return out;
}

/** Train utterances of each intent concatenated `size` at a time: [text, intent] pairs. */
function chunks(size: number): Item[] {
  const byIntent = new Map<string, string[]>();
  for (const [text, intent] of data.train) byIntent.set(intent, [...(byIntent.get(intent) ?? []), text]);
  const out: Item[] = [];
  for (const [intent, all] of byIntent)
    for (let i = 0; i < all.length; i += size) out.push([all.slice(i, i + size).join('. '), intent]);
  return out;
}
const chunks10 = chunks(10);
const chunks50 = chunks(50);

function accuracy(hits: Neighbour[], reference: Item[]): number {
  const correct = hits.filter((hit, i) => hit.index >= 0 && reference[hit.index]![1] === data.val[i]![1]);
  return correct.length / hits.length;
}

function evaluate(options: HashedEmbedderOptions) {
  const embedder = new HashedEmbedder(options);
  const t0 = performance.now();
  const train = embedder.embed(texts(data.train));
  const t1 = performance.now();
  const val = embedder.embed(texts(data.val));
  const oos = embedder.embed(texts(data.oos_val));
  const t2 = performance.now();
  const index = buildIndex(train, embedder.dimensions);
  const valHits = nearest(index, val);
  const oosHits = nearest(index, oos);
  const t3 = performance.now();
  const sims = valHits.map((hit) => hit.similarity).sort((a, b) => a - b);
  const threshold = sims[sims.length - Math.ceil(KEEP_IN_SCOPE * sims.length)]!;
  const chunked = (items: Item[]) =>
    accuracy(nearest(buildIndex(embedder.embed(texts(items)), embedder.dimensions), val), items);
  return {
    id: embedder.id,
    accuracy: accuracy(valHits, data.train),
    oosRecall: oosHits.filter((hit) => hit.similarity < threshold).length / oos.length,
    threshold,
    accuracy10: chunked(chunks10),
    accuracy50: chunked(chunks50),
    embedTrainMs: t1 - t0,
    microsPerText: ((t2 - t0) * 1000) / (train.length + val.length + oos.length),
    searchMs: t3 - t2,
    memoryMb: (15_000 * embedder.dimensions * 4) / 2 ** 20,
    sample: { train, val, valHits },
  };
}

/** Cross-checks the sparse search against brute-force cosineSimilarity on a few queries. */
function sanityCheck({ sample: { train, val, valHits } }: ReturnType<typeof evaluate>): void {
  for (let q = 0; q < val.length; q += 500) {
    let best = -1;
    for (const t of train) best = Math.max(best, cosineSimilarity(val[q]!, t));
    if (Math.abs(best - valHits[q]!.similarity) > 1e-5) throw new Error(`k-NN mismatch on val[${q}]`);
  }
}

sanityCheck(evaluate(curated[0]!)); // also warms up the JIT so the first row's timings are comparable
const configs = process.argv.includes('--grid') ? grid() : curated;
console.log(
  `CLINC150 train=${data.train.length} val=${data.val.length} oos_val=${data.oos_val.length}; ` +
    `chunks: ${chunks10.length}×10, ${chunks50.length}×50 utterances\n`,
);
const columns = [
  'id',
  'acc',
  'OOS recall',
  'thr',
  'acc@10',
  'acc@50',
  'embed 15k ms',
  'µs/text',
  '1-NN ms',
  'MB',
];
console.log(`| ${columns.join(' | ')} |\n|${columns.map(() => ' --- |').join('')}`);
const rows = [];
for (const options of configs) {
  const { sample: _, ...r } = evaluate(options);
  rows.push(r);
  const cells = [r.id, r.accuracy.toFixed(4), r.oosRecall.toFixed(2), r.threshold.toFixed(3)];
  cells.push(r.accuracy10.toFixed(4), r.accuracy50.toFixed(4), r.embedTrainMs.toFixed(0));
  cells.push(r.microsPerText.toFixed(1), r.searchMs.toFixed(0), r.memoryMb.toFixed(0));
  console.log(`| ${cells.join(' | ')} |`);
}
const se = Math.sqrt((0.83 * 0.17) / data.val.length);
console.log(
  `\nStandard error of acc ≈ ${se.toFixed(4)}; of OOS recall ≈ ${Math.sqrt((0.7 * 0.3) / 100).toFixed(2)}.`,
);
console.log('Top 5 by acc@50 then acc:');
rows.sort((a, b) => b.accuracy50 - a.accuracy50 || b.accuracy - a.accuracy);
for (const r of rows.slice(0, 5))
  console.log(`  ${r.id}  acc=${r.accuracy.toFixed(4)} acc@50=${r.accuracy50.toFixed(4)}`);
