import { cpus, loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { UseEmbedder } from '../../packages/embedder-use/src/index.js';
import { encodeOnnxModel } from '../../packages/embedder-use/src/onnx/onnx-proto.js';
import type { UseRuntime } from '../../packages/embedder-use/src/use-runtime.js';
import { loadClinc150 } from './clinc150.js';

/**
 * USE-lite on its two runtimes in one run (issue #43, goals 1 and 3): ONNX Runtime (`runtime:
 * 'onnx'`, the default) against TensorFlow.js on WebAssembly (`'tfjs'`, the earlier default).
 * - Messages: CPU of the whole process (the calling thread and the model's worker) per message,
 *   one at a time and 16 at once (`UseEmbedder`'s one worker; messages waiting together share a
 *   call), CLINC150 `train` utterances, each distinct.
 * - A tree's chunks: the 15,000 utterances of CLINC150 `train` embedded as the fit at load does
 *   (`batchSize: 16`, two workers, one per core): CPU and wall time — a cold cache's cost.
 * - The limit: ONNX Runtime's best rate on a 1024×1024 product on one thread, and the floor it
 *   sets per message (USE-lite's ≈ 4.7 M multiply-adds per token; bench/routing/use-lite-floor.ts
 *   measures tfjs's own).
 *
 * CLINC150_DIR=/path/to/clinc150 nice npx tsx bench/routing/use-lite-runtimes.ts [--messages=320] [--no-chunks]
 */
const MESSAGES = Number(
  process.argv.find((arg) => arg.startsWith('--messages='))?.slice('--messages='.length) ?? '320',
);
const data = loadClinc150();
const train = data.train.map(([text]) => text);
const messages = train.filter((_, i) => i % 11 === 0).slice(0, 3 * MESSAGES);
const [warm, single, together] = [0, 1, 2].map((k) => messages.slice(k * MESSAGES, (k + 1) * MESSAGES));
const cpuMs = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};

async function messageCost(runtime: UseRuntime, texts: string[], atOnce: number): Promise<number> {
  const embedder = new UseEmbedder({ runtime });
  try {
    for (let i = 0; i < warm!.length; i += atOnce)
      await Promise.all(warm!.slice(i, i + atOnce).map((text) => embedder.embed([text])));
    const before = cpuMs();
    for (let i = 0; i < texts.length; i += atOnce)
      await Promise.all(texts.slice(i, i + atOnce).map((text) => embedder.embed([text])));
    return (cpuMs() - before) / texts.length;
  } finally {
    await embedder.close();
  }
}

async function chunkCost(runtime: UseRuntime): Promise<{ cpuSeconds: number; wallSeconds: number }> {
  const embedder = new UseEmbedder({ runtime, batchSize: 16, workers: 2 });
  try {
    const cpu = cpuMs();
    const started = performance.now();
    await embedder.embed(train);
    return { cpuSeconds: (cpuMs() - cpu) / 1000, wallSeconds: (performance.now() - started) / 1000 };
  } finally {
    await embedder.close();
  }
}

/** ONNX Runtime's best rate on one 1024×1024 product, one thread, in multiply-adds per ms. */
async function onnxPeakRate(n = 1024): Promise<number> {
  const weights = Float32Array.from({ length: n * n }, () => Math.random() - 0.5);
  const model = encodeOnnxModel({
    nodes: [{ op: 'MatMul', inputs: ['x', 'w'], outputs: ['y'] }],
    initializers: [{ name: 'w', type: 'float', dims: [n, n], data: weights }],
    inputs: [{ name: 'x', type: 'float', dims: [n, n] }],
    outputs: [{ name: 'y', type: 'float', dims: [n, n] }],
    opset: 18,
  });
  const session = await InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1 });
  const x = new Tensor('float32', weights.slice(), [n, n]);
  let best = 0;
  for (let run = 0; run < 12; run++) {
    const started = performance.now();
    await session.run({ x });
    if (run > 0) best = Math.max(best, (n * n * n) / (performance.now() - started));
  }
  return best;
}

console.log(
  `${new Date().toISOString()}, ${cpus().length} cores (${cpus()[0]?.model}), load average ${loadavg()[0]!.toFixed(1)}; ${MESSAGES} messages per measure`,
);
const peak = await onnxPeakRate();
const rows: Record<'onnx' | 'tfjs', Record<string, string>> = { tfjs: {}, onnx: {} };
const figures: Record<'onnx' | 'tfjs', number[]> = { onnx: [], tfjs: [] };
// Alternated, each measure on both runtimes in turn: a shared machine's speed drifts.
for (const atOnce of [1, 16])
  for (const runtime of ['tfjs', 'onnx'] as const) {
    const ms = await messageCost(runtime, atOnce === 1 ? single! : together!, atOnce);
    figures[runtime].push(ms);
    rows[runtime][`${atOnce} at once (ms CPU/message)`] = ms.toFixed(2);
  }
if (!process.argv.includes('--no-chunks'))
  for (const runtime of ['tfjs', 'onnx'] as const) {
    const { cpuSeconds, wallSeconds } = await chunkCost(runtime);
    figures[runtime].push(cpuSeconds, wallSeconds);
    rows[runtime][`${train.length} chunks, 2 workers (s CPU)`] = cpuSeconds.toFixed(1);
    rows[runtime][`${train.length} chunks (s wall)`] = wallSeconds.toFixed(1);
  }
console.table(rows);
const ratio = (index: number) => (figures.tfjs[index]! / figures.onnx[index]!).toFixed(2);
console.log(
  `tfjs ÷ onnx: one at a time ${ratio(0)}×, 16 at once ${ratio(1)}×${figures.onnx.length > 2 ? `, chunks CPU ${ratio(2)}×, wall ${ratio(3)}×` : ''}`,
);
console.log(
  `limit: ONNX Runtime's 1024×1024 product at ${(peak / 1e6).toFixed(1)} G multiply-adds/s on one thread; load average now ${loadavg()[0]!.toFixed(1)}`,
);
process.exit(0);
