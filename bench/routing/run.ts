import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Embedder } from '../../packages/core/src/adapter/index.js';
import { evaluateRouting } from '../../packages/core/src/evaluation.js';
import {
  ConcatEmbedder,
  FileEmbeddingCache,
  HashedEmbedder,
  TreeAgent,
} from '../../packages/core/src/index.js';
import { UseEmbedder } from '../../packages/embedder-use/src/index.js';
import { clincTestSet, clincTree, loadClinc150 } from './clinc150.js';

/**
 * Routing quality of each offline embedder on CLINC150: the tree is built from `train`, measured on
 * `val` and `oos_val`. Run with `npm run bench:routing`; `--quick` uses 2 domains and 20 utterances per intent.
 */
const quick = process.argv.includes('--quick');
const data = loadClinc150();
const domains = quick ? Object.keys(data.domains).slice(0, 2) : undefined;
const tree = clincTree(data, { ...(domains ? { domains } : {}), ...(quick ? { perIntent: 20 } : {}) });
const testSet = clincTestSet(data, domains);
const cache = new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url)));

const hashed = new HashedEmbedder();
const use = new UseEmbedder();
const configurations: { name: string; embedder: Embedder }[] = [
  { name: 'hashed n-grams (default, dependency-free)', embedder: hashed },
  { name: 'USE-lite', embedder: use },
  { name: 'USE-lite + hashed (1:1)', embedder: new ConcatEmbedder([use, hashed]) },
  { name: 'USE-lite + hashed (2:1)', embedder: new ConcatEmbedder([{ embedder: use, weight: 2 }, hashed]) },
];

const rows = [];
console.log(
  `CLINC150: ${tree.chunks.length} chunks, ${testSet.length} test utterances (${testSet.filter(([, l]) => l === 'none').length} out of scope)\n`,
);
for (const { name, embedder } of configurations) {
  const agent = new TreeAgent({ tree, embedder, embeddingCache: cache });
  const loadStart = performance.now();
  await agent.ready();
  const loadMs = performance.now() - loadStart;
  const started = performance.now();
  const report = await evaluateRouting(tree, agent, testSet);
  const perUtteranceMs = (performance.now() - started) / testSet.length;
  const row = {
    name,
    embedder: embedder.id,
    accuracy: report.accuracy,
    operatingThreshold: report.operatingPoint!.threshold,
    accuracyAtThreshold: report.operatingPoint!.inScopeAccuracy,
    outOfScopeRecall: report.operatingPoint!.outOfScopeRecall,
    loadMs,
    perUtteranceMs,
    confusions: report.confusions.slice(0, 5),
  };
  rows.push(row);
  console.log(
    `${name.padEnd(44)} accuracy ${row.accuracy.toFixed(3)}  OOS recall ${row.outOfScopeRecall.toFixed(3)} at t=${row.operatingThreshold.toFixed(3)} (in-scope kept & right ${row.accuracyAtThreshold.toFixed(3)})  load ${(loadMs / 1000).toFixed(1)} s  ${perUtteranceMs.toFixed(2)} ms/utterance`,
  );
}
const out = fileURLToPath(
  new URL(quick ? '../.cache/routing-quick.json' : './results.json', import.meta.url),
);
mkdirSync(fileURLToPath(new URL('../.cache', import.meta.url)), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), quick, chunks: tree.chunks.length, rows }, null, 2)}\n`,
);
console.log(`\nwritten ${out}`);
