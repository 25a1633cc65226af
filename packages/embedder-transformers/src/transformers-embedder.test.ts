import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { env } from '@huggingface/transformers';
import { defineTree, TreeAgent, TreeAgentError } from '@treeagent/core';
import { cosineSimilarity, normalize } from '@treeagent/core/adapter';
import { describeEmbedder } from '@treeagent/core/conformance';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { makeTinyModel, type TinyModel } from './test-support/make-tiny-model.js';
import { TransformersEmbedder } from './transformers-embedder.js';

/** Every URL anything tried to fetch, through transformers.js's own fetch or the global one. */
const fetched: string[] = [];
const originalEnvFetch = env.fetch;
let scratch: string;
let tiny: TinyModel;
let embedder: TransformersEmbedder;

beforeAll(async () => {
  const refuse = (input: unknown) => {
    fetched.push(String(input instanceof Request ? input.url : input));
    return Promise.reject(new Error('network access is not allowed in these tests'));
  };
  env.fetch = refuse as typeof fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(refuse);
  scratch = await mkdtemp(path.join(tmpdir(), 'treeagent-embedder-transformers-'));
  tiny = await makeTinyModel({ dir: path.join(scratch, 'tiny-bert') });
  embedder = new TransformersEmbedder({ modelPath: tiny.path, batchSize: 2 });
});

afterEach(() => {
  expect(fetched).toEqual([]);
});

afterAll(async () => {
  await embedder?.dispose();
  env.fetch = originalEnvFetch;
  vi.restoreAllMocks();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** What the tiny model should produce for `tokens` (special tokens included), computed by hand. */
function expected(tokens: readonly string[], pooling: 'mean' | 'cls' = 'mean'): Float32Array {
  const rows = tokens.map((token) => tiny.table[tiny.vocab.get(token)!]!);
  const chosen = pooling === 'cls' ? rows.slice(0, 1) : rows;
  const sum = new Float64Array(tiny.hiddenSize);
  for (const row of chosen) {
    for (const [i, value] of row.entries()) sum[i]! += value / chosen.length;
  }
  return Float32Array.from(sum);
}

function expectClose(actual: ArrayLike<number>, wanted: ArrayLike<number>, digits = 5): void {
  expect(actual.length).toBe(wanted.length);
  for (let i = 0; i < wanted.length; i++) expect(actual[i]).toBeCloseTo(wanted[i]!, digits);
}

async function expectEmbedderError(promise: Promise<unknown>): Promise<TreeAgentError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the embedder to fail');
    },
    (caught: unknown) => caught,
  );
  expect(TreeAgentError.hasCode(error, 'EMBEDDER')).toBe(true);
  return error as TreeAgentError;
}

