import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { LanguageModel, ModelRequest, ModelStreamPart, ModelTool } from '../model/language-model.js';
import type { JsonSchema } from '../protocol/json-schema.js';
import { rejectionReason } from '../test/rejection.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/**
 * Creates the model under test, once for the whole suite (local models are slow to load), and
 * disposes of it afterwards.
 */
export type LanguageModelFactory = () => Promise<{ model: LanguageModel; dispose?: () => Promise<void> }>;

/** Options of `describeLanguageModel`: the skip list, a time limit, and request parameters. */
export interface LanguageModelConformanceOptions extends ConformanceOptions {
  /** Time limit of each test, in ms (default vitest's). Local models on small machines need more. */
  timeout?: number;
  /** Model parameters added to every request of the suite, e.g. `{ maxOutputTokens: 24 }` to keep a local model fast. */
  params?: Record<string, unknown>;
  /** Model parameters of the structured-output requests instead of `params` (JSON needs room: e.g. `{ maxOutputTokens: 200 }`). */
  structuredParams?: Record<string, unknown>;
}

/** The JSON schema of the suite's structured requests. */
export const CONFORMANCE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    answer: { type: 'string', enum: ['yes', 'no'] },
    sure: { type: 'boolean' },
  },
  required: ['answer', 'sure'],
  additionalProperties: false,
};

/** The tool of the suite's tool requests. */
export const CONFORMANCE_TOOL = {
  name: 'orderStatus',
  description: 'The status of an order, by its number',
  inputSchema: {
    type: 'object',
    properties: { orderNumber: { type: 'string', enum: ['12345', '67890'] } },
    required: ['orderNumber'],
  },
} as const satisfies ModelTool;

/**
 * What a scripted model or a fake server answers to pass the suite: JSON matching
 * `CONFORMANCE_SCHEMA` when the request asks for structured output, else a short sentence.
 *
 * @example
 * const model = new ScriptedLanguageModel({ answers: (request) => conformanceAnswer(Boolean(request.responseFormat)) });
 */
export function conformanceAnswer(structured: boolean): string {
  return structured ? '{"answer":"yes","sure":true}' : 'Shipping costs 7.90 euros, free above 99 euros.';
}

/**
 * The `LanguageModel` conformance suite: every chat model adapter runs it (AI SDK providers,
 * llama.cpp, the scripted test model). It checks what the engine relies on: a text answer, a stream
 * of non-empty deltas ending with one `finish`, structured output that parses, tools (a conversation
 * with a tool step is accepted, `toolChoice: 'none'` is honoured), abort signals honoured, and a
 * model that stays usable after a stream is abandoned. Call it inside a test file:
 * `describeLanguageModel('llamaCppModel', factory, { params: { maxOutputTokens: 24 } })`.
 */
