import { describe, expect, it } from 'vitest';
import {
  type ExtendMessageSpecial,
  type LlmAfterSpecial,
  MessageType,
  type NodeDefinition,
} from '../../index.js';
import { ScriptedLanguageModel } from '../../test/index.js';
import { rejection } from '../../test/rejection.js';
import {
  collect,
  eventsOf,
  executed,
  say,
  type TestAgentOptions,
  testAgent,
} from '../../test-support/engine-fixtures.js';

const VECTORS: Record<string, number[]> = {
  alpha: [1, 0, 0],
  beta: [0, 1, 0],
  gamma: [0, 0, 1],
};

const makeAgent = (nodes: NodeDefinition[], options: TestAgentOptions = {}) =>
  testAgent(nodes, { vectors: VECTORS, models: undefined, ...options });

describe('emit GENERATED', () => {
  function generatedAgent(model: ScriptedLanguageModel) {
    return makeAgent(
      [
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
          }),
          emit: () => ({ message: { type: MessageType.GENERATED }, options: ['more'] }),
        },
      ],
      { models: model },
    );
  }

  it('streams the model answer token by token as text-delta events through stream()', async () => {
    const model = new ScriptedLanguageModel({ answers: 'Hello there, friend!' });
    const agent = generatedAgent(model);
    const events = await collect(agent.stream('s', 'alpha'));
    const deltas = eventsOf(events, 'text-delta');
    expect(deltas.map((d) => d.delta)).toEqual(['Hello ', 'there, ', 'friend!']);
    expect(deltas.every((d) => d.messageId === '1-1' && d.nodeId === 3)).toBe(true);
    const types = events.map((e) => e.type);
    const start = types.indexOf('message-start');
    const message = types.indexOf('message');
    expect(start).toBeLessThan(types.indexOf('text-delta'));
    expect(types.lastIndexOf('text-delta')).toBeLessThan(message);
    expect(eventsOf(events, 'message-start')[0]).toMatchObject({
      messageId: '1-1',
      messageType: 'generated',
    });
    expect(eventsOf(events, 'message')[0]!.message).toMatchObject({
      type: 'generated',
      content: 'Hello there, friend!',
      options: ['more'],
    });
    const end = events.at(-1)!;
    expect(end.type).toBe('turn-end');
    if (end.type === 'turn-end') {
      expect(end.output.messages[0]!.content).toBe('Hello there, friend!');
      expect(end.output.trace.some((event) => event.type === 'text-delta')).toBe(false);
    }
    expect(model.calls[0]).toMatchObject({
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Greet the user who said: alpha' }],
    });
    expect((await agent.history('s'))[1]).toMatchObject({
      role: 'assistant',
      content: 'Hello there, friend!',
    });
  });

  it('send() returns the whole generated text', async () => {
    const model = new ScriptedLanguageModel({ answers: 'one two three' });
    const output = await generatedAgent(model).send('s', 'alpha');
    expect(output.messages[0]!.content).toBe('one two three');
    expect(eventsOf(output.trace, 'model-call')[0]).toMatchObject({
      nodeId: 3,
      purpose: 'emit',
      modelId: 'scripted',
    });
  });

  it('an emit node with only a prompt sends a GENERATED message', async () => {
    const model = new ScriptedLanguageModel({ answers: 'generated' });
    const agent = makeAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], prompt: { prompt: 'say something' } },
      ],
      { models: model },
    );
    const output = await agent.send('s', 'alpha');
    expect(output.messages[0]).toMatchObject({ type: 'generated', content: 'generated' });
  });

  it('GENERATED with content is an error', async () => {
    const model = new ScriptedLanguageModel({ answers: 'unused' });
    const agent = makeAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['alpha'],
          emit: () => ({ message: { type: MessageType.GENERATED, content: 'fixed text' } }),
        },
      ],
      { models: model },
    );
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('INVALID_CALLBACK_OUTPUT');
    expect(error.details.field).toBe('message.content');
    expect(model.calls).toHaveLength(0);
  });

  it('a GENERATED message without a configured model is MODEL_NOT_CONFIGURED', async () => {
    const agent = makeAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['alpha'],
        emit: { message: { type: MessageType.GENERATED } },
      },
    ]);
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('MODEL_NOT_CONFIGURED');
    expect(error.nodeId).toBe(3);
  });

  it('a model failure is a MODEL error naming the node', async () => {
    const model = new ScriptedLanguageModel({ answers: new Error('rate limited') });
    const error = await rejection(generatedAgent(model).send('s', 'alpha'));
    expect(error.code).toBe('MODEL');
    expect(error.nodeId).toBe(3);
    expect(error.message).toContain('rate limited');
  });

  it('a STATIC and a NONE message do not call the model', async () => {
    const model = new ScriptedLanguageModel({ answers: 'unused' });
    const agent = makeAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['alpha'],
          isMute: true,
          emit: say('static'),
          after: () => ({ nodeTarget: 4, step: 'before' }),
        },
        {
          id: 4,
          type: 'emit',
          parent: 2,
          emit: { message: { type: MessageType.NONE }, options: ['a', 'b'], sources: [{ content: 'src' }] },
        },
      ],
      { models: model },
    );
    const output = await agent.send('s', 'alpha');
    expect(output.messages.map((m) => [m.type, m.content])).toEqual([
      ['static', 'static'],
      ['none', null],
    ]);
    expect(output.messages[1]!.options).toEqual(['a', 'b']);
    expect(output.messages[1]!.sources).toEqual([{ content: 'src' }]);
    expect(model.calls).toHaveLength(0);
  });
});