describe('TransformersEmbedder on a tiny generated model', () => {
  test('embeds to the hidden size: the mean of the token rows, [CLS] and [SEP] included', async () => {
    const fresh = new TransformersEmbedder({ modelPath: tiny.path });
    expect(fresh.dimensions).toBeUndefined();
    const [vector] = await fresh.embed(['Hello WORLD']);
    expect(vector).toBeInstanceOf(Float32Array);
    expect(vector).toHaveLength(tiny.hiddenSize);
    expect(fresh.dimensions).toBe(tiny.hiddenSize);
    expectClose(vector!, normalize(expected(['[CLS]', 'hello', 'world', '[SEP]'])));
    await fresh.dispose();
  });

  test('is deterministic, across calls and instances', async () => {
    const texts = ['my credit card was stolen', 'what is the weather forecast'];
    const first = await embedder.embed(texts);
    expect(await embedder.embed(texts)).toEqual(first);
    const other = new TransformersEmbedder({ modelPath: tiny.path });
    expect(await other.embed(texts)).toEqual(first);
    await other.dispose();
  });

  test('normalize gives unit vectors; normalize: false gives the raw mean', async () => {
    const [unit] = await embedder.embed(['will it rain tomorrow']);
    expect(Math.hypot(...unit!)).toBeCloseTo(1, 5);
    const raw = new TransformersEmbedder({ modelPath: tiny.path, normalize: false });
    const [vector] = await raw.embed(['will it rain tomorrow']);
    expect(Math.hypot(...vector!)).not.toBeCloseTo(1, 2);
    expectClose(vector!, expected(['[CLS]', 'will', 'it', 'rain', 'tomorrow', '[SEP]']));
    await raw.dispose();
  });

  test('texts that share words are more similar than texts that do not', async () => {
    const [card, stolen, weather] = await embedder.embed([
      'my credit card',
      'my card was stolen',
      'will it rain tomorrow',
    ]);
    const shared = cosineSimilarity(card!, stolen!);
    const unrelated = cosineSimilarity(card!, weather!);
    expect(shared).toBeGreaterThan(unrelated + 0.3);
  });

  test('batching gives the same vectors as one text at a time (padding does not leak in)', async () => {
    const texts = ['hello', 'my credit card was stolen', 'rain', 'what is the weather forecast', 'it'];
    const batched = await embedder.embed(texts); // batchSize 2: three model calls, padded
    const single = new TransformersEmbedder({ modelPath: tiny.path, batchSize: 64 });
    const oneCall = await single.embed(texts);
    const oneByOne: Float32Array[] = [];
    for (const text of texts) oneByOne.push(...(await embedder.embed([text])));
    expect(batched).toEqual(oneByOne);
    expect(oneCall).toEqual(oneByOne);
    expect(await embedder.embed([])).toEqual([]);
    await single.dispose();
  });

  test('unknown words and empty texts still embed ([UNK], [CLS], [SEP])', async () => {
    const [unknown, empty] = await embedder.embed(['zebra', '']);
    expectClose(unknown!, normalize(expected(['[CLS]', '[UNK]', '[SEP]'])));
    expectClose(empty!, normalize(expected(['[CLS]', '[SEP]'])));
  });

  test("pooling: 'cls' takes the first token's vector", async () => {
    const cls = new TransformersEmbedder({ modelPath: tiny.path, pooling: 'cls' });
    const [a, b] = await cls.embed(['hello world', 'my card']);
    // This model has no attention, so the [CLS] vector is the same for every text.
    expectClose(a!, normalize(expected(['[CLS]'], 'cls')));
    expect(b).toEqual(a);
    await cls.dispose();
  });

  test.each([
    ['model_max_length', { maxLength: 8 }],
    ['max_position_embeddings, when the tokenizer sets no limit', { maxLength: null, maxPositions: 8 }],
  ])('long texts are truncated to %s', async (_, limits) => {
    const short = await makeTinyModel({
      dir: path.join(scratch, `tiny-bert-short-${limits.maxLength}`),
      ...limits,
    });
    const truncating = new TransformersEmbedder({ modelPath: short.path });
    const prefix = 'hello world my credit card was stolen';
    const [a, b] = await truncating.embed([
      `${prefix} ${'rain '.repeat(600)}`,
      `${prefix} ${'tomorrow '.repeat(600)}`,
    ]);
    // Eight tokens survive: [CLS] and the first seven words (the tail, [SEP] included, is cut).
    expect(a).toEqual(b);
    expectClose(a!, normalize(expected(['[CLS]', ...prefix.split(' ')])));
    await truncating.dispose();
  });

  test('the id names the folder and the options, so caches never mix models', () => {
    expect(embedder.id).toBe('transformers:tiny-bert:fp32:mean:normalized');
    const ids = [
      embedder.id,
      new TransformersEmbedder({ modelPath: tiny.path, pooling: 'cls' }).id,
      new TransformersEmbedder({ modelPath: tiny.path, normalize: false }).id,
      new TransformersEmbedder({ modelPath: tiny.path, quantized: true }).id,
      new TransformersEmbedder({ modelPath: path.join(scratch, 'other-model') }).id,
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(new TransformersEmbedder({ modelPath: tiny.path, id: 'mine@1' }).id).toBe('mine@1');
  });

  test('quantized: true loads onnx/model_quantized.onnx; fp16 models pool in float32', async () => {
    const quantizedModel = await makeTinyModel({ dir: path.join(scratch, 'tiny-bert-q8'), dtype: 'q8' });
    const quantized = new TransformersEmbedder({ modelPath: quantizedModel.path, quantized: true });
    const [q8] = await quantized.embed(['hello world']);
    const [fp32] = await embedder.embed(['hello world']);
    expect(q8).toEqual(fp32);
    await quantized.dispose();

    const halfModel = await makeTinyModel({ dir: path.join(scratch, 'tiny-bert-fp16'), dtype: 'fp16' });
    const half = new TransformersEmbedder({ modelPath: halfModel.path, dtype: 'fp16' });
    const [fp16] = await half.embed(['hello world']);
    expectClose(fp16!, fp32!, 2);
    await half.dispose();

    // The default dtype wants onnx/model.onnx, and the error points at the file that is there.
    const wrongDtype = new TransformersEmbedder({ modelPath: quantizedModel.path });
    const error = await expectEmbedderError(wrongDtype.embed(['hello']));
    expect(error.message).toContain('missing onnx/model.onnx');
    expect(error.message).toContain("dtype: 'q8'");
  });

  test('options are checked up front', () => {
    const invalid = (options: object) => {
      try {
        new TransformersEmbedder({ modelPath: tiny.path, ...options });
      } catch (error) {
        return TreeAgentError.hasCode(error, 'INVALID_INPUT');
      }
      return false;
    };
    expect(invalid({ batchSize: 0 })).toBe(true);
    expect(invalid({ batchSize: 1.5 })).toBe(true);
    expect(invalid({ pooling: 'max' })).toBe(true);
    expect(invalid({ dtype: 'fp64' })).toBe(true);
    expect(invalid({ quantized: true, dtype: 'fp32' })).toBe(true);
    expect(invalid({ modelPath: '' })).toBe(true);
    expect(invalid({ quantized: true, dtype: 'q8' })).toBe(false);
  });

  test('an aborted signal stops before the model runs', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(['hello'], { signal: controller.signal })).rejects.toThrow();
  });

  test('routes a tiny tree through TreeAgent', async () => {
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          name: 'weather',
          chunks: ['what is the weather forecast', 'will it rain tomorrow'],
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
    expect((await agent.route('rain tomorrow?')).node.name).toBe('weather');
    expect((await agent.route('Stolen card!')).node.name).toBe('card');
    expect((await agent.send('s1', 'the forecast')).messages[0]?.content).toBe('sunny');
  });
});

