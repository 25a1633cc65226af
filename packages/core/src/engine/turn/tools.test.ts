import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TreeAgentError } from '../../errors/tree-agent-error.js';
import {
  defineTool,
  defineTree,
  InMemorySessionStore,
  type LlmAfterSpecial,
  MessageType,
  type NodeDefinition,
  type ToolSet,
} from '../../index.js';
import { ScriptedLanguageModel } from '../../test/index.js';
import { collect, eventsOf, say, testAgent } from '../../test-support/engine-fixtures.js';

const VECTORS: Record<string, number[]> = { order: [1, 0], other: [0, 1] };

/** The order database the tools read (a fixture). */
const ORDERS: Record<string, string> = { '12345': 'shipped yesterday', '67890': 'being packed' };

const orderStatus = defineTool({
  description: 'The status of an order, by its number',
  parameters: z.object({ orderNumber: z.string().regex(/^\d{5}$/) }),
  execute: (_self, _context, { input }) => ({
    orderNumber: input.orderNumber,
    status: ORDERS[input.orderNumber] ?? 'unknown',
  }),
});

function tree(
  node: Partial<NodeDefinition> & { type: 'llm' | 'emit' },
  afterLlm?: (s: LlmAfterSpecial) => void,
) {
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root' },
    {
      id: 2,
      type: 'agent',
      parent: 1,
      isPrimary: true,
      fallback: () => ({ nodeTarget: 9 }),
    },
    {
      id: 3,
      parent: 2,
      chunks: ['order'],
      ...(node.type === 'llm'
        ? {
            after: (_self: unknown, _context: unknown, special: LlmAfterSpecial) => {
              afterLlm?.(special);
              return { nodeTarget: 4, step: 'before' as const };
            },
          }
        : { emit: { message: { type: MessageType.GENERATED } } }),
      ...node,
    } as NodeDefinition,
    {
      id: 4,
      type: 'emit',
      parent: 3,
      emit: (_self, context) => say(String(context.sessionState.get('answer') ?? 'done')),
    },
    { id: 9, type: 'emit', parent: 2, emit: say('Sorry, something went wrong.') },
  ];
  return nodes;
}

