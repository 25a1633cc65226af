import { createOpenAI } from '@ai-sdk/openai';
import { type AgentEvent, defineTree, TreeAgent, TreeAgentError } from '@treeagent/core';
import { ExactEmbedder } from '@treeagent/core/test';
import { afterEach, describe, expect, test } from 'vitest';
import { aiSdkEmbedder } from './ai-sdk-embedder.js';
import { createModel } from './providers.js';
import { type FakeOpenAiServer, startFakeOpenAiServer } from './test-support/fake-openai-server.js';

let server: FakeOpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const schema = {
  type: 'object',
  title: 'InquiryAnalysis',
  required: ['is_urgent', 'category'],
  properties: {
    is_urgent: { type: 'boolean' },
    category: { type: 'string', enum: ['ORDER', 'SUPPORT', 'FAQ'] },
  },
  additionalProperties: false,
};

/** A tree whose only path is llm (classify) → emit (generated answer). */
function classifyThenAnswer() {
  return defineTree({
    nodes: [
      { id: 1, type: 'root' },
      {
        id: 2,
        type: 'agent',
        parent: 1,
        isPrimary: true,
        links: { sorry: 9 },
        fallback: (_s, _c, _sp, links) => ({ nodeTarget: links.sorry }),
      },
      {
        id: 3,
        type: 'llm',
        parent: 2,
        chunks: ['ordine'],
        prompt: { systemPrompt: 'Classify the request.', modelParams: { temperature: 0.1, webSearch: true } },
        responseFormat: { schema, attemptsLimit: 2 },
        links: { answer: 4 },
        after: (_self, context, special, links) => {
          context.sessionState.set('analysis', special.failResponseFormat ? 'failed' : special.object);
          return { nodeTarget: links.answer, step: 'before' };
        },
      },
      {
        id: 4,
        type: 'emit',
        parent: 3,
        prompt: { prompt: 'Answer kindly.' },
        emit: { message: { type: 'generated' } },
      },
      {
        id: 9,
        type: 'emit',
        parent: 2,
        emit: { message: { type: 'static', content: 'Servizio non disponibile.' } },
      },
    ],
  });
}

const embedder = new ExactEmbedder({ vectors: { ordine: [1, 0] }, fallback: [1, 0] });