export function describeLanguageModel(
  name: string,
  factory: LanguageModelFactory,
  options: LanguageModelConformanceOptions = {},
): void {
  describe(`LanguageModel conformance: ${name}`, () => {
    let model: LanguageModel;
    let dispose: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ model, dispose } = await factory());
    }, options.timeout);
    afterAll(async () => {
      await dispose?.();
    }, options.timeout);

    const cases = conformanceCases(`LanguageModel conformance of ${name}`, options);
    const test = (title: string, body: () => Promise<void>) => cases.test(title, body, options.timeout);
    const request = (content: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
      system: 'You are terse.',
      messages: [{ role: 'user', content }],
      params: { ...options.params },
      ...extra,
    });
    const structured = (content: string, extra: Partial<ModelRequest> = {}): ModelRequest =>
      request(content, {
        responseFormat: { name: 'yes_no', schema: CONFORMANCE_SCHEMA },
        params: { ...(options.structuredParams ?? options.params) },
        ...extra,
      });

    test('describes itself: a non-empty id; supportedParams and supportsJsonSchema well formed', async () => {
      expect(typeof model.id).toBe('string');
      expect(model.id.length).toBeGreaterThan(0);
      if (model.supportedParams !== undefined) {
        expect(Array.isArray(model.supportedParams)).toBe(true);
        expect(model.supportedParams.every((param) => typeof param === 'string')).toBe(true);
      }
      if (model.supportsJsonSchema !== undefined) expect(typeof model.supportsJsonSchema).toBe('boolean');
    });

    test('generate answers a non-empty text; usage, when given, counts tokens', async () => {
      const response = await model.generate(request('How much is shipping?'));
      expect(typeof response.text).toBe('string');
      expect(response.text.trim().length).toBeGreaterThan(0);
      for (const count of [response.usage?.inputTokens, response.usage?.outputTokens]) {
        if (count !== undefined) expect(Number.isInteger(count) && count >= 0).toBe(true);
      }
    });

    test('stream yields non-empty text deltas, then exactly one finish, last', async () => {
      const parts = await collect(model.stream(request('How much is shipping?')));
      const deltas = parts.filter((part) => part.type === 'text-delta');
      expect(deltas.length).toBeGreaterThan(0);
      expect(deltas.every((part) => part.type === 'text-delta' && part.delta.length > 0)).toBe(true);
      expect(parts.filter((part) => part.type === 'finish')).toHaveLength(1);
      expect(parts.at(-1)?.type).toBe('finish');
    });

    test('a streamed answer is the generated answer, delta by delta', async () => {
      const generated = await model.generate(request('Tell me about shipping.'));
      const parts = await collect(model.stream(request('Tell me about shipping.')));
      expect(text(parts)).toBe(generated.text);
    });

    test('takes a conversation: no system prompt, earlier assistant turns', async () => {
      const response = await model.generate({
        messages: [
          { role: 'user', content: 'Hi, I ordered a bike.' },
          { role: 'assistant', content: 'Hello! How can I help with your order?' },
          { role: 'user', content: 'How much is shipping?' },
        ],
        params: { ...options.params },
      });
      expect(response.text.trim().length).toBeGreaterThan(0);
    });

    test('structured output: generate answers JSON matching the schema', async () => {
      expectConforming((await model.generate(structured('Is shipping free above 99 euros?'))).text);
    });

    test('structured output: a streamed answer is JSON matching the schema', async () => {
      expectConforming(text(await collect(model.stream(structured('Is shipping free above 99 euros?')))));
    });

    /** A finished tool step: the model called `orderStatus`, and the result came back. */
    const toolStep = (extra: Partial<ModelRequest> = {}): ModelRequest =>
      request('Where is my order 12345?', {
        tools: [CONFORMANCE_TOOL],
        ...extra,
        messages: [
          { role: 'user', content: 'Where is my order 12345?' },
          {
            role: 'assistant',
            content: [
              {
                type: 'tool-call',
                toolCallId: 'call_conformance_1',
                toolName: 'orderStatus',
                input: { orderNumber: '12345' },
              },
            ],
          },
          {
            role: 'tool',
            content: [
              {
                type: 'tool-result',
                toolCallId: 'call_conformance_1',
                toolName: 'orderStatus',
                output: { status: 'shipped yesterday' },
              },
            ],
          },
        ],
      });

    test('tools: supportsTools, when given, is a boolean', async () => {
      if (model.supportsTools !== undefined) expect(typeof model.supportsTools).toBe('boolean');
    });

    test("tools: with toolChoice 'none' the model answers in text and calls nothing", async () => {
      if (model.supportsTools === false) return;
      const response = await model.generate(
        request('Where is my order 12345?', { tools: [CONFORMANCE_TOOL], toolChoice: 'none' }),
      );
      expect(response.toolCalls ?? []).toEqual([]);
      expect(response.text.trim().length).toBeGreaterThan(0);
      const parts = await collect(
        model.stream(request('Where is my order 12345?', { tools: [CONFORMANCE_TOOL], toolChoice: 'none' })),
      );
      expect(parts.some((part) => part.type === 'tool-call')).toBe(false);
      expect(text(parts).trim().length).toBeGreaterThan(0);
    });

    test('tools: takes a conversation with a tool step (a call and its result) and answers it', async () => {
      if (model.supportsTools === false) return;
      const response = await model.generate(toolStep({ toolChoice: 'none' }));
      expect(response.text.trim().length).toBeGreaterThan(0);
      const parts = await collect(model.stream(toolStep({ toolChoice: 'none' })));
      expect(parts.at(-1)?.type).toBe('finish');
    });

    test('tools: a tool call, when the model makes one, names an offered tool and has an id', async () => {
      if (model.supportsTools === false) return;
      const response = await model.generate(toolStep({ toolChoice: 'auto' }));
      for (const call of response.toolCalls ?? []) {
        expect(call.toolName).toBe('orderStatus');
        expect(typeof call.toolCallId).toBe('string');
        expect(call.toolCallId.length).toBeGreaterThan(0);
      }
      expect(typeof response.text).toBe('string');
    });

    test('two requests at once both answer', async () => {
      const [a, b] = await Promise.all([
        model.generate(request('First question.')),
        collect(model.stream(request('Second question.'))),
      ]);
      expect(a.text.trim().length).toBeGreaterThan(0);
      expect(text(b).trim().length).toBeGreaterThan(0);
    });

    test('an aborted signal rejects generate and stream with its reason', async () => {
      const controller = new AbortController();
      const reason = new Error('the turn was cancelled');
      controller.abort(reason);
      expectReason(
        await rejectionReason(model.generate(request('x', { signal: controller.signal }))),
        reason,
      );
      expectReason(
        await rejectionReason(collect(model.stream(request('x', { signal: controller.signal })))),
        reason,
      );
    });

    test('aborting during a stream stops it with the reason; the model stays usable', async () => {
      const controller = new AbortController();
      const reason = new Error('the user left');
      let deltas = 0;
      const error = await rejectionReason(
        (async () => {
          for await (const part of model.stream(
            request('Tell me a long story.', { signal: controller.signal }),
          )) {
            if (part.type === 'text-delta' && ++deltas === 1) controller.abort(reason);
          }
        })(),
      );
      expectReason(error, reason);
      expect((await model.generate(request('Still there?'))).text.trim().length).toBeGreaterThan(0);
    });

    test('leaving a stream early leaves the model usable', async () => {
      for await (const part of model.stream(request('Tell me a long story.'))) {
        if (part.type === 'text-delta') break;
      }
      expect((await model.generate(request('Still there?'))).text.trim().length).toBeGreaterThan(0);
    });

    cases.done();
  });
}

async function collect(parts: AsyncIterable<ModelStreamPart>): Promise<ModelStreamPart[]> {
  const out: ModelStreamPart[] = [];
  for await (const part of parts) out.push(part);
  return out;
}

function text(parts: readonly ModelStreamPart[]): string {
  return parts.map((part) => (part.type === 'text-delta' ? part.delta : '')).join('');
}

function expectConforming(answer: string): void {
  const value = JSON.parse(answer) as Record<string, unknown>;
  expect(Object.keys(value).sort()).toEqual(['answer', 'sure']);
  expect(['yes', 'no']).toContain(value.answer);
  expect(typeof value.sure).toBe('boolean');
}

/** The error is the signal's reason (or wraps it as its `cause`, as HTTP clients do). */
function expectReason(error: unknown, reason: Error): void {
  expect([error, (error as { cause?: unknown } | null)?.cause]).toContain(reason);
}