describe('tools of llm nodes', () => {
  it('runs the model’s tool calls, sends the results back and hands the final answer to after', async () => {
    const model = new ScriptedLanguageModel({
      answers: [
        { toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: '12345' } }] },
        'Order 12345 shipped yesterday.',
      ],
    });
    let special: LlmAfterSpecial | undefined;
    const agent = testAgent(
      tree({ type: 'llm', tools: { orderStatus }, prompt: { prompt: 'Where is order 12345?' } }, (s) => {
        special = s;
      }),
      { vectors: VECTORS, models: model },
    );
    const output = await agent.send('s', 'order');
    expect(special?.text).toBe('Order 12345 shipped yesterday.');
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0]!.tools).toEqual([
      {
        name: 'orderStatus',
        description: 'The status of an order, by its number',
        inputSchema: {
          type: 'object',
          properties: { orderNumber: { type: 'string', pattern: '^\\d{5}$' } },
          required: ['orderNumber'],
        },
      },
    ]);
    expect(model.calls[0]!.toolChoice).toBe('auto');
    expect(model.calls[1]!.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: [
          {
            type: 'tool-call',
            toolCallId: 'call-1-1',
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
            toolCallId: 'call-1-1',
            toolName: 'orderStatus',
            output: { orderNumber: '12345', status: 'shipped yesterday' },
          },
        ],
      },
    ]);
    const [call] = eventsOf(output.trace, 'tool-call');
    const [result] = eventsOf(output.trace, 'tool-result');
    expect(call).toEqual({
      type: 'tool-call',
      nodeId: 3,
      toolCallId: 'call-1-1',
      toolName: 'orderStatus',
      step: 1,
      input: { orderNumber: '12345' },
    });
    expect(result).toMatchObject({
      nodeId: 3,
      toolCallId: 'call-1-1',
      output: { orderNumber: '12345', status: 'shipped yesterday' },
    });
    expect(result).not.toHaveProperty('error');
    const types = output.trace.map((event) => event.type);
    expect(types.indexOf('tool-call')).toBeLessThan(types.indexOf('tool-result'));
    expect(eventsOf(output.trace, 'model-call')).toHaveLength(2);
  });

  it('takes JSON Schema parameters, validated before the tool runs', async () => {
    const seen: unknown[] = [];
    const tools: ToolSet = {
      add: {
        parameters: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
        },
        execute: (_self, _context, { input }) => {
          seen.push(input);
          return input.a + input.b;
        },
      },
    };
    const model = new ScriptedLanguageModel({
      answers: [
        { toolCalls: [{ toolName: 'add', input: { a: 1 } }] },
        { toolCalls: [{ toolName: 'add', input: { a: 1, b: 2 } }] },
        '3',
      ],
    });
    const output = await testAgent(tree({ type: 'llm', tools }), { vectors: VECTORS, models: model }).send(
      's',
      'order',
    );
    expect(seen).toEqual([{ a: 1, b: 2 }]);
    const results = eventsOf(output.trace, 'tool-result');
    expect(results[0]).toMatchObject({ error: 'INVALID_TOOL_INPUT', step: 1 });
    expect(String(results[0]!.output)).toContain("must have required property 'b'");
    expect(results[1]).toMatchObject({ output: 3, step: 2 });
    // The invalid call went back to the model as an error result, so it could correct itself.
    expect(model.calls[1]!.messages.at(-1)!.content).toEqual([
      expect.objectContaining({ type: 'tool-result', isError: true }),
    ]);
  });

  it('answers a call of an unknown tool with the list of tools, and the model goes on', async () => {
    const model = new ScriptedLanguageModel({
      answers: [{ toolCalls: [{ toolName: 'refund', input: {} }] }, 'I cannot do refunds.'],
    });
    const output = await testAgent(tree({ type: 'llm', tools: { orderStatus } }), {
      vectors: VECTORS,
      models: model,
    }).send('s', 'order');
    expect(eventsOf(output.trace, 'tool-result')[0]).toMatchObject({
      error: 'UNKNOWN_TOOL',
      output: 'There is no tool named "refund". The tools are: orderStatus.',
    });
    expect(output.status).toBe('answered');
  });

  it('after maxToolSteps steps with tool calls, asks for a text answer with toolChoice none', async () => {
    const model = new ScriptedLanguageModel({
      answers: (request) =>
        request.toolChoice === 'none'
          ? 'Giving up on tools.'
          : { toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: '12345' } }] },
    });
    let special: LlmAfterSpecial | undefined;
    await testAgent(
      tree({ type: 'llm', tools: { orderStatus }, maxToolSteps: 2 }, (s) => {
        special = s;
      }),
      { vectors: VECTORS, models: model },
    ).send('s', 'order');
    expect(model.calls.map((call) => call.toolChoice)).toEqual(['auto', 'auto', 'none']);
    expect(special?.text).toBe('Giving up on tools.');
  });

  it('runs several calls of one step in order, each with its own id', async () => {
    const model = new ScriptedLanguageModel({
      answers: [
        {
          toolCalls: [
            { toolName: 'orderStatus', input: { orderNumber: '12345' } },
            { toolName: 'orderStatus', input: { orderNumber: '67890' } },
          ],
        },
        'Both found.',
      ],
    });
    const output = await testAgent(tree({ type: 'llm', tools: { orderStatus } }), {
      vectors: VECTORS,
      models: model,
    }).send('s', 'order');
    expect(eventsOf(output.trace, 'tool-result').map((event) => [event.toolCallId, event.output])).toEqual([
      ['call-1-1', { orderNumber: '12345', status: 'shipped yesterday' }],
      ['call-1-2', { orderNumber: '67890', status: 'being packed' }],
    ]);
  });

  it('uses the tools with a responseFormat: the final answer is validated JSON', async () => {
    const model = new ScriptedLanguageModel({
      answers: [
        { toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: '67890' } }] },
        '{"status":"being packed"}',
      ],
    });
    let special: LlmAfterSpecial | undefined;
    await testAgent(
      tree(
        {
          type: 'llm',
          tools: { orderStatus },
          responseFormat: {
            schema: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
          },
        },
        (s) => {
          special = s;
        },
      ),
      { vectors: VECTORS, models: model },
    ).send('s', 'order');
    expect(special).toMatchObject({ object: { status: 'being packed' }, failResponseFormat: false });
    expect(model.calls[0]!.responseFormat).toBeDefined();
  });
});

