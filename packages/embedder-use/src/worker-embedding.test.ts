import type { Worker } from 'node:worker_threads';
import { TreeAgentError } from '@treeagent/core';
import { rejection, rejectionReason } from '@treeagent/core/test';
import { afterEach, describe, expect, test } from 'vitest';
import { type FakeWorkerBehaviour, startFakeUseWorker } from './test-support/fake-use-worker.js';
import { liveUseWorkers, WorkerEmbedding } from './worker-embedding.js';

/** The workers a test started, in order, each with the behaviour it was given. */
let started: Worker[] = [];
let embeddings: WorkerEmbedding[] = [];

/** A `WorkerEmbedding` whose n-th worker (from 0) behaves as `behaviours[n]` (healthy past the list). */
function embedding(batchSize: number, ...behaviours: FakeWorkerBehaviour[]): WorkerEmbedding {
  return embeddingWaiting(undefined, batchSize, ...behaviours);
}

/** The same, with close() waiting at most `closeWaitMs` for a worker to end itself. */
function embeddingWaiting(
  closeWaitMs: number | undefined,
  batchSize: number,
  ...behaviours: FakeWorkerBehaviour[]
): WorkerEmbedding {
  const out = new WorkerEmbedding(
    batchSize,
    () => {
      const worker = startFakeUseWorker(behaviours[started.length] ?? {});
      started.push(worker);
      return worker;
    },
    closeWaitMs,
  );
  embeddings.push(out);
  return out;
}

const lengths = (vectors: number[][]) => vectors.map((vector) => vector[0]);
const batchNumbers = (vectors: number[][]) => vectors.map((vector) => vector[1]);

afterEach(async () => {
  await Promise.all(embeddings.map((each) => each.close()));
  embeddings = [];
  started = [];
});