describe('llm node', () => {
  const schema = {
    type: 'object',
    properties: { category: { type: 'string', enum: ['ORDER', 'OTHER'] } },
    required: ['category'],
    additionalProperties: false,
  };

  function llmAgent(
    model: ScriptedLanguageModel,
    responseFormat: NonNullable<Extract<NodeDefinition, { type: 'llm' }>['responseFormat']> | undefined,
    specials: LlmAfterSpecial[],
  ) {
    return makeAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'llm',
          parent: 2,
          chunks: ['alpha'],
          prompt: { prompt: 'Classify the message.' },
          responseFormat,
          after: (_self, _context, special) => {
            specials.push(special);
            return { nodeTarget: special.failResponseFormat ? 5 : 4, step: 'before' };
          },
        },
        { id: 4, type: 'emit', parent: 2, emit: say('classified') },
        { id: 5, type: 'emit', parent: 2, emit: say('could not classify') },
      ],
      { models: model },
    );
  }

  it('without responseFormat, after gets the text', async () => {
    const specials: LlmAfterSpecial[] = [];
    const model = new ScriptedLanguageModel({ answers: 'free text' });
    const output = await llmAgent(model, undefined, specials).send('s', 'alpha');
    expect(specials).toEqual([
      { kind: 'llm', text: 'free text', object: null, failResponseFormat: false, attempts: 1 },
    ]);
    expect(executed(output)).toEqual([3, 4]);
    expect(model.calls[0]!.responseFormat).toBeUndefined();
    expect(model.calls[0]!.messages).toEqual([{ role: 'user', content: 'Classify the message.' }]);
  });

  it('a valid JSON answer is parsed into special.object', async () => {
    const specials: LlmAfterSpecial[] = [];
    const model = new ScriptedLanguageModel({ answers: '{"category":"ORDER"}' });
    await llmAgent(model, { schema, attemptsLimit: 3 }, specials).send('s', 'alpha');
    expect(specials[0]).toMatchObject({
      object: { category: 'ORDER' },
      failResponseFormat: false,
      attempts: 1,
    });
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.responseFormat).toEqual({ name: 'response', schema });
  });

  it('invalid answers are retried with the validation error until one matches', async () => {
    const specials: LlmAfterSpecial[] = [];
    const model = new ScriptedLanguageModel({
      answers: ['not json', '{"category":"SOMETHING"}', '```json\n{"category":"OTHER"}\n```'],
    });
    const output = await llmAgent(model, () => ({ schema, attemptsLimit: 3 }), specials).send('s', 'alpha');
    expect(specials[0]).toMatchObject({
      object: { category: 'OTHER' },
      failResponseFormat: false,
      attempts: 3,
    });
    expect(model.calls).toHaveLength(3);
    const retry = model.calls[1]!.messages;
    expect(retry).toHaveLength(3);
    expect(retry[1]).toEqual({ role: 'assistant', content: 'not json' });
    expect(retry[2]!.role).toBe('user');
    expect(String(retry[2]!.content)).toContain('JSON');
    expect(eventsOf(output.trace, 'model-call').map((e) => e.attempt)).toEqual([1, 2, 3]);
    expect(executed(output)).toEqual([3, 4]);
  });

  it('after attemptsLimit invalid answers, after runs with failResponseFormat', async () => {
    const specials: LlmAfterSpecial[] = [];
    const model = new ScriptedLanguageModel({ answers: '{"category": 7}' });
    const output = await llmAgent(model, { schema, attemptsLimit: 2 }, specials).send('s', 'alpha');
    expect(specials[0]).toMatchObject({
      object: null,
      failResponseFormat: true,
      attempts: 2,
      text: '{"category": 7}',
    });
    expect(model.calls).toHaveLength(2);
    expect(executed(output)).toEqual([3, 5]);
    expect(output.messages[0]!.content).toBe('could not classify');
  });

  it('accepts the OpenAI { name, schema } wrapper and takes its name', async () => {
    const specials: LlmAfterSpecial[] = [];
    const model = new ScriptedLanguageModel({ answers: '{"category":"ORDER"}' });
    await llmAgent(model, { schema: { name: 'classification', schema } }, specials).send('s', 'alpha');
    expect(model.calls[0]!.responseFormat).toEqual({ name: 'classification', schema });
    expect(specials[0]!.object).toEqual({ category: 'ORDER' });
  });

  it('drops model parameters the model does not support, with a model-param-dropped event', async () => {
    const model = new ScriptedLanguageModel({ answers: 'ok', supportedParams: ['temperature'] });
    const agent = makeAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'llm',
          parent: 2,
          chunks: ['alpha'],
          prompt: () => ({
            prompt: 'p',
            modelParams: { temperature: 0.2, webSearch: true, reasoningEffort: 'low' },
          }),
          after: () => ({ nodeTarget: 4, step: 'before' }),
        },
        { id: 4, type: 'emit', parent: 2, emit: say('done') },
      ],
      { models: model },
    );
    const output = await agent.send('s', 'alpha');
    expect(model.calls[0]!.params).toEqual({ temperature: 0.2 });
    expect(eventsOf(output.trace, 'model-param-dropped')).toEqual([
      { type: 'model-param-dropped', nodeId: 3, modelId: 'scripted', param: 'webSearch' },
      { type: 'model-param-dropped', nodeId: 3, modelId: 'scripted', param: 'reasoningEffort' },
    ]);
  });

  it('keeps every parameter for a model that does not restrict them', async () => {
    const model = new ScriptedLanguageModel({ answers: 'ok' });
    const agent = makeAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'llm',
          parent: 2,
          chunks: ['alpha'],
          prompt: { prompt: 'p', modelParams: { temperature: 0.2, webSearch: true } },
          after: () => ({ nodeTarget: 4, step: 'before' }),
        },
        { id: 4, type: 'emit', parent: 2, emit: say('done') },
      ],
      { models: model },
    );
    const output = await agent.send('s', 'alpha');
    expect(model.calls[0]!.params).toEqual({ temperature: 0.2, webSearch: true });
    expect(eventsOf(output.trace, 'model-param-dropped')).toEqual([]);
  });

  it('uses the model named by the node', async () => {
    const small = new ScriptedLanguageModel({ id: 'small', answers: 'from small' });
    const big = new ScriptedLanguageModel({ id: 'big', answers: 'from big' });
    const specials: LlmAfterSpecial[] = [];
    const agent = makeAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'llm',
          parent: 2,
          chunks: ['alpha'],
          model: 'big',
          after: (_self, _context, special) => {
            specials.push(special);
            return { nodeTarget: 4, step: 'before' };
          },
        },
        { id: 4, type: 'emit', parent: 2, emit: say('done') },
      ],
      { models: { default: small, big } },
    );
    await agent.send('s', 'alpha');
    expect(specials[0]!.text).toBe('from big');
    expect(small.calls).toHaveLength(0);
    // Without a prompt, the user's message is the prompt.
    expect(big.calls[0]!.messages).toEqual([{ role: 'user', content: 'alpha' }]);
  });
});

