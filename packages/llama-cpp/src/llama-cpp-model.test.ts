import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type AgentEvent,
  defineTree,
  type JsonSchema,
  type LlmAfterSpecial,
  MessageType,
  TreeAgent,
} from '@treeagent/core';
import type { ModelRequest, ModelStreamPart } from '@treeagent/core/adapter';
import { describeLanguageModel } from '@treeagent/core/conformance';
import { ExactEmbedder, rejectionReason } from '@treeagent/core/test';
import { getLlama, readGgufFileInfo } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type LlamaCppModel, llamaCppModel } from './llama-cpp-model.js';
import { writeTinyGguf } from './test-support/write-tiny-gguf.js';

// A tiny random-weight llama model generated for the tests (no model ships with the package).
// threads: 1 because one thread is fastest for a model this small, and 2-core CI machines slow
// down a lot when llama.cpp's threads compete with other work.
const SLOW = 120_000;

let dir: string;
let modelPath: string;
let model: LlamaCppModel;

const request = (content: string, params: Record<string, unknown> = {}, extra: Partial<ModelRequest> = {}) =>
  ({
    system: 'You are terse.',
    messages: [{ role: 'user', content }],
    params,
    ...extra,
  }) satisfies ModelRequest;

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'treeagent-llama-cpp-'));
  modelPath = join(dir, 'tiny-random-llama.gguf');
  await writeTinyGguf(modelPath, { seed: 7 });
  model = llamaCppModel({ modelPath, contextSize: 2048, threads: 1 });
}, SLOW);

afterAll(async () => {
  await model?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
}, SLOW);

describe('writeTinyGguf', () => {
  it('writes a GGUF v3 file that node-llama-cpp parses, with 32-byte aligned tensor data', async () => {
    const info = await readGgufFileInfo(modelPath);
    expect(info.version).toBe(3);
    expect(info.metadata.general.architecture).toBe('llama');
    expect(info.metadata.tokenizer.ggml.model).toBe('llama');
    expect(info.tensorInfo?.map((tensor) => tensor.name)).toEqual([
      'token_embd.weight',
      'output_norm.weight',
      'output.weight',
      'blk.0.attn_norm.weight',
      'blk.0.attn_q.weight',
      'blk.0.attn_k.weight',
      'blk.0.attn_v.weight',
      'blk.0.attn_output.weight',
      'blk.0.ffn_norm.weight',
      'blk.0.ffn_gate.weight',
      'blk.0.ffn_up.weight',
      'blk.0.ffn_down.weight',
    ]);
    const vocab = info.metadata.tokenizer.ggml.tokens.length;
    expect(info.tensorInfo?.[0]?.dimensions).toEqual([64, vocab]);
    expect(info.tensorInfo?.every((tensor) => Number(tensor.fileOffset) % 32 === 0)).toBe(true);
    const bytes = await readFile(modelPath);
    const last = info.tensorInfo!.at(-1)!;
    expect(bytes.length).toBeGreaterThanOrEqual(Number(last.fileOffset) + 128 * 64 * 4);
  });

  it('is deterministic for a seed', async () => {
    const again = join(dir, 'again.gguf');
    await writeTinyGguf(again, { seed: 7 });
    expect((await readFile(again)).equals(await readFile(modelPath))).toBe(true);
  });
});