describe('AI SDK models through an OpenAI-compatible server', () => {
  test('structured output with json_schema, then a streamed generated answer', async () => {
    server = await startFakeOpenAiServer({
      answers: ['{"is_urgent":true,"category":"ORDER"}', 'Il tuo ordine arriva domani.'],
    });
    const model = createModel({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'tiny' });
    const agent = new TreeAgent({ tree: classifyThenAnswer(), embedder, models: model });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream('s', 'dov è il mio ordine')) events.push(event);
    const deltas = events
      .filter((event) => event.type === 'text-delta')
      .map((event) => (event as { delta: string }).delta);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Il tuo ordine arriva domani.');
    const end = events.at(-1);
    expect(end?.type).toBe('turn-end');
    const output = (end as Extract<AgentEvent, { type: 'turn-end' }>).output;
    expect(output.messages[0]!.content).toBe('Il tuo ordine arriva domani.');
    // The first request asked for the schema natively; the second streamed.
    const [classify, answer] = server.chatRequests;
    expect(classify!.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { schema: { required: ['is_urgent', 'category'] } },
    });
    expect(classify!.temperature).toBe(0.1);
    expect(classify!.messages[0]).toEqual({ role: 'system', content: 'Classify the request.' });
    expect(answer!.stream).toBe(true);
    // webSearch is not supported by a compatible server: dropped with a debug event, not an error.
    expect(output.trace).toContainEqual(
      expect.objectContaining({ type: 'model-param-dropped', param: 'webSearch', nodeId: 3 }),
    );
    const record = await agent.sessionStore.load('s');
    expect(record!.state.analysis).toEqual({ is_urgent: true, category: 'ORDER' });
  });

  test('an answer that does not match the schema is retried with the errors, then failResponseFormat', async () => {
    server = await startFakeOpenAiServer({ answers: ['not json', '{"is_urgent":"yes"}', 'Ok.'] });
    const model = createModel({ provider: 'openai-compatible', baseURL: server.baseURL, model: 'tiny' });
    const agent = new TreeAgent({ tree: classifyThenAnswer(), embedder, models: model });
    const output = await agent.send('s', 'ordine');
    expect(server.chatRequests).toHaveLength(3);
    const retry = server.chatRequests[1]!.messages.at(-1);
    expect(retry.role).toBe('user');
    expect(retry.content).toMatch(/does not match the required JSON schema/);
    expect((await agent.sessionStore.load('s'))!.state.analysis).toBe('failed');
    expect(output.messages[0]!.content).toBe('Ok.');
  });

  test('429 answers are retried by the AI SDK; a 500 that persists becomes a MODEL error handled by the fallback', async () => {
    server = await startFakeOpenAiServer({
      answers: [{ status: 429 }, '{"is_urgent":false,"category":"FAQ"}', 'Bene.'],
    });
    const model = createModel(
      { provider: 'openai-compatible', baseURL: server.baseURL, model: 'tiny' },
      { maxRetries: 2 },
    );
    const agent = new TreeAgent({ tree: classifyThenAnswer(), embedder, models: model });
    expect((await agent.send('s', 'ordine')).messages[0]!.content).toBe('Bene.');
    await server.close();

    server = await startFakeOpenAiServer({ answers: [{ status: 500 }] });
    const failing = createModel(
      { provider: 'openai-compatible', baseURL: server.baseURL, model: 'tiny' },
      { maxRetries: 0 },
    );
    const agent2 = new TreeAgent({ tree: classifyThenAnswer(), embedder, models: failing });
    const output = await agent2.send('s', 'ordine');
    expect(output.messages[0]!.content).toBe('Servizio non disponibile.');
    const fallback = output.trace.find((event) => event.type === 'fallback');
    expect(fallback).toMatchObject({ error: { code: 'MODEL', nodeId: 3 } });
  });

  test('a stream broken mid-answer fails the turn and saves nothing', async () => {
    server = await startFakeOpenAiServer({ answers: [{ brokenStreamAfter: 'Risposta a metà' }] });
    const model = createModel(
      { provider: 'openai-compatible', baseURL: server.baseURL, model: 'tiny' },
      { maxRetries: 0 },
    );
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        { id: 4, type: 'emit', parent: 2, chunks: ['ordine'], emit: { message: { type: 'generated' } } },
      ],
    });
    const agent = new TreeAgent({ tree, embedder, models: model });
    const error = await agent.send('s', 'ordine').catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'MODEL')).toBe(true);
    expect(await agent.sessionStore.load('s')).toBeNull();
    expect(await agent.history('s')).toEqual([]);
  });

  test('the openai provider speaks chat completions to a custom base URL', async () => {
    server = await startFakeOpenAiServer({ answers: ['Ciao!'] });
    const model = createModel({
      provider: 'openai',
      baseURL: server.baseURL,
      model: 'gpt-test',
      apiKey: 'sk-test',
    });
    expect(model.id).toBe('openai:gpt-test');
    expect(model.supportedParams).toContain('reasoningEffort');
    expect(model.supportedParams).not.toContain('webSearch');
    const response = await model.generate({
      messages: [{ role: 'user', content: 'ciao' }],
      params: { temperature: 0 },
    });
    expect(response.text).toBe('Ciao!');
    expect(server.chatRequests[0]!.model).toBe('gpt-test');
  });

  test('AI SDK embedding models embed through the server', async () => {
    server = await startFakeOpenAiServer({ answers: [], embed: (text) => [text.length, 2] });
    const embedder = aiSdkEmbedder(
      createOpenAI({ baseURL: server.baseURL, apiKey: 'sk-test' }).embedding('text-embedding-test'),
    );
    expect(embedder.id).toBe('openai.embedding:text-embedding-test');
    const vectors = await embedder.embed(['ciao', 'buongiorno']);
    expect(vectors.map((vector) => [...vector])).toEqual([
      [4, 2],
      [10, 2],
    ]);
    expect(server.embeddingRequests[0]!.input).toEqual(['ciao', 'buongiorno']);
  });
});
