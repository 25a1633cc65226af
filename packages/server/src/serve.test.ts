import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from './serve.js';
import { createGate, memoryLogger, parseSse, testAgent } from './test-support/fixtures.js';

const KEY = 'sk-integration';
const servers: RunningServer[] = [];

async function start(options: Omit<Parameters<typeof serve>[0], 'hostname' | 'port'>) {
  const server = await serve({ hostname: '127.0.0.1', port: 0, logger: memoryLogger(), ...options });
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close({ timeoutMs: 100, abortGraceMs: 100 })));
});

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function newSession(server: RunningServer, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/api/v1/sessions`, { method: 'POST', headers });
  return (await response.json()) as { sessionId: string; token: string };
}

describe('serve() with the official openai client', () => {
  it('answers chat completions, streamed and not, keeping the session', async () => {
    const server = await start({ agent: testAgent(), apiKeys: [KEY] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: KEY, maxRetries: 0 });

    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['test-shop']);

    const completion = await client.chat.completions.create({
      model: 'test-shop',
      messages: [{ role: 'user', content: 'hello' }],
      user: 'dana',
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message).toMatchObject({
      role: 'assistant',
      content: 'Hi! How can I help?',
    });
    expect(completion.choices[0]!.finish_reason).toBe('stop');
    expect((completion as unknown as { treeagent: { options: string[] } }).treeagent.options).toEqual([
      'Orders',
      'Returns',
    ]);

    const stream = await client.chat.completions.create({
      model: 'test-shop',
      messages: [{ role: 'user', content: 'story' }],
      user: 'dana',
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let finish: string | null = null;
    let extension: { turn: number; status: string } | undefined;
    let usage: unknown;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      extension = (chunk as unknown as { treeagent?: typeof extension }).treeagent ?? extension;
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Once upon a time, a bike.');
    expect(finish).toBe('stop');
    expect(extension).toMatchObject({ turn: 2, status: 'answered' });
    expect(usage).toMatchObject({ total_tokens: 0 });
  });

  it('surfaces errors as OpenAI API errors', async () => {
    const server = await start({ agent: testAgent(), apiKeys: [KEY] });
    const wrongKey = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'nope', maxRetries: 0 });
    await expect(wrongKey.models.list()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: KEY, maxRetries: 0 });
    await expect(
      client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      type: 'invalid_request_error',
      param: 'model',
    });

    const failing = await client.chat.completions.create({
      model: 'test-shop',
      messages: [{ role: 'user', content: 'fail' }],
      stream: true,
    });
    const consume = async () => {
      for await (const _chunk of failing) {
      }
    };
    await expect(consume()).rejects.toMatchObject({ code: 'CALLBACK_ERROR' });
  });
});

describe('graceful shutdown', () => {
  it('lets a turn in flight finish while refusing new ones, then closes', async () => {
    const gate = createGate();
    const agent = testAgent({ gate });
    const server = await start({ agent });
    const session = await newSession(server);
    const headers = { 'Content-Type': 'application/json', 'X-Session-Token': session.token };
    const url = `${server.url}/api/v1/sessions/${session.sessionId}/messages`;
    const inFlight = fetch(url, { method: 'POST', headers, body: JSON.stringify({ message: 'wait' }) });
    await gate.reached;
    expect(server.app.turnsInFlight).toBe(1);

    const closing = server.close({ timeoutMs: 5000 });
    const refused = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ message: 'hello' }) });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'SHUTTING_DOWN' } });
    expect((await fetch(`${server.url}/ready`)).status).toBe(503);

    gate.open();
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ messages: [{ content: 'Done waiting.' }] });
    expect(await closing).toEqual({ finished: 1, aborted: 0, unsettled: 0 });
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
    expect(await agent.history(session.sessionId)).toHaveLength(2);
  });

  it('aborts turns still running after the timeout; they save nothing', async () => {
    const gate = createGate();
    const agent = testAgent({ gate });
    const server = await start({ agent });
    const session = await newSession(server);
    const response = fetch(`${server.url}/api/v1/sessions/${session.sessionId}/messages?stream=true`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Session-Token': session.token },
      body: JSON.stringify({ message: 'wait' }),
    });
    await gate.reached;
    const closing = server.close({ timeoutMs: 50, abortGraceMs: 5000 });
    // The callback cannot be interrupted: once the turn is aborted, let it return.
    setTimeout(() => gate.open(), 150);
    const events = parseSse(await (await response).text());
    expect(events.at(-1)).toMatchObject({ event: 'error' });
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ status: 503, error: { code: 'SHUTTING_DOWN' } });
    expect(await closing).toEqual({ finished: 0, aborted: 1, unsettled: 0 });
    expect(await agent.history(session.sessionId)).toEqual([]);
    expect(await agent.sessionStore.load(session.sessionId)).toBeNull();
  });
});

describe('client disconnect', () => {
  it('aborts the turn of a client that leaves an SSE stream; nothing is saved', async () => {
    let modelSawAbort = false;
    const agent = testAgent({
      // The model answers only once the turn is aborted, so the test waits for nothing else.
      answer: (request) =>
        new Promise((resolve) => {
          request.signal?.addEventListener('abort', () => {
            modelSawAbort = true;
            resolve('too late');
          });
        }),
    });
    const server = await start({ agent });
    const session = await newSession(server);
    const controller = new AbortController();
    const response = await fetch(`${server.url}/api/v1/sessions/${session.sessionId}/messages`, {
      method: 'POST',
      headers: {
        Accept: 'text/event-stream',
        'Content-Type': 'application/json',
        'X-Session-Token': session.token,
      },
      body: JSON.stringify({ message: 'story' }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('event: message-start')) {
      const { value } = await reader.read();
      received += new TextDecoder().decode(value);
    }
    expect(received).toMatch(/^event: turn-start/);
    controller.abort();
    await until(() => modelSawAbort && server.app.turnsInFlight === 0, 'the turn to be aborted');
    expect(await agent.history(session.sessionId)).toEqual([]);
    expect(await agent.sessionStore.load(session.sessionId)).toBeNull();
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('treeagent_errors_total{code="ABORTED"} 1');
  });
});