describe('MODEL_NOT_CONFIGURED', () => {
  it('an llm node without any model fails when the tree loads', async () => {
    const agent = makeAgent([
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'llm', parent: 2, chunks: ['alpha'] },
    ]);
    const ready = await rejection(agent.ready());
    expect(ready.code).toBe('MODEL_NOT_CONFIGURED');
    expect(ready.nodeId).toBe(3);
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('MODEL_NOT_CONFIGURED');
    expect(error.message).toContain('"default"');
  });

  it('names the missing model of a node', async () => {
    const agent = makeAgent(
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'llm', parent: 2, chunks: ['alpha'], model: 'big' },
      ],
      { models: new ScriptedLanguageModel({ answers: 'x' }) },
    );
    const error = await rejection(agent.send('s', 'alpha'));
    expect(error.code).toBe('MODEL_NOT_CONFIGURED');
    expect(error.message).toContain('"big"');
  });

  it('smartExtendedMessage and generated guardrails need a model too', async () => {
    for (const nodes of [
      [
        { id: 1, type: 'root', smartExtendedMessage: true },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 3, type: 'emit', parent: 2, chunks: ['alpha'], emit: say('A') },
      ],
      [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'guardrail',
          parent: 2,
          chunks: ['alpha'],
          warning: { type: 'generated', prompt: 'warn' },
        },
      ],
    ] as NodeDefinition[][]) {
      const error = await rejection(makeAgent(nodes).send('s', 'alpha'));
      expect(error.code).toBe('MODEL_NOT_CONFIGURED');
    }
  });
});

