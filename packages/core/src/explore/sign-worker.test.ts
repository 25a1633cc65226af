import { describe, expect, test } from 'vitest';
import { ExploreConstraints } from '../context/explore-strategy.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { ChunkIndex } from './chunk-index.js';
import { MemoryChunkSearch } from './memory-chunk-search.js';
import { createSignKernel } from './sign-kernel.js';
import { BLOCK_ROWS, liveSignWorkers } from './sign-worker.js';

/** Deterministic pseudo-random numbers in [-0.5, 0.5). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

/** A kernel of `count` random codes of 384 bits, and a query. */
function filledKernel(count: number, seed: number) {
  const next = random(seed);
  const kernel = createSignKernel(count, 384, { shared: true })!;
  for (let i = 0; i < kernel.codes.length; i++) kernel.codes[i] = Math.floor((next() + 0.5) * 256);
  const query = Uint8Array.from({ length: 48 }, () => Math.floor((next() + 0.5) * 256));
  return { kernel, query };
}

/** Waits until the worker thread has started (it takes part from its first pass after that). */
async function started(run: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (run()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the worker thread did not start within 2 s');
}

describe('the sign-bit pass on two threads', () => {
  // Rows that are not a whole number of blocks: the last block is short.
  const count = 3 * BLOCK_ROWS + 123;

  test('distances and histogram equal the one-thread pass, pass after pass', async () => {
    const { kernel, query } = filledKernel(count, 5);
    const single = createSignKernel(count, 384)!;
    single.codes.set(kernel.codes);
    const expectedHistogram = new Int32Array(385);
    const expected = single.run(query, expectedHistogram).slice();
    const warnings: string[] = [];
    expect(kernel.startWorker((message) => warnings.push(message))).toBe(true);
    expect(kernel.threads).toBe(2);
    const histogram = new Int32Array(385);
    // The worker takes part once it is up; every pass before and after gives the same answer.
    await started(() => workerTookPart(kernel, query));
    for (let pass = 0; pass < 20; pass++) {
      const flipped = query.map((byte, b) => (b === pass ? byte ^ 0xff : byte));
      const reference = new Int32Array(385);
      const referenceDistances = single.run(flipped, reference).slice();
      const distances = kernel.run(flipped, histogram);
      expect(Array.from(distances)).toEqual(Array.from(referenceDistances));
      expect(Array.from(histogram)).toEqual(Array.from(reference));
    }
    expect(Array.from(kernel.run(query, histogram))).toEqual(Array.from(expected));
    expect(Array.from(histogram)).toEqual(Array.from(expectedHistogram));
    kernel.close();
    expect(kernel.threads).toBe(1);
    // Closed: the next passes run on the main thread, with the same results, and nothing is logged.
    expect(Array.from(kernel.run(query, histogram))).toEqual(Array.from(expected));
    expect(warnings).toEqual([]);
  });

  test('a worker that dies is reported once, and the passes go on on one thread with the same results', async () => {
    const { kernel, query } = filledKernel(count, 9);
    const warnings: string[] = [];
    expect(kernel.startWorker((message) => warnings.push(message))).toBe(true);
    const histogram = new Int32Array(385);
    const expected = kernel.run(query, histogram).slice();
    const expectedHistogram = histogram.slice();
    await started(() => workerTookPart(kernel, query));
    // Kill it from outside (as an out-of-memory or a crash would): its exit is noticed.
    await killWorkers();
    for (let attempt = 0; attempt < 100 && warnings.length === 0; attempt++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/worker thread exited.*one thread.*exploreThreads: 1/);
    expect(kernel.threads).toBe(1);
    expect(Array.from(kernel.run(query, histogram))).toEqual(Array.from(expected));
    expect(Array.from(histogram)).toEqual(Array.from(expectedHistogram));
    expect(warnings).toHaveLength(1);
  });

  test('an agent-sized index: a worker, exploration identical to the exact scan, closed with the index', async () => {
    const next = random(3);
    const dimensions = 64;
    const nodes: NodeDefinition[] = [
      { id: 1, type: 'root', defaultSimilarityThreshold: 0.05 },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
    ];
    const vectors: Record<string, number[]> = {};
    let id = 3;
    let chunk = 0;
    for (let group = 0; group < 4; group++) {
      const groupId = id++;
      nodes.push({ id: groupId, type: 'empty', parent: 2 });
      for (let leaf = 0; leaf < 10; leaf++) {
        const texts = Array.from({ length: 30 }, () => `c${chunk++}`);
        for (const text of texts) {
          const raw = Array.from({ length: dimensions }, () => next());
          const norm = Math.hypot(...raw);
          vectors[text] = raw.map((value) => value / norm);
        }
        nodes.push({ id: id++, type: 'empty', parent: groupId, chunks: texts });
      }
    }
    const tree = defineTree({ nodes });
    const index = await ChunkIndex.build(tree, new ExactEmbedder({ vectors }), undefined, {
      scan: 'sign-bits',
    });
    const warnings: string[] = [];
    expect(index.useSignWorker((message) => warnings.push(message))).toBe(true);
    expect(index.signThreads).toBe(2);
    const constraints = new ExploreConstraints();
    for (let trial = 0; trial < 30; trial++) {
      const base = vectors[`c${Math.floor((next() + 0.5) * chunk)}`]!;
      const noisy = base.map((value) => value + 0.1 * next());
      const norm = Math.hypot(...noisy);
      const direction = Float32Array.from(noisy, (value) => value / norm);
      const signs = new MemoryChunkSearch(index, async () => direction);
      const exact = new MemoryChunkSearch(index, async () => direction, { exact: true });
      for (const nodeId of [2, 3]) {
        const node = tree.node(nodeId);
        expect((await signs.best(node, constraints))?.chunkId).toBe(
          (await exact.best(node, constraints))?.chunkId,
        );
      }
      if (trial === 5) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    index.close();
    expect(index.signThreads).toBe(1);
    expect(warnings).toEqual([]);
  });
});

/** Runs a pass; whether it had the worker thread's help (the worker is up). */
function workerTookPart(
  kernel: NonNullable<ReturnType<typeof createSignKernel>>,
  query: Uint8Array,
): boolean {
  const before = kernel.workerPasses;
  kernel.run(query, new Int32Array(385));
  return kernel.workerPasses > before;
}

/** Terminates the live worker threads of the sign-bit pass, as a crash would. */
async function killWorkers(): Promise<void> {
  await Promise.all([...liveSignWorkers].map((worker) => worker.terminate()));
}