describe('WorkerEmbedding (the main thread side of the worker, with a fake worker)', () => {
  test('starts no worker until the first texts, then one for all calls', async () => {
    const model = embedding(2);
    expect(await model.embed([])).toEqual([]);
    expect(started).toHaveLength(0);
    await model.embed(['a']);
    await model.embed(['bb', 'ccc']);
    expect(started).toHaveLength(1);
  });

  test("a call's vectors come back in order across batches, 512 floats each, as plain arrays", async () => {
    const vectors = await embedding(2).embed(['a', 'bb', 'ccc', 'dddd', 'eeeee']);
    expect(lengths(vectors)).toEqual([1, 2, 3, 4, 5]);
    expect(batchNumbers(vectors)).toEqual([1, 1, 2, 2, 3]);
    for (const vector of vectors) {
      expect(Array.isArray(vector)).toBe(true);
      expect(vector).toHaveLength(512);
    }
  });

  test('calls take turns batch by batch: a message waits for the batch being computed, not for a whole load', async () => {
    const model = embedding(1);
    const load = model.embed(['a', 'bb', 'ccc', 'dddd']);
    const message = model.embed(['a message']);
    const [loaded, [messageVector]] = await Promise.all([load, message]);
    expect(lengths(loaded)).toEqual([1, 2, 3, 4]);
    expect(messageVector![0]).toBe('a message'.length);
    // The load's first batch was being computed; the message's came next, then the rest of the load.
    expect(messageVector![1]).toBe(2);
    expect(batchNumbers(loaded)).toEqual([1, 3, 4, 5]);
  });

  test('concurrent calls share a batch while their texts fit in batchSize, each getting its own vectors', async () => {
    const model = embedding(4);
    // Ten messages at once: the first is posted alone (the worker was free), the others wait and
    // are embedded four per model call instead of one each.
    const texts = Array.from({ length: 10 }, (_, i) => 'x'.repeat(i + 1));
    const answers = await Promise.all(texts.map((text) => model.embed([text])));
    expect(answers.map(([vector]) => vector![0])).toEqual(texts.map((text) => text.length));
    expect(answers.map(([vector]) => vector![1])).toEqual([1, 2, 2, 2, 2, 3, 3, 3, 3, 4]);
    // A call of several batches joins with a message when its next batch leaves room.
    const load = model.embed(['a', 'bb', 'ccc', 'dddd', 'eeeee', 'ffffff']);
    const message = model.embed(['a message']);
    const [loaded, [messageVector]] = await Promise.all([load, message]);
    expect(lengths(loaded)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(batchNumbers(loaded)).toEqual([5, 5, 5, 5, 6, 6]);
    expect([messageVector![0], messageVector![1]]).toEqual(['a message'.length, 6]);
  });

  test('an already aborted signal rejects with its reason and starts no worker', async () => {
    const reason = new Error('the turn was cancelled');
    const error = await rejectionReason(embedding(2).embed(['a'], AbortSignal.abort(reason)));
    expect(error).toBe(reason);
    expect(started).toHaveLength(0);
  });

  test("an aborted call rejects with the reason; the worker's later answer is dropped, not given to the next call", async () => {
    const model = embedding(2);
    const controller = new AbortController();
    const aborted = model.embed(['aaaa', 'bbbb', 'cccc'], controller.signal);
    controller.abort(new Error('stop'));
    const next = model.embed(['xx']);
    expect(((await rejectionReason(aborted)) as Error).message).toBe('stop');
    const [vector] = await next;
    expect(vector![0]).toBe(2);
    // The aborted call's first batch was computed (it was in flight); its second was never posted.
    expect(vector![1]).toBe(2);
  });

  test('a worker that cannot be created: EMBEDDER naming the cause and the fix; the next call tries again', async () => {
    let attempts = 0;
    const model = new WorkerEmbedding(2, () => {
      attempts++;
      if (attempts === 1) throw new Error('Worker threads are disabled here');
      return startFakeUseWorker();
    });
    embeddings.push(model);
    const error = await rejection(model.embed(['a']));
    expect(error.code).toBe('EMBEDDER');
    expect(error.details.operation).toBe('start');
    expect(error.message).toContain('Worker threads are disabled here');
    expect(error.message).toContain("new UseEmbedder({ thread: 'calling' })");
    expect(lengths(await model.embed(['abc']))).toEqual([3]);
    expect(attempts).toBe(2);
  });

  test('a worker whose module fails before answering is a failure to start; the next call starts a fresh one', async () => {
    const model = embedding(2, { throwAtStart: 'Cannot find module use-worker.js' });
    const error = await rejection(model.embed(['a', 'b', 'c']));
    expect(error.code).toBe('EMBEDDER');
    expect(error.details.operation).toBe('start');
    expect(error.message).toContain('Cannot find module use-worker.js');
    expect(error.message).toContain('Reinstall @treeagent/embedder-use');
    expect(lengths(await model.embed(['abcd']))).toEqual([4]);
    expect(started).toHaveLength(2);
  });

  test('weights that do not load: EMBEDDER (load) for every waiting call, and a fresh worker next time', async () => {
    const model = embedding(2, { loadError: 'wasm backend unavailable' });
    const first = model.embed(['a', 'b', 'c']);
    const second = model.embed(['d']);
    for (const call of [first, second]) {
      const error = await rejection(call);
      expect(error.details.operation).toBe('load');
      expect(error.message).toContain('wasm backend unavailable');
    }
    expect(lengths(await model.embed(['ab']))).toEqual([2]);
    expect(started).toHaveLength(2);
  });

  test('a batch the model fails on rejects its call only; the worker goes on', async () => {
    const model = embedding(2, { batchErrorOn: 1 });
    const failing = model.embed(['a', 'b']);
    const other = model.embed(['ccc']);
    const error = await rejection(failing);
    expect(error.code).toBe('EMBEDDER');
    expect(error.message).toContain('the batch failed');
    expect(lengths(await other)).toEqual([3]);
    expect(started).toHaveLength(1);
  });

  test('a worker that crashes mid-call rejects every call it held, names the cause, and is replaced', async () => {
    const model = embedding(1, { crashOn: 2 });
    const load = model.embed(['a', 'bb', 'ccc']);
    const message = model.embed(['dddd']);
    for (const call of [load, message]) {
      const error = await rejection(call);
      expect(error.code).toBe('EMBEDDER');
      expect(error.details.operation).toBe('embed');
      expect(error.message).toContain('the fake worker crashed');
      expect(error.message).toContain('the next embed starts a new worker');
    }
    expect(lengths(await model.embed(['eeeee', 'f']))).toEqual([5, 1]);
    expect(started).toHaveLength(2);
  });

  test('a worker that exits mid-call: EMBEDDER with its exit code; the next call starts a fresh one', async () => {
    const model = embedding(1, { exitOn: { batch: 2, code: 7 } });
    const error = await rejection(model.embed(['a', 'bb']));
    expect(error.details.operation).toBe('embed');
    expect(error.details.exitCode).toBe(7);
    expect(error.message).toContain('exited (code 7) while embedding 2 text(s)');
    expect(lengths(await model.embed(['ccc']))).toEqual([3]);
    expect(started).toHaveLength(2);
  });

  test('close() ends the worker and rejects what waited; a later call starts a new worker', async () => {
    const model = embedding(1);
    await model.embed(['a']);
    const worker = started[0]!;
    expect(liveUseWorkers.has(worker)).toBe(true);
    const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
    const waiting = rejection(model.embed(['bb', 'ccc']));
    await model.close();
    // The worker ended itself (process.exit(0) on the close request): it was not terminated (code 1).
    expect(await exited).toBe(0);
    expect(liveUseWorkers.has(worker)).toBe(false);
    const error = await waiting;
    expect(error.details.operation).toBe('close');
    expect(TreeAgentError.hasCode(error, 'EMBEDDER')).toBe(true);
    expect(lengths(await model.embed(['dddd']))).toEqual([4]);
    expect(started).toHaveLength(2);
  });

  test('close() terminates a worker that has not ended itself after closeWaitMs', async () => {
    const model = embeddingWaiting(200, 1, { ignoresClose: true });
    await model.embed(['a']);
    const exited = new Promise<number>((resolve) => started[0]!.once('exit', resolve));
    const began = Date.now();
    await model.close();
    // Terminated from outside: exit code 1, once the wait was over.
    expect(await exited).toBe(1);
    expect(Date.now() - began).toBeGreaterThanOrEqual(190);
  });

  test('a second close() waits for the worker the first is ending', async () => {
    const model = embeddingWaiting(300, 1, { ignoresClose: true });
    await model.embed(['a']);
    const worker = started[0]!;
    let exited = false;
    worker.once('exit', () => {
      exited = true;
    });
    const first = model.close();
    await model.close();
    expect(exited).toBe(true);
    expect(liveUseWorkers.has(worker)).toBe(false);
    await first;
  });

  test('close() after the worker died returns at once, without waiting for it to end', async () => {
    const model = embeddingWaiting(60_000, 1, { exitOn: { batch: 2, code: 3 } });
    await model.embed(['a']);
    await rejection(model.embed(['bb']));
    const began = Date.now();
    await model.close();
    expect(Date.now() - began).toBeLessThan(1_000);
  });
});
