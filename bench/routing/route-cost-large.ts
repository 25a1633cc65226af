import { loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { fileURLToPath } from 'node:url';
import { ChunkIndex } from '../../packages/core/src/explore/chunk-index.js';
import { FileEmbeddingCache, TreeAgent } from '../../packages/core/src/index.js';
import { UseEmbedder } from '../../packages/embedder-use/src/index.js';
import { spaceFitter } from '../../packages/fit/src/index.js';
import { clincTree, loadClinc150 } from './clinc150.js';

/**
 * What a message costs on the English fitted path of a large tree (CLINC150 `train`, `--per-intent`
 * utterances per intent: 15,000 chunks by default), one at a time and 16 at once, against USE-lite's
 * own model call in the same run (its worker, one message at a time): the rest is the route — the
 * projection and the exploration's exact passes over every chunk (a fitted vector with its base part
 * is a mixed layout: dense rows and sparse hashed columns, never sign bits). Prints the exact passes
 * per message (`ChunkIndex.similarities` calls). The chunks' vectors come from the benchmarks'
 * embedding cache (`embed-use-cache.ts` fills it; without it the fit embeds them first); the
 * messages are `train` utterances with a suffix, so no cache answers them.
 *
 * CLINC150_DIR=/path/to/clinc150 nice npx tsx bench/routing/route-cost-large.ts [--per-intent=100] [--messages=320]
 */
const option = (name: string, fallback: string) =>
  Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const PER_INTENT = option('per-intent', '100');
const MESSAGES = option('messages', '320');
const data = loadClinc150();
const texts = data.train
  .map(([text], i) => `${text} thanks ${i}`)
  .filter((_, i) => i % 5 === 3)
  .slice(0, 40 + 2 * MESSAGES);
const [warm, sequential, concurrent] = [
  texts.slice(0, 40),
  texts.slice(40, 40 + MESSAGES),
  texts.slice(40 + MESSAGES),
];
const cpu = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};
let passes = 0;
const similarities = ChunkIndex.prototype.similarities;
ChunkIndex.prototype.similarities = function (this: ChunkIndex, ...args) {
  passes++;
  return similarities.apply(this, args);
};

const tree = clincTree(data, { perIntent: PER_INTENT, threshold: null });
const agent = new TreeAgent({
  tree,
  embeddingCache: new FileEmbeddingCache(fileURLToPath(new URL('../.cache/embeddings', import.meta.url))),
  spaceFitter: spaceFitter({ cacheDirectory: false }),
});
const started = performance.now();
const status = await agent.whenFitted();
console.log(
  `${new Date().toISOString()} ${tree.chunks.length} chunks, ${status.state} in ${((performance.now() - started) / 1000).toFixed(1)} s; load average ${loadavg()[0]!.toFixed(1)}`,
);
for (const text of warm) await agent.route(text);

async function measure(label: string, set: string[], concurrency: number) {
  passes = 0;
  const before = cpu();
  for (let i = 0; i < set.length; i += concurrency)
    await Promise.all(set.slice(i, i + concurrency).map((text) => agent.route(text)));
  const ms = (cpu() - before) / set.length;
  console.log(
    `route, ${label}: ${ms.toFixed(2)} ms CPU per message, ${(passes / set.length).toFixed(2)} exact passes per message`,
  );
  return ms;
}
const one = await measure('one at a time', sequential, 1);
const many = await measure('16 at once', concurrent, 16);
const use = new UseEmbedder({ batchSize: 16 });
for (const text of warm) await use.embed([text]);
const before = cpu();
for (const text of sequential) await use.embed([text]);
const alone = (cpu() - before) / sequential.length;
await use.close();
console.log(
  `USE-lite's model call alone (its worker), one at a time: ${alone.toFixed(2)} ms CPU per message; the route beyond it: one at a time ${(one - alone).toFixed(2)} ms (${(one / alone).toFixed(2)}× USE-lite alone), 16 at once ${(many / alone).toFixed(2)}× USE-lite alone one at a time`,
);
process.exit(0);
