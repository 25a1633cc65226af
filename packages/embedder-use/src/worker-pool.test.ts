import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, test } from 'vitest';
import { startFakeUseWorker } from './test-support/fake-use-worker.js';
import { WorkerPool } from './worker-pool.js';

// Fake workers (test-support/fake-use-worker.ts): a vector's first float is its text's length.
let pools: WorkerPool[] = [];
let started: Worker[] = [];

function pool(batchSize: number, workers: number, idleMilliseconds = 60_000): WorkerPool {
  const out = new WorkerPool(
    batchSize,
    workers,
    () => {
      const worker = startFakeUseWorker();
      started.push(worker);
      return worker;
    },
    idleMilliseconds,
  );
  pools.push(out);
  return out;
}

const lengths = (vectors: number[][]) => vectors.map((vector) => vector[0]);

afterEach(async () => {
  await Promise.all(pools.map((each) => each.close()));
  pools = [];
  started = [];
});

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 10_000) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('WorkerPool (several USE-lite workers, with fake workers)', () => {
  test('a call of several batches is split over every worker, its vectors back in order', async () => {
    const workers = pool(2, 2);
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff', 'ggggggg'];
    expect(lengths(await workers.embed(texts))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(started).toHaveLength(2);
  });

  test('messages (calls of one batch) all go to the first worker, where they share its model calls', async () => {
    const workers = pool(4, 2);
    const together = await Promise.all([workers.embed(['a']), workers.embed(['bb']), workers.embed(['ccc'])]);
    expect(together.map(lengths)).toEqual([[1], [2], [3]]);
    expect(started).toHaveLength(1);
  });

  test('the workers beyond the first close once idle; the first stays', async () => {
    const workers = pool(1, 2, 50);
    await workers.embed(['a', 'bb', 'ccc']);
    // Two were started for the call (on a loaded machine the second may already have idled out).
    expect(started).toHaveLength(2);
    await until(() => workers.started === 1);
    expect(started).toHaveLength(2);
    expect(lengths(await workers.embed(['dddd']))).toEqual([4]);
  });
});
