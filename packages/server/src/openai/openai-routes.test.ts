import { describe, expect, it } from 'vitest';
import { createSession, parseSse, testApp } from '../test-support/fixtures.js';
import { openAiEngineSessionId } from './chat-session.js';

type App = ReturnType<typeof testApp>['app'];

function complete(app: App, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return app.request('/v1/chat/completions', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ model: 'test-shop', ...body }),
  });
}

const user = (content: unknown) => ({ role: 'user', content });

describe('GET /v1/models', () => {
  it('lists one model per tree, named after the tree', async () => {
    const { app } = testApp();
    const body = (await (await app.request('/v1/models')).json()) as Record<string, any>;
    expect(body).toEqual({
      object: 'list',
      data: [{ id: 'test-shop', object: 'model', created: expect.any(Number), owned_by: 'treeagent' }],
    });
    expect((await app.request('/v1/models/test-shop')).status).toBe(200);
    expect((await app.request('/v1/models/gpt-4o')).status).toBe(404);
  });
});

describe('POST /v1/chat/completions', () => {
  it('answers with a chat.completion shaped like OpenAI, plus the treeagent field', async () => {
    const { app } = testApp();
    const response = await complete(app, {
      messages: [{ role: 'system', content: 'ignored' }, user('hello')],
      temperature: 0.2,
    });
    expect(response.status).toBe(200);
    const sessionId = response.headers.get('x-session-id');
    const body = (await response.json()) as Record<string, any>;
    expect(body).toMatchObject({
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'test-shop',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Hi! How can I help?' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      treeagent: {
        sessionId,
        turn: 1,
        status: 'answered',
        nodeId: 3,
        options: ['Orders', 'Returns'],
        sources: [],
        attachments: [],
        serverMetadata: {},
      },
    });
    expect(body.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(body.treeagent.trace).toBeUndefined();
  });

  it('uses the last user message, text parts joined', async () => {
    const { app } = testApp();
    const body = (await (
      await complete(app, {
        messages: [
          user('story'),
          { role: 'assistant', content: 'x' },
          user([{ type: 'text', text: 'hello' }]),
        ],
      })
    ).json()) as Record<string, any>;
    expect(body.treeagent.nodeId).toBe(3);
  });

  it('with API keys: a conversation lives in the namespace of the key that created it', async () => {
    const { app, agent } = testApp({ apiKeys: ['sk-one', 'sk-two'] });
    const one = { Authorization: 'Bearer sk-one' };
    const two = { Authorization: 'Bearer sk-two' };
    const first = await complete(app, { messages: [user('hello')], user: 'alice' }, one);
    expect(first.headers.get('x-session-id')).toBe('alice');
    const second = (await (
      await complete(app, { messages: [user('story')], user: 'bob' }, { ...one, 'X-Session-Id': 'alice' })
    ).json()) as Record<string, any>;
    expect(second.treeagent).toMatchObject({ sessionId: 'alice', turn: 2 });
    expect(await agent.history(openAiEngineSessionId('sk-one', 'alice'))).toHaveLength(4);
    expect(await agent.history(openAiEngineSessionId('sk-one', 'bob'))).toEqual([]);
    expect(await agent.history('alice')).toEqual([]);
    // Another key naming the same conversation gets a conversation of its own, not alice's.
    const other = (await (
      await complete(app, { messages: [user('hello')], user: 'alice' }, two)
    ).json()) as Record<string, any>;
    expect(other.treeagent).toMatchObject({ sessionId: 'alice', turn: 1 });
    expect(await agent.history(openAiEngineSessionId('sk-one', 'alice'))).toHaveLength(4);
  });

  it('without API keys: a user label never continues a conversation; the issued conversation id does', async () => {
    const { app, agent } = testApp();
    const first = await complete(app, { messages: [user('hello')], user: 'alice' });
    const id = first.headers.get('x-session-id')!;
    expect(id).toMatch(/^conv_[A-Za-z0-9_-]{43}$/);
    expect(((await first.json()) as Record<string, any>).treeagent.sessionId).toBe(id);
    // Knowing the label is not enough: a new conversation.
    const stranger = (await (
      await complete(app, { messages: [user('hello')], user: 'alice' })
    ).json()) as Record<string, any>;
    expect(stranger.treeagent.turn).toBe(1);
    expect(stranger.treeagent.sessionId).not.toBe(id);
    // The id, sent back as user (any OpenAI client can) or X-Session-Id, continues it.
    const second = (await (await complete(app, { messages: [user('story')], user: id })).json()) as Record<
      string,
      any
    >;
    expect(second.treeagent).toMatchObject({ sessionId: id, turn: 2 });
    const third = (await (
      await complete(app, { messages: [user('hello')] }, { 'X-Session-Id': id })
    ).json()) as Record<string, any>;
    expect(third.treeagent.turn).toBe(3);
    // The store keys the conversation by a hash: the id itself is nowhere in it.
    expect(await agent.history(openAiEngineSessionId(null, id))).toHaveLength(6);
    expect(await agent.history(`openai:${id}`)).toEqual([]);
    // An X-Session-Id the server never issued is refused, not silently a new conversation.
    const unknown = await complete(app, { messages: [user('hello')] }, { 'X-Session-Id': 'alice' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('starts a new session when neither X-Session-Id nor user is sent', async () => {
    const { app } = testApp();
    const a = await complete(app, { messages: [user('hello')] });
    const b = await complete(app, { messages: [user('hello')] });
    expect(a.headers.get('x-session-id')).not.toBe(b.headers.get('x-session-id'));
    expect(((await b.json()) as Record<string, any>).treeagent.turn).toBe(1);
  });

  it("uses a JSON API session only with that session's token", async () => {
    const { app, agent } = testApp();
    const mine = await createSession(app);
    const theirs = await createSession(app);
    const missing = await complete(app, { messages: [user('hello')] }, { 'X-Session-Id': mine.sessionId });
    expect(missing.status).toBe(401);
    const wrong = await complete(
      app,
      { messages: [user('hello')] },
      { 'X-Session-Id': mine.sessionId, 'X-Session-Token': theirs.token },
    );
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toEqual({
      error: {
        message: 'The session token does not belong to this session.',
        type: 'permission_error',
        param: null,
        code: 'FORBIDDEN',
      },
    });
    const right = await complete(
      app,
      { messages: [user('hello')] },
      { 'X-Session-Id': mine.sessionId, 'X-Session-Token': mine.token },
    );
    expect(right.status).toBe(200);
    expect(await agent.history(mine.sessionId)).toHaveLength(2);
  });

  it('carries selectedOption in the treeagent request field', async () => {
    const { app } = testApp();
    const carol = (await complete(app, { messages: [user('hello')] })).headers.get('x-session-id')!;
    const refused = await complete(app, {
      messages: [user('')],
      user: carol,
      treeagent: { selectedOption: 'Not offered' },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: { code: 'INVALID_INPUT', type: 'invalid_request_error' },
    });
  });

  it('joins the messages of one turn in content and lists them in treeagent.messages', async () => {
    const { app } = testApp();
    const body = (await (await complete(app, { messages: [user('double')] })).json()) as Record<string, any>;
    expect(body.choices[0].message.content).toBe('First.\n\nSecond.');
    expect(body.treeagent.messages.map((message: { content: string }) => message.content)).toEqual([
      'First.',
      'Second.',
    ]);
  });

  it('returns OpenAI-style errors for invalid requests', async () => {
    const { app } = testApp({ limits: { maxMessageLength: 20 } });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ messages: [] }, 400, 'INVALID_REQUEST'],
      [{ messages: [{ role: 'assistant', content: 'hi' }] }, 400, 'INVALID_REQUEST'],
      [{ messages: [user('hello')], model: 'gpt-4o' }, 404, 'NOT_FOUND'],
      [{ messages: [user('hello')], n: 2 }, 400, 'INVALID_REQUEST'],
      [{ messages: [user('x'.repeat(21))] }, 413, 'PAYLOAD_TOO_LARGE'],
      [{ messages: [user('hello')], user: 'has space' }, 400, 'INVALID_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const response = await complete(app, body);
      expect(response.status, JSON.stringify(body)).toBe(status);
      const error = ((await response.json()) as { error: Record<string, unknown> }).error;
      expect(error).toEqual({
        message: expect.any(String),
        type: 'invalid_request_error',
        param: expect.any(String),
        code,
      });
    }
    const failing = await complete(app, { messages: [user('fail')] });
    expect(failing.status).toBe(500);
    expect(await failing.json()).toMatchObject({ error: { type: 'server_error', code: 'CALLBACK_ERROR' } });
  });

  describe('stream: true', () => {
    async function chunks(app: App, body: Record<string, unknown>) {
      const response = await complete(app, { ...body, stream: true });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const events = parseSse(await response.text());
      expect(events.every((event) => event.event === null)).toBe(true);
      return events.map((event) => event.data);
    }

    it('streams chat.completion.chunk deltas from text-delta events, then [DONE]', async () => {
      const { app } = testApp();
      const data = await chunks(app, { messages: [user('story')] });
      expect(data.at(-1)).toBe('[DONE]');
      const parsed = data.slice(0, -1).map((item) => JSON.parse(item) as Record<string, any>);
      expect(new Set(parsed.map((chunk) => chunk.id)).size).toBe(1);
      expect(
        parsed.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.model === 'test-shop'),
      ).toBe(true);
      expect(parsed[0]!.choices[0]).toEqual({
        index: 0,
        delta: { role: 'assistant', content: '' },
        logprobs: null,
        finish_reason: null,
      });
      const content = parsed.map((chunk) => chunk.choices[0].delta.content ?? '').join('');
      expect(content).toBe('Once upon a time, a bike.');
      expect(parsed.length).toBe(1 + 6 + 1);
      const last = parsed.at(-1)!;
      expect(last.choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' });
      expect(last.treeagent).toMatchObject({ status: 'answered', nodeId: 4, sources: [{ title: 'Tales' }] });
    });

    it('streams static messages whole, separated as in the non-streamed content', async () => {
      const { app } = testApp();
      const data = await chunks(app, { messages: [user('double')] });
      const parsed = data.slice(0, -1).map((item) => JSON.parse(item) as Record<string, any>);
      expect(parsed.map((chunk) => chunk.choices[0].delta.content ?? '').join('')).toBe('First.\n\nSecond.');
    });

    it('adds a usage chunk with stream_options.include_usage', async () => {
      const { app } = testApp();
      const data = await chunks(app, { messages: [user('hello')], stream_options: { include_usage: true } });
      const usage = JSON.parse(data.at(-2)!) as Record<string, unknown>;
      expect(usage).toMatchObject({ choices: [], usage: { total_tokens: 0 } });
    });

    it('sends an OpenAI error object when the turn fails mid-stream', async () => {
      const { app } = testApp();
      const data = await chunks(app, { messages: [user('fail')] });
      expect(data).not.toContain('[DONE]');
      expect(JSON.parse(data.at(-1)!)).toMatchObject({
        error: { type: 'server_error', code: 'CALLBACK_ERROR' },
      });
    });
  });
});