describe('llamaCppModel', () => {
  it('describes itself: id, supported params, native JSON schema', () => {
    expect(model.id).toBe('llama-cpp:tiny-random-llama');
    expect(model.modelPath).toBe(modelPath);
    expect(model.supportsJsonSchema).toBe(true);
    expect(model.supportedParams).toEqual(
      expect.arrayContaining(['temperature', 'topP', 'topK', 'maxOutputTokens', 'seed', 'stopSequences']),
    );
  });

  it(
    'loads the GGUF file lazily, once',
    async () => {
      // A shared Llama instance lets the test count the model loads.
      const llama = await getLlama({ gpu: false, build: 'never', skipDownload: true, progressLogs: false });
      const loadModel = vi.spyOn(llama, 'loadModel');
      const lazy = llamaCppModel({ modelPath, llama, threads: 1, contextSize: 512 });
      try {
        // Creating the model loads nothing (an app starts at once, and pays the load on first use).
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(loadModel).not.toHaveBeenCalled();
        const started = performance.now();
        await Promise.all([lazy.load(), lazy.load(), lazy.generate(request('Hi.', { maxOutputTokens: 2 }))]);
        console.info(`[llama-cpp test] load: ${Math.round(performance.now() - started)} ms`);
        await lazy.load();
        expect((await lazy.generate(request('Hi.', { maxOutputTokens: 2 }))).usage?.outputTokens).toBe(2);
        expect(loadModel).toHaveBeenCalledTimes(1);
      } finally {
        await lazy.dispose();
        await llama.dispose();
      }
    },
    SLOW,
  );

  it(
    'generate returns text and usage',
    async () => {
      const response = await model.generate(request('Say hello.', { maxOutputTokens: 12 }));
      expect(typeof response.text).toBe('string');
      expect(response.text.trim().length).toBeGreaterThan(0);
      expect(response.usage?.outputTokens).toBe(12);
      expect(response.usage?.inputTokens).toBeGreaterThan(10);
      // Greedy decoding by default: the same request gives the same answer.
      expect((await model.generate(request('Say hello.', { maxOutputTokens: 12 }))).text).toBe(response.text);
    },
    SLOW,
  );

  it(
    'stream yields text deltas whose concatenation is the answer, then finish',
    async () => {
      const parts = await collect(model.stream(request('Tell me a story.', { maxOutputTokens: 16 })));
      const deltas = parts.filter((part) => part.type === 'text-delta');
      expect(deltas.length).toBeGreaterThanOrEqual(4);
      expect(deltas.every((part) => part.delta.length > 0)).toBe(true);
      const finish = parts.at(-1)!;
      expect(finish.type).toBe('finish');
      expect(parts.filter((part) => part.type === 'finish')).toHaveLength(1);
      if (finish.type === 'finish') expect(finish.usage?.outputTokens).toBe(16);
      const streamed = deltas.map((part) => part.delta).join('');
      const generated = await model.generate(request('Tell me a story.', { maxOutputTokens: 16 }));
      expect(streamed).toBe(generated.text);
    },
    SLOW,
  );

  it(
    'maxOutputTokens bounds the answer',
    async () => {
      const short = await model.generate(request('Count.', { maxOutputTokens: 3 }));
      const long = await model.generate(request('Count.', { maxOutputTokens: 24 }));
      expect(short.usage?.outputTokens).toBe(3);
      expect(long.usage?.outputTokens).toBe(24);
      // One character per token in this vocabulary.
      expect(short.text.length).toBeLessThanOrEqual(3);
      expect(long.text.length).toBeGreaterThan(short.text.length);
      expect(long.text.startsWith(short.text.trimEnd())).toBe(true);
    },
    SLOW,
  );

  it(
    'maps sampling params: seeded temperature is reproducible, stopSequences cut the answer',
    async () => {
      const sampled = (seed: number) =>
        model.generate(
          request('Anything.', { maxOutputTokens: 20, temperature: 1.2, topK: 40, topP: 0.95, seed }),
        );
      expect((await sampled(42)).text).toBe((await sampled(42)).text);

      const full = (await model.generate(request('Anything.', { maxOutputTokens: 20 }))).text;
      const stop = full.slice(6, 8);
      const cut = await model.generate(request('Anything.', { maxOutputTokens: 20, stopSequences: [stop] }));
      expect(cut.text).toBe(full.slice(0, full.indexOf(stop)));
    },
    SLOW,
  );

  it('refuses ill-typed params with a clear error', async () => {
    await expect(model.generate(request('x', { maxOutputTokens: 'many' }))).rejects.toThrow(
      /modelParams\.maxOutputTokens must be a positive integer/,
    );
    await expect(model.generate(request('x', { temperature: -1 }))).rejects.toThrow(
      /modelParams\.temperature/,
    );
  });

  it(
    'a responseFormat JSON schema is enforced by a grammar, even with random weights',
    async () => {
      const schema: JsonSchema = {
        type: 'object',
        properties: {
          category: { type: 'string', enum: ['ORDER', 'INFO', 'COMPLAINT'] },
          urgent: { type: 'boolean' },
          priority: { type: 'integer' },
          tags: { type: 'array', items: { enum: ['food', 'drink', 'other'] }, maxItems: 3 },
          when: { type: 'string', format: 'date' },
          contact: { anyOf: [{ type: 'null' }, { type: 'boolean' }] },
        },
        required: ['category', 'urgent', 'priority', 'tags'],
        additionalProperties: false,
      };
      for (const params of [{ maxOutputTokens: 300 }, { maxOutputTokens: 300, temperature: 1, seed: 3 }]) {
        const response = await model.generate(
          request('Classify: I want a pizza, quickly!', params, {
            responseFormat: { name: 'classification', schema },
          }),
        );
        const value = JSON.parse(response.text);
        expect(Object.keys(value).sort()).toEqual([
          'category',
          'contact',
          'priority',
          'tags',
          'urgent',
          'when',
        ]);
        expect(['ORDER', 'INFO', 'COMPLAINT']).toContain(value.category);
        expect(typeof value.urgent).toBe('boolean');
        expect(Number.isInteger(value.priority)).toBe(true);
        expect(Array.isArray(value.tags) && value.tags.length <= 3).toBe(true);
        for (const tag of value.tags) expect(['food', 'drink', 'other']).toContain(tag);
        expect(value.when).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect([null, true, false]).toContain(value.contact);
      }
    },
    SLOW,
  );

  it(
    'a streamed structured answer is JSON too',
    async () => {
      const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
      const parts = await collect(
        model.stream(
          request('Is it ok?', { maxOutputTokens: 100 }, { responseFormat: { name: 'ok', schema } }),
        ),
      );
      const text = parts.map((part) => (part.type === 'text-delta' ? part.delta : '')).join('');
      expect(typeof JSON.parse(text).ok).toBe('boolean');
    },
    SLOW,
  );

  it('an already aborted signal rejects at once with its reason', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the user');
    controller.abort(reason);
    expect(await rejectionReason(model.generate(request('x', {}, { signal: controller.signal })))).toBe(
      reason,
    );
    expect(
      await rejectionReason(collect(model.stream(request('x', {}, { signal: controller.signal })))),
    ).toBe(reason);
  });

  it(
    'aborting during a stream stops the generation with the signal reason; the model stays usable',
    async () => {
      const expected = (await model.generate(request('Go on.', { maxOutputTokens: 10 }))).text;
      const controller = new AbortController();
      const reason = new Error('stop now');
      const seen: string[] = [];
      const error = await rejectionReason(
        (async () => {
          for await (const part of model.stream(
            request('Go on.', { maxOutputTokens: 1500 }, { signal: controller.signal }),
          )) {
            if (part.type === 'text-delta') seen.push(part.delta);
            if (seen.length === 3) controller.abort(reason);
          }
        })(),
      );
      expect(error).toBe(reason);
      expect(seen.length).toBeGreaterThanOrEqual(3);
      expect(seen.length).toBeLessThan(1500);
      expect((await model.generate(request('Go on.', { maxOutputTokens: 10 }))).text).toBe(expected);
    },
    SLOW,
  );

  it(
    'aborting a generate call in progress rejects it with the signal reason',
    async () => {
      const reason = new Error('timeout');
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(reason), 30);
      const error = await rejectionReason(
        model.generate(request('Write a lot.', { maxOutputTokens: 1500 }, { signal: controller.signal })),
      );
      expect(error).toBe(reason);
      console.info(`[llama-cpp test] aborted generate after ${Math.round(performance.now() - started)} ms`);
    },
    SLOW,
  );

  it(
    'breaking out of a stream early aborts the generation and frees the sequence',
    async () => {
      for await (const part of model.stream(request('Go on.', { maxOutputTokens: 1500 }))) {
        if (part.type === 'text-delta') break;
      }
      const response = await model.generate(request('Go on.', { maxOutputTokens: 5 }));
      expect(response.usage?.outputTokens).toBe(5);
    },
    SLOW,
  );

  it(
    'requests beyond the sequence pool wait for a free sequence, and can be aborted while waiting',
    async () => {
      const controller = new AbortController();
      const reason = new Error('gave up waiting');
      let waiting: Promise<unknown> | undefined;
      let third: Promise<{ usage?: { outputTokens?: number } }> | undefined;
      let firstDeltas = 0;
      for await (const part of model.stream(request('First.', { maxOutputTokens: 1500 }))) {
        if (part.type !== 'text-delta') continue;
        firstDeltas++;
        if (firstDeltas === 1) {
          // The only sequence is busy: these two wait for it.
          waiting = rejectionReason(
            model.generate(request('Second.', { maxOutputTokens: 5 }, { signal: controller.signal })),
          );
          third = model.generate(request('Third.', { maxOutputTokens: 5 }));
          await new Promise((resolve) => setTimeout(resolve, 20));
          controller.abort(reason);
          expect(await waiting).toBe(reason);
        }
        if (firstDeltas === 3) break; // frees the sequence for the third request
      }
      expect((await third!).usage?.outputTokens).toBe(5);
    },
    SLOW,
  );

  it(
    'with sequences: 2, two requests generate in parallel',
    async () => {
      const parallel = llamaCppModel({ modelPath, threads: 1, contextSize: 512, sequences: 2 });
      try {
        const order: string[] = [];
        const run = async (name: string) => {
          for await (const part of parallel.stream(request(`Request ${name}.`, { maxOutputTokens: 30 })))
            if (part.type === 'text-delta') order.push(name);
        };
        await Promise.all([run('a'), run('b')]);
        expect(order.filter((name) => name === 'a')).toHaveLength(30);
        expect(order.filter((name) => name === 'b')).toHaveLength(30);
        // Interleaved, not one after the other.
        expect(order.slice(0, 30).includes('b')).toBe(true);
      } finally {
        await parallel.dispose();
      }
    },
    SLOW,
  );

  it(
    'a missing file gives a clear error naming the path; a later call retries',
    async () => {
      const missingPath = join(dir, 'models', 'missing-model.gguf');
      const missing = llamaCppModel({ modelPath: missingPath, threads: 1 });
      expect(missing.id).toBe('llama-cpp:missing-model');
      const error = await rejectionReason(missing.generate(request('x')));
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(missingPath);
      expect((error as Error).message).toMatch(/does not exist/);
      await expect(missing.load()).rejects.toThrow(missingPath);
      await missing.dispose();
    },
    SLOW,
  );

  it(
    'a file that is not GGUF gives an error naming the path',
    async () => {
      const badPath = join(dir, 'not-a-model.gguf');
      await writeFile(badPath, 'this is not a GGUF file');
      const bad = llamaCppModel({ modelPath: badPath, threads: 1, logLevel: 'disabled' });
      await expect(bad.generate(request('x'))).rejects.toThrow(badPath);
      await bad.dispose();
    },
    SLOW,
  );

  it(
    'dispose aborts running requests and frees the model; a later request loads it again',
    async () => {
      const own = llamaCppModel({ modelPath, threads: 1, contextSize: 512 });
      // Disposed while loading.
      const loading = rejectionReason(own.generate(request('Long.', { maxOutputTokens: 1500 })));
      await own.dispose();
      expect(String(await loading)).toMatch(/"llama-cpp:tiny-random-llama" was disposed during the request/);

      // Disposed while generating.
      await own.load();
      let disposing: Promise<void> | undefined;
      let deltas = 0;
      const generating = await rejectionReason(
        (async () => {
          for await (const part of own.stream(request('Long.', { maxOutputTokens: 1500 }))) {
            if (part.type === 'text-delta') deltas++;
            if (deltas === 2) disposing ??= own.dispose();
          }
        })(),
      );
      await disposing;
      expect(String(generating)).toMatch(/was disposed during the request/);
      expect(deltas).toBeLessThan(1500);

      const again = await own.generate(request('Short.', { maxOutputTokens: 4 }));
      expect(again.usage?.outputTokens).toBe(4);
      await own.dispose();
      await own.dispose(); // idempotent
    },
    SLOW,
  );
});