describe('tools of GENERATED emits', () => {
  it('streams the answer written after the tool calls; tool events come before its text', async () => {
    const model = new ScriptedLanguageModel({
      answers: [
        { text: 'Let me check. ', toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: '12345' } }] },
        'Your order shipped yesterday.',
      ],
    });
    const agent = testAgent(tree({ type: 'emit', tools: { orderStatus } }), {
      vectors: VECTORS,
      models: model,
    });
    const events = await collect(agent.stream('s', 'order'));
    const types = events.map((event) => event.type);
    expect(types.indexOf('tool-call')).toBeGreaterThan(types.indexOf('message-start'));
    expect(types.indexOf('tool-result')).toBeLessThan(types.lastIndexOf('text-delta'));
    const message = eventsOf(events, 'message')[0]!.message;
    expect(message.content).toBe('Let me check. Your order shipped yesterday.');
    expect(
      eventsOf(events, 'text-delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe(message.content);
  });
});

describe('tools that fail', () => {
  const failing = (execute: ToolSet[string]['execute'], timeoutMs?: number): ToolSet => ({
    orderStatus: {
      parameters: { type: 'object', properties: { orderNumber: { type: 'string' } } },
      execute,
      ...(timeoutMs ? { timeoutMs } : {}),
    },
  });
  const callingModel = () =>
    new ScriptedLanguageModel({
      answers: [
        { text: 'Checking… ', toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: '12345' } }] },
        'never',
      ],
    });

  it('a tool that throws goes to the agent’s fallback, naming the node and the tool; nothing of the turn is half-saved', async () => {
    const store = new InMemorySessionStore();
    const agent = testAgent(
      tree({
        type: 'emit',
        tools: failing((_self, context) => {
          context.sessionState.set('touched', true);
          throw new Error('orders database unreachable');
        }),
      }),
      { vectors: VECTORS, models: callingModel(), sessionStore: store },
    );
    const output = await agent.send('s', 'order');
    expect(output.status).toBe('fallback-error');
    expect(output.messages.map((message) => message.content)).toEqual(['Sorry, something went wrong.']);
    const fallback = eventsOf(output.trace, 'fallback')[0]!;
    expect(fallback.error).toMatchObject({
      code: 'CALLBACK_ERROR',
      nodeId: 3,
      callback: 'tools.orderStatus',
    });
    expect(fallback.error.message).toContain('orders database unreachable');
    expect(eventsOf(output.trace, 'tool-result')[0]).toMatchObject({ error: 'CALLBACK_ERROR' });
    const history = await agent.history('s');
    expect(history.map((entry) => entry.content)).toEqual(['order', 'Sorry, something went wrong.']);
  });

  it('a tool that outlives its timeoutMs is aborted (its signal fires) and goes to the fallback as TIMEOUT', async () => {
    let signal: AbortSignal | undefined;
    const agent = testAgent(
      tree({
        type: 'llm',
        tools: failing(
          (_self, _context, call) =>
            new Promise((resolve) => {
              signal = call.signal;
              setTimeout(resolve, 5_000).unref();
            }),
          30,
        ),
      }),
      { vectors: VECTORS, models: callingModel() },
    );
    const output = await agent.send('s', 'order');
    expect(output.status).toBe('fallback-error');
    expect(eventsOf(output.trace, 'fallback')[0]!.error).toMatchObject({
      code: 'TIMEOUT',
      callback: 'tools.orderStatus',
    });
    expect(eventsOf(output.trace, 'fallback')[0]!.error.message).toContain('within 30 ms (its timeoutMs)');
    expect(signal?.aborted).toBe(true);
  });

  it('cancelling the interaction aborts the running tool’s signal and saves nothing', async () => {
    let signal: AbortSignal | undefined;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const store = new InMemorySessionStore();
    const agent = testAgent(
      tree({
        type: 'emit',
        tools: failing(
          (_self, _context, call) =>
            new Promise((_resolve, reject) => {
              signal = call.signal;
              call.signal.addEventListener('abort', () => reject(call.signal.reason));
              started();
            }),
        ),
      }),
      { vectors: VECTORS, models: callingModel(), sessionStore: store },
    );
    for await (const event of agent.stream('s', 'order')) {
      if (event.type === 'tool-call') {
        await running;
        break;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBeDefined();
    expect(await agent.history('s')).toEqual([]);
  });

  it('a model that cannot call tools is a MODEL error saying so, handled by the fallback', async () => {
    const model = new ScriptedLanguageModel({ answers: 'x', supportsTools: false, id: 'plain' });
    const output = await testAgent(tree({ type: 'llm', tools: { orderStatus } }), {
      vectors: VECTORS,
      models: model,
    }).send('s', 'order');
    const error = eventsOf(output.trace, 'fallback')[0]!.error;
    expect(error.code).toBe('MODEL');
    expect(error.message).toContain('model "plain" cannot call tools');
    expect(model.calls).toHaveLength(0);
  });

  it('a tool result that is not JSON is the tool’s error', async () => {
    const output = await testAgent(tree({ type: 'llm', tools: failing(() => ({ big: 1n })) }), {
      vectors: VECTORS,
      models: callingModel(),
    }).send('s', 'order');
    expect(eventsOf(output.trace, 'fallback')[0]!.error).toMatchObject({
      code: 'INVALID_CALLBACK_OUTPUT',
      callback: 'tools.orderStatus',
    });
  });
});

