import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentEvent, defineTree, MessageType, TreeAgent } from '@treeagent/core';
import type { ModelRequest, ModelStreamPart } from '@treeagent/core/adapter';
import { ExactEmbedder } from '@treeagent/core/test';
import { ChatMLChatWrapper } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LlamaCppModel, llamaCppModel } from './llama-cpp-model.js';
import { writeTinyGguf } from './test-support/write-tiny-gguf.js';

const SLOW = 120_000;

/**
 * ChatML with a function-call prefix the tiny random model (seed 7) happens to write early: "1v"
 * instead of "||call: ". Everything after the prefix is node-llama-cpp's real function calling —
 * detection, the function name and arguments generated under a grammar from the JSON schema,
 * parsing, and the call and its result written back into the next prompt. (A test fixture: real
 * models use their own chat template's syntax.)
 */
class TestFunctionsChatWrapper extends ChatMLChatWrapper {
  override readonly settings = {
    ...ChatMLChatWrapper.defaultSettings,
    functions: {
      ...ChatMLChatWrapper.defaultSettings.functions,
      call: {
        ...ChatMLChatWrapper.defaultSettings.functions.call,
        prefix: '1v',
        prefixAlternateMatches: [],
        optionalPrefixSpace: false,
      },
    },
  };
}

// The arguments are an enum so that the random model's grammar-constrained JSON ends quickly.
const TOOL = {
  name: 'orderStatus',
  description: 'The status of an order, by its number',
  inputSchema: {
    type: 'object',
    properties: { orderNumber: { type: 'string', enum: ['12345', '67890'] } },
    required: ['orderNumber'],
  },
};
const PARAMS = { maxOutputTokens: 200, temperature: 0.8, seed: 3 };

let dir: string;
let model: LlamaCppModel;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'treeagent-llama-tools-'));
  const modelPath = join(dir, 'tiny-random-llama.gguf');
  await writeTinyGguf(modelPath, { seed: 7 });
  model = llamaCppModel({
    modelPath,
    contextSize: 2048,
    threads: 1,
    chatWrapper: new TestFunctionsChatWrapper(),
  });
}, SLOW);

afterAll(async () => {
  await model?.dispose();
  if (dir) await rm(dir, { recursive: true, force: true });
}, SLOW);

const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ role: 'user', content: 'Where is my order 12345?' }],
  params: PARAMS,
  tools: [TOOL],
  ...extra,
});

describe('llamaCppModel tool calling (node-llama-cpp functions, tiny random GGUF)', () => {
  it('says it can call tools', () => {
    expect(model.supportsTools).toBe(true);
  });

  it(
    'generate: the function call the model writes comes back as a tool call with arguments matching the schema',
    async () => {
      const response = await model.generate(request());
      expect(response.toolCalls).toHaveLength(1);
      const [call] = response.toolCalls!;
      expect(call!.toolName).toBe('orderStatus');
      expect(call!.toolCallId).toMatch(/^call_\d+$/);
      expect(['12345', '67890']).toContain((call!.input as { orderNumber: string }).orderNumber);
    },
    SLOW,
  );

  it(
    'stream: the text before the call streams as deltas, then the tool call, then finish',
    async () => {
      const parts: ModelStreamPart[] = [];
      for await (const part of model.stream(request())) parts.push(part);
      const types = parts.map((part) => part.type);
      expect(types.filter((type) => type === 'tool-call')).toHaveLength(1);
      expect(types.at(-1)).toBe('finish');
      expect(types.lastIndexOf('text-delta')).toBeLessThan(types.indexOf('tool-call'));
    },
    SLOW,
  );

  it(
    "toolChoice 'none': no functions are offered, the model answers in text",
    async () => {
      const response = await model.generate(
        request({ toolChoice: 'none', params: { ...PARAMS, maxOutputTokens: 12 } }),
      );
      expect(response.toolCalls ?? []).toEqual([]);
      expect(response.text.length).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    'through the engine: a GENERATED emit calls the tool, gets its result, and streams its answer',
    async () => {
      const calls: unknown[] = [];
      const agent = new TreeAgent({
        tree: defineTree({
          nodes: [
            { id: 1, type: 'root' },
            { id: 2, type: 'agent', parent: 1, isPrimary: true },
            {
              id: 3,
              type: 'emit',
              parent: 2,
              chunks: ['order'],
              prompt: { prompt: 'Where is my order 12345?', modelParams: PARAMS },
              tools: {
                orderStatus: {
                  description: TOOL.description,
                  parameters: TOOL.inputSchema,
                  execute: (_self, _context, { input }) => {
                    calls.push(input);
                    return { status: 'shipped yesterday' };
                  },
                },
              },
              maxToolSteps: 1,
              emit: { message: { type: MessageType.GENERATED } },
            },
          ],
        }),
        models: model,
        embedder: new ExactEmbedder({ vectors: { order: [1, 0] } }),
      });
      const events: AgentEvent[] = [];
      for await (const event of agent.stream('s', 'order')) events.push(event);
      expect(calls).toHaveLength(1);
      const types = events.map((event) => event.type);
      expect(types.filter((type) => type === 'tool-call' || type === 'tool-result')).toEqual([
        'tool-call',
        'tool-result',
      ]);
      expect(events.find((event) => event.type === 'tool-result')).toMatchObject({
        output: { status: 'shipped yesterday' },
      });
      // Two model calls: the one that called the tool, and the answer after its result.
      expect(types.filter((type) => type === 'model-call')).toHaveLength(2);
      const end = events.at(-1) as Extract<AgentEvent, { type: 'turn-end' }>;
      expect(end.output.status).toBe('answered');
      expect(end.output.messages[0]!.content!.length).toBeGreaterThan(0);
    },
    SLOW,
  );
});