// The model loaded above (random weights), through the suite every LanguageModel passes. Greedy
// decoding makes the streamed and generated answers equal; the grammar makes the JSON valid.
describeLanguageModel('llamaCppModel (tiny random GGUF)', async () => ({ model }), {
  timeout: SLOW,
  params: { maxOutputTokens: 12 },
  structuredParams: { maxOutputTokens: 200 },
});

describe('through the Tree Agent engine', () => {
  const VECTORS = { alpha: [1, 0], beta: [0, 1] };

  it(
    'an emit GENERATED node streams the local model answer with agent.stream()',
    async () => {
      const agent = new TreeAgent({
        tree: defineTree({
          nodes: [
            { id: 1, type: 'root' },
            { id: 2, type: 'agent', parent: 1, isPrimary: true },
            {
              id: 3,
              type: 'emit',
              parent: 2,
              chunks: ['alpha'],
              prompt: (_self, context) => ({
                systemPrompt: 'You are terse.',
                prompt: `Greet the user who said: ${context.input.original}`,
                modelParams: { maxOutputTokens: 8, temperature: 0 },
              }),
              emit: () => ({ message: { type: MessageType.GENERATED } }),
            },
          ],
        }),
        models: model,
        embedder: new ExactEmbedder({ vectors: VECTORS }),
      });
      const events: AgentEvent[] = [];
      for await (const event of agent.stream('session-1', 'alpha')) events.push(event);
      const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event] : []));
      expect(deltas.length).toBeGreaterThanOrEqual(2);
      expect(deltas.every((delta) => delta.nodeId === 3)).toBe(true);
      const message = events.find((event) => event.type === 'message');
      expect(message?.type === 'message' && message.message.type).toBe('generated');
      const text = deltas.map((delta) => delta.delta).join('');
      if (message?.type === 'message') expect(message.message.content).toBe(text);
      const end = events.at(-1)!;
      expect(end.type).toBe('turn-end');
      if (end.type === 'turn-end') {
        expect(end.output.messages[0]!.content).toBe(text);
        const call = end.output.trace.find((event) => event.type === 'model-call');
        expect(call).toMatchObject({ modelId: 'llama-cpp:tiny-random-llama', nodeId: 3 });
      }
    },
    SLOW,
  );

  it(
    'an llm node with a responseFormat gets a valid object on the first attempt',
    async () => {
      const specials: LlmAfterSpecial[] = [];
      const schema = {
        type: 'object',
        properties: { category: { type: 'string', enum: ['ORDER', 'INFO'] }, urgent: { type: 'boolean' } },
        required: ['category', 'urgent'],
        additionalProperties: false,
      };
      const agent = new TreeAgent({
        tree: defineTree({
          nodes: [
            { id: 1, type: 'root' },
            { id: 2, type: 'agent', parent: 1, isPrimary: true },
            {
              id: 3,
              type: 'llm',
              parent: 2,
              chunks: ['alpha'],
              prompt: { prompt: 'Classify the message.', modelParams: { maxOutputTokens: 200 } },
              responseFormat: { schema, attemptsLimit: 2 },
              after: (_self, _context, special) => {
                specials.push(special);
                return { nodeTarget: 4, step: 'before' };
              },
            },
            {
              id: 4,
              type: 'emit',
              parent: 2,
              emit: { message: { type: MessageType.STATIC, content: 'done' } },
            },
          ],
        }),
        models: model,
        embedder: new ExactEmbedder({ vectors: VECTORS }),
      });
      const output = await agent.send('session-2', 'alpha');
      expect(output.messages.map((message) => message.content)).toEqual(['done']);
      expect(specials).toHaveLength(1);
      expect(specials[0]).toMatchObject({ failResponseFormat: false, attempts: 1 });
      expect(['ORDER', 'INFO']).toContain((specials[0]!.object as { category: string }).category);
    },
    SLOW,
  );
});