describe('smartExtendedMessage', () => {
  function extendingAgent(
    model: ScriptedLanguageModel,
    seen: { original: string; extended: string; direction: string }[],
    extendMessage?: (special: ExtendMessageSpecial) => { prompt: string; systemPrompt?: string },
    smart = true,
  ) {
    return makeAgent(
      [
        {
          id: 1,
          type: 'root',
          smartExtendedMessage: smart,
          conversationGoal: 'sell bikes',
          topics: ['bikes', 'repairs'],
          extendMessage: extendMessage && ((_self, _context, special) => extendMessage(special)),
        },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['alpha'],
          emit: say('A'),
          after: (_self, context) => {
            seen.push({
              original: context.input.original,
              extended: context.input.extended,
              direction: context.exploreStrategy.direction,
            });
          },
        },
        { id: 4, type: 'emit', parent: 2, chunks: ['beta'], emit: say('B') },
      ],
      { models: model },
    );
  }

  it('rewrites the message with the conversation: input.extended and the explore direction', async () => {
    const model = new ScriptedLanguageModel({ answers: 'beta' });
    const seen: { original: string; extended: string; direction: string }[] = [];
    const histories: ExtendMessageSpecial[] = [];
    const agent = extendingAgent(model, seen, (special) => {
      histories.push(special);
      return { prompt: `Rewrite: ${special.history.map((h) => h.content).join(' | ')}`, systemPrompt: 'sys' };
    });
    const first = await agent.send('s', 'alpha');
    // Nothing to extend on the first message: no model call.
    expect(model.calls).toHaveLength(0);
    expect(executed(first)).toEqual([3]);

    const second = await agent.send('s', 'and that one?');
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]).toMatchObject({
      system: 'sys',
      messages: [{ role: 'user', content: 'Rewrite: alpha | A' }],
    });
    expect(histories[0]!.history.map((h) => h.role)).toEqual(['user', 'assistant']);
    expect(seen).toEqual([{ original: 'and that one?', extended: 'beta', direction: 'beta' }]);
    expect(executed(second)).toEqual([4]);
    expect(eventsOf(second.trace, 'message-extended')).toEqual([
      { type: 'message-extended', original: 'and that one?', extended: 'beta' },
    ]);
    const history = await agent.history('s');
    expect(history[2]).toMatchObject({ role: 'user', content: 'and that one?', extended: 'beta' });
  });

  it('without an extendMessage callback, the default prompt uses the goal and the topics', async () => {
    const model = new ScriptedLanguageModel({ answers: '  beta  ' });
    const seen: { original: string; extended: string; direction: string }[] = [];
    const agent = extendingAgent(model, seen);
    await agent.send('s', 'alpha');
    await agent.send('s', 'it');
    const request = model.calls[0]!;
    expect(request.system).toBeTruthy();
    const content = String(request.messages[0]!.content);
    expect(content).toContain('sell bikes');
    expect(content).toContain('bikes, repairs');
    // The conversation so far, in order, then the message to rewrite, last and only once.
    expect(content).toContain('user: alpha\nassistant: A');
    expect(content.split('\n').at(-1)).toMatch(/: it$/);
    expect(content).not.toContain('user: it');
    expect(seen[0]!.extended).toBe('beta');
  });

  it('when off, extended equals the original message and no model is called', async () => {
    const model = new ScriptedLanguageModel({ answers: 'beta' });
    const seen: { original: string; extended: string; direction: string }[] = [];
    const agent = extendingAgent(model, seen, undefined, false);
    await agent.send('s', 'alpha');
    await agent.send('s', 'gamma');
    expect(model.calls).toHaveLength(0);
    expect(seen).toEqual([{ original: 'gamma', extended: 'gamma', direction: 'gamma' }]);
  });
});
