import {
  type AgentEvent,
  defineTool,
  defineTree,
  type LlmAfterSpecial,
  type NodeDefinition,
  TreeAgent,
} from '@treeagent/core';
import { ExactEmbedder } from '@treeagent/core/test';
import { afterEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createModel } from './providers.js';
import { type FakeOpenAiServer, startFakeOpenAiServer } from './test-support/fake-openai-server.js';

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const embedder = new ExactEmbedder({ vectors: { ordine: [1, 0] }, fallback: [1, 0] });
const executed: unknown[] = [];

const orderStatus = defineTool({
  description: 'Lo stato di un ordine dal suo numero',
  parameters: z.object({ orderNumber: z.string().regex(/^\d{5,}$/) }),
  execute: (_self, _context, { input }) => {
    executed.push(input);
    return { orderNumber: input.orderNumber, status: 'spedito ieri', eta: '2 giorni lavorativi' };
  },
});

function agentWith(node: Partial<NodeDefinition>, onAfter?: (special: LlmAfterSpecial) => void) {
  const tree = defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback: () => ({ nodeTarget: 9 }) },
      {
        id: 3,
        parent: 2,
        chunks: ['ordine'],
        tools: { orderStatus },
        ...(node.type === 'llm'
          ? {
              after: (_self: unknown, _context: unknown, special: LlmAfterSpecial) => {
                onAfter?.(special);
                return { nodeTarget: 9, step: 'before' as const };
              },
            }
          : {}),
        ...node,
      } as NodeDefinition,
      { id: 9, type: 'emit', parent: 2, emit: { message: { type: 'static', content: 'Fine.' } } },
    ],
  });
  const model = createModel(
    { provider: 'openai-compatible', baseURL: server!.baseURL, model: 'tiny' },
    { maxRetries: 0 },
  );
  return new TreeAgent({ tree, embedder, models: model });
}

describe('tool calling through an OpenAI-compatible server (real AI SDK provider code)', () => {
  test('an llm node: the tool call comes back as tool_calls, runs, and its result goes back as a tool message', async () => {
    executed.length = 0;
    server = await startFakeOpenAiServer({
      answers: [
        { toolCalls: [{ id: 'call_a', name: 'orderStatus', arguments: '{"orderNumber":"12345"}' }] },
        "L'ordine 12345 è stato spedito ieri.",
      ],
    });
    let special: LlmAfterSpecial | undefined;
    const agent = agentWith({ type: 'llm', prompt: { prompt: "Dov'è l'ordine 12345?" } }, (s) => {
      special = s;
    });
    const output = await agent.send('s', 'ordine');
    expect(special?.text).toBe("L'ordine 12345 è stato spedito ieri.");
    expect(executed).toEqual([{ orderNumber: '12345' }]);
    const [first, second] = server.chatRequests;
    expect(first!.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'orderStatus',
          description: 'Lo stato di un ordine dal suo numero',
          parameters: expect.objectContaining({
            type: 'object',
            properties: { orderNumber: { type: 'string', pattern: '^\\d{5,}$' } },
            required: ['orderNumber'],
          }),
        },
      },
    ]);
    expect(first!.tool_choice).toBe('auto');
    expect(second!.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'orderStatus', arguments: '{"orderNumber":"12345"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_a',
        content: JSON.stringify({ orderNumber: '12345', status: 'spedito ieri', eta: '2 giorni lavorativi' }),
      },
    ]);
    expect(output.trace.filter((event) => event.type.startsWith('tool-')).map((event) => event.type)).toEqual(
      ['tool-call', 'tool-result'],
    );
  });

  test('a GENERATED emit: the tool call streams in argument fragments, then the answer streams as text', async () => {
    executed.length = 0;
    server = await startFakeOpenAiServer({
      answers: [
        {
          toolCalls: [
            { name: 'orderStatus', arguments: '{"orderNumber": "67890"}' },
            { name: 'orderStatus', arguments: '{"orderNumber": "12345"}' },
          ],
        },
        'Entrambi gli ordini sono partiti ieri.',
      ],
    });
    const agent = agentWith({ type: 'emit', emit: { message: { type: 'generated' } } });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream('s', 'ordine')) events.push(event);
    expect(executed).toEqual([{ orderNumber: '67890' }, { orderNumber: '12345' }]);
    const calls = events.filter((event) => event.type === 'tool-call');
    expect(calls.map((event) => (event as { input: unknown }).input)).toEqual([
      { orderNumber: '67890' },
      { orderNumber: '12345' },
    ]);
    const deltas = events.filter((event) => event.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(3);
    const end = events.at(-1) as Extract<AgentEvent, { type: 'turn-end' }>;
    expect(end.output.messages[0]!.content).toBe('Entrambi gli ordini sono partiti ieri.');
    expect(server.chatRequests.every((request) => request.stream === true)).toBe(true);
    const toolMessages = server.chatRequests[1]!.messages.filter(
      (message: { role: string }) => message.role === 'tool',
    );
    expect(toolMessages.map((message: { tool_call_id: string }) => message.tool_call_id)).toEqual([
      'call_1_1',
      'call_1_2',
    ]);
  });

  test('arguments that do not match the parameters go back to the model as an error, and it corrects itself', async () => {
    executed.length = 0;
    server = await startFakeOpenAiServer({
      answers: [
        { toolCalls: [{ name: 'orderStatus', arguments: '{"orderNumber":' }] },
        { toolCalls: [{ name: 'orderStatus', arguments: '{"orderNumber":"12"}' }] },
        { toolCalls: [{ name: 'orderStatus', arguments: '{"orderNumber":"12345"}' }] },
        'Spedito ieri.',
      ],
    });
    const agent = agentWith({ type: 'emit', emit: { message: { type: 'generated' } } });
    const output = await agent.send('s', 'ordine');
    expect(output.messages[0]!.content).toBe('Spedito ieri.');
    expect(executed).toEqual([{ orderNumber: '12345' }]);
    const [notJson, wrong] = [1, 2].map((index) => server!.chatRequests[index]!.messages.at(-1));
    expect(notJson.role).toBe('tool');
    expect(notJson.content).toContain(
      'Invalid arguments for tool "orderStatus": the arguments must be a JSON object.',
    );
    expect(wrong.content).toBe(
      'Invalid arguments for tool "orderStatus": orderNumber: Invalid string: must match pattern /^\\d{5,}$/',
    );
    expect(
      output.trace.flatMap((event) => (event.type === 'tool-result' ? [event.error ?? 'ok'] : [])),
    ).toEqual(['INVALID_TOOL_INPUT', 'INVALID_TOOL_INPUT', 'ok']);
  });

  test('after maxToolSteps the last request forbids tools (tool_choice none), so the model answers', async () => {
    server = await startFakeOpenAiServer({
      answers: (body) =>
        body.tool_choice === 'none'
          ? 'Non riesco a verificare, riprova più tardi.'
          : { toolCalls: [{ name: 'orderStatus', arguments: '{"orderNumber":"12345"}' }] },
    });
    const agent = agentWith({ type: 'emit', emit: { message: { type: 'generated' } }, maxToolSteps: 1 });
    const output = await agent.send('s', 'ordine');
    expect(server.chatRequests.map((request) => request.tool_choice)).toEqual(['auto', 'none']);
    expect(output.messages[0]!.content).toBe('Non riesco a verificare, riprova più tardi.');
  });
});