describe('TransformersEmbedder on folders that are not models', () => {
  test('(sanity check) the network guard sees transformers.js reaching for the hub', async () => {
    const { AutoConfig } = await import('@huggingface/transformers');
    env.allowRemoteModels = true;
    try {
      await expect(AutoConfig.from_pretrained('treeagent-test/no-such-model')).rejects.toThrow();
    } finally {
      env.allowRemoteModels = false;
    }
    expect(fetched.some((url) => url.includes('treeagent-test/no-such-model'))).toBe(true);
    fetched.length = 0;
  });

  test('a missing folder fails with an EMBEDDER error naming it, without touching the network', async () => {
    const missing = path.join(scratch, 'no-such-model');
    const error = await expectEmbedderError(
      new TransformersEmbedder({ modelPath: missing }).embed(['hello']),
    );
    expect(error.message).toContain(missing);
    expect(error.message).toContain('does not exist');
    expect(error.details).toMatchObject({ modelPath: missing });
  });

  test('a hub model id is only ever a local path: never downloaded', async () => {
    const hubId = new TransformersEmbedder({ modelPath: 'Xenova/all-MiniLM-L6-v2' });
    const error = await expectEmbedderError(hubId.load());
    expect(error.message).toContain(path.resolve('Xenova/all-MiniLM-L6-v2'));
    // afterEach checks that nothing was fetched.
  });

  test('an empty folder names every missing file; the embedder recovers once they appear', async () => {
    const folder = path.join(scratch, 'empty-model');
    await mkdir(folder);
    const late = new TransformersEmbedder({ modelPath: folder });
    const error = await expectEmbedderError(late.embed(['hello']));
    expect(error.message).toContain(folder);
    expect(error.details.missing).toEqual([
      'config.json',
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model.onnx',
    ]);
    await cp(tiny.path, folder, { recursive: true });
    const [vector] = await late.embed(['hello world']);
    expectClose(vector!, normalize(expected(['[CLS]', 'hello', 'world', '[SEP]'])));
    await late.dispose();
  });

  test('a folder missing only the tokenizer says so', async () => {
    const folder = path.join(scratch, 'no-tokenizer');
    await cp(tiny.path, folder, { recursive: true });
    await rm(path.join(folder, 'tokenizer.json'));
    const error = await expectEmbedderError(new TransformersEmbedder({ modelPath: folder }).embed(['hi']));
    expect(error.message).toContain('missing tokenizer.json.');
    expect(error.details.missing).toEqual(['tokenizer.json']);
  });

  test('a corrupt ONNX file or config fails with an EMBEDDER error naming the folder', async () => {
    const corrupt = path.join(scratch, 'corrupt-onnx');
    await cp(tiny.path, corrupt, { recursive: true });
    await writeFile(path.join(corrupt, 'onnx', 'model.onnx'), 'not a protobuf');
    const error = await expectEmbedderError(new TransformersEmbedder({ modelPath: corrupt }).load());
    expect(error.message).toContain(`cannot load the model in "${corrupt}"`);

    const badConfig = path.join(scratch, 'bad-config');
    await cp(tiny.path, badConfig, { recursive: true });
    await writeFile(path.join(badConfig, 'config.json'), '{"hidden_size": 8}');
    const configError = await expectEmbedderError(new TransformersEmbedder({ modelPath: badConfig }).load());
    expect(configError.message).toContain('model_type');
  });
});

// A tiny ONNX model (no attention, one axis per word: lexical by construction) whose vocabulary
// holds the suite's words, through the suite every Embedder passes.
describeEmbedder('TransformersEmbedder (tiny ONNX model)', async () => {
  const model = await makeTinyModel({
    dir: path.join(await mkdtemp(path.join(tmpdir(), 'treeagent-tiny-suite-')), 'tiny-bert'),
    hiddenSize: 64,
    words: SUITE_WORDS,
  });
  const suiteEmbedder = new TransformersEmbedder({ modelPath: model.path, batchSize: 2 });
  return {
    embedder: suiteEmbedder,
    dispose: async () => {
      await suiteEmbedder.dispose();
      await rm(path.dirname(model.path), { recursive: true, force: true });
    },
  };
});

const SUITE_WORDS = (
  'how much does shipping cost i want to return a broken helmet opening hours of the shop on sunday ' +
  'milan is it forgot password my account bici elettrica riga uno due tab parola filler'
).split(' ');