describe('tool definitions are validated with the tree', () => {
  const define = (extra: Record<string, unknown>) => () =>
    defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'llm', parent: 2, chunks: ['order'], ...extra } as NodeDefinition,
      ],
    });

  it.each([
    [{ tools: { 'order status': orderStatus } }, 'tool name "order status" is not accepted'],
    [{ tools: { x: { parameters: { type: 'object' } } } }, 'tool "x" has no "execute" function'],
    [
      { tools: { x: { parameters: { type: 'string' }, execute: () => 1 } } },
      'tool arguments are always an object',
    ],
    [{ tools: { x: { execute: () => 1 } } }, 'tool "x" has no "parameters"'],
    [{ tools: { x: { ...orderStatus, timeoutMs: -1 } } }, 'the timeoutMs of tool "x" is -1'],
    [{ tools: { orderStatus }, maxToolSteps: 0 }, '"maxToolSteps" is 0'],
    [{ maxToolSteps: 3 }, '"maxToolSteps" has no effect on a node without "tools"'],
    [{ tools: [orderStatus] }, '"tools" must be an object of name → tool'],
  ])('%j is refused', (extra, message) => {
    let error: unknown;
    try {
      define(extra)();
    } catch (caught) {
      error = caught;
    }
    expect(TreeAgentError.hasCode(error, 'TREE_VALIDATION')).toBe(true);
    expect(String((error as Error).message)).toContain(message);
  });

  it('accepts tools on llm and emit nodes', () => {
    expect(() => define({ tools: { orderStatus }, maxToolSteps: 3 })()).not.toThrow();
  });
});
