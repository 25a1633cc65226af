import { type AgentEvent, defineTree, TreeAgent } from '@treeagent/core';
import { describe, expect, it } from 'vitest';
import type { ErrorBody as ErrorResponse } from '../errors/api-error.js';
import { createSession, parseSse, postMessage, testApp } from '../test-support/fixtures.js';

describe('POST /api/v1/sessions/:id/messages (JSON)', () => {
  it('returns the AgentOutput, without the trace unless debug', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const response = await postMessage(app, session, { message: 'hello', clientMetadata: { locale: 'it' } });
    expect(response.status).toBe(200);
    const output = (await response.json()) as Record<string, any>;
    expect(output).toMatchObject({
      sessionId: session.sessionId,
      turn: 1,
      status: 'answered',
      nodeId: 3,
      messages: [{ content: 'Hi! How can I help?', options: ['Orders', 'Returns'] }],
    });
    expect(output.trace).toBeUndefined();

    const debug = testApp({ debug: true });
    const debugSession = await createSession(debug.app);
    const traced = (await (await postMessage(debug.app, debugSession, { message: 'hello' })).json()) as {
      trace: AgentEvent[];
    };
    expect(traced.trace.some((event) => event.type === 'explore-decision')).toBe(true);
  });

  it("in debug mode, a fallback's trace event names the error's node, callback and frame", async () => {
    const agent = new TreeAgent({
      tree: defineTree({
        nodes: [
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
            type: 'emit',
            parent: 2,
            chunks: ['hello'],
            before: function lookUpOrder() {
              throw new Error('orders service down');
            },
          },
          { id: 9, type: 'emit', parent: 2, emit: { message: { type: 'static', content: 'Sorry' } } },
        ],
      }),
    });
    const { app } = testApp({ debug: true, agent });
    const session = await createSession(app);
    const output = (await (await postMessage(app, session, { message: 'hello' })).json()) as {
      status: string;
      failCounter: number;
      trace: AgentEvent[];
    };
    expect(output).toMatchObject({ status: 'fallback-error', failCounter: 0 });
    expect(output.trace.find((event) => event.type === 'fallback')).toMatchObject({
      error: {
        code: 'CALLBACK_ERROR',
        nodeId: 3,
        callback: 'before',
        message: expect.stringContaining('orders service down'),
        frame: expect.stringMatching(/^lookUpOrder \(.*message-routes\.test\.ts:\d+:\d+\)$/),
      },
      nodeTarget: 9,
    });
  });

  it('answers status no-match (not an error) when nothing fits', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const response = await postMessage(app, session, { message: 'something else entirely' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'no-match', messages: [] });
  });

  it('passes selectedOption to the engine, which refuses an option the last message did not offer', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    await postMessage(app, session, { message: 'hello' });
    const response = await postMessage(app, session, { message: '', selectedOption: 'Not an option' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorResponse).error.code).toBe('INVALID_INPUT');
    // A pick alone (no message) reaches the engine too: refused by it, not by the body's validation.
    const pickAlone = await postMessage(app, session, { selectedOption: 'Not an option' });
    expect(pickAlone.status).toBe(400);
    expect(((await pickAlone.json()) as ErrorResponse).error.code).toBe('INVALID_INPUT');
  });

  it('validates the body with one error shape', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const cases: [unknown, string][] = [
      [{}, 'message'],
      [{ message: 42 }, 'message'],
      [{ message: '   ' }, 'message'],
      [{ message: 'hi', extra: true }, '(body)'],
      [{ message: 'hi', attachments: ['../../etc/passwd'] }, 'attachments.0'],
      [{ message: 'hi', clientMetadata: [1] }, 'clientMetadata'],
      ['{not json', ''],
    ];
    for (const [body, path] of cases) {
      const response = await postMessage(app, session, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      const error = ((await response.json()) as ErrorResponse).error;
      expect(error.code).toBe('INVALID_REQUEST');
      expect(typeof error.message).toBe('string');
      if (path) expect(error.details?.issues?.[0]?.path).toBe(path);
    }
    const badQuery = await postMessage(app, session, { message: 'hi' }, { query: '?stream=maybe' });
    expect(badQuery.status).toBe(400);
  });

  it('limits the message length and the body size (413 PAYLOAD_TOO_LARGE)', async () => {
    const { app } = testApp({ limits: { maxMessageLength: 10, maxBodyBytes: 200 } });
    const session = await createSession(app);
    const long = await postMessage(app, session, { message: 'x'.repeat(11) });
    expect(long.status).toBe(413);
    expect(await long.json()).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', details: { maxMessageLength: 10 } },
    });
    // Characters as people count them: ten emoji are ten (twenty UTF-16 units), eleven are over.
    expect((await postMessage(app, session, { message: '🚲'.repeat(10) })).status).toBe(200);
    const emoji = await postMessage(app, session, { message: '🚲'.repeat(11) });
    expect(emoji.status).toBe(413);
    expect(((await emoji.json()) as ErrorResponse).error.message).toContain('has 11 characters');
    const big = await postMessage(app, session, {
      message: 'hello',
      clientMetadata: { pad: 'x'.repeat(300) },
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', details: { maxBytes: 200 } },
    });
  });

  it('maps a failing turn to 500 with its code, hiding the message unless debug', async () => {
    const { app, logger } = testApp();
    const session = await createSession(app);
    const response = await postMessage(app, session, { message: 'fail' });
    expect(response.status).toBe(500);
    const error = ((await response.json()) as ErrorResponse).error;
    expect(error.code).toBe('CALLBACK_ERROR');
    expect(error.message).not.toContain('password');
    expect(JSON.stringify(logger.entries)).toContain('password');

    const debug = testApp({ debug: true });
    const debugSession = await createSession(debug.app);
    const shown = (await (
      await postMessage(debug.app, debugSession, { message: 'fail' })
    ).json()) as ErrorResponse;
    expect(shown.error.message).toContain('password');
    expect(shown.error.details).toMatchObject({ nodeId: 6 });
  });

  it('saves nothing for a failed turn', async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    await postMessage(app, session, { message: 'fail' });
    expect(await agent.history(session.sessionId)).toEqual([]);
  });
});

describe('POST /api/v1/sessions/:id/messages (server-sent events)', () => {
  async function streamed(app: ReturnType<typeof testApp>['app'], message: string, how: 'accept' | 'query') {
    const session = await createSession(app);
    const response = await postMessage(
      app,
      session,
      { message },
      how === 'accept' ? { headers: { Accept: 'text/event-stream' } } : { query: '?stream=true' },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    return parseSse(await response.text());
  }

  it('streams the events in order: turn-start, message-start, text deltas, message, turn-end', async () => {
    const { app } = testApp();
    const events = await streamed(app, 'story', 'accept');
    const types = events.map((event) => event.event);
    expect(types).toEqual([
      'turn-start',
      'message-start',
      ...Array<string>(6).fill('text-delta'),
      'message',
      'turn-end',
    ]);
    const deltas = events.filter((e) => e.event === 'text-delta').map((e) => JSON.parse(e.data).delta);
    expect(deltas.join('')).toBe('Once upon a time, a bike.');
    const end = JSON.parse(events.at(-1)!.data);
    expect(end.output.messages[0].content).toBe('Once upon a time, a bike.');
    expect(end.output.trace).toBeUndefined();
  });

  it('with ?stream=true too; debug mode adds every engine event', async () => {
    const plain = await streamed(testApp().app, 'hello', 'query');
    expect(plain.map((event) => event.event)).toEqual(['turn-start', 'message-start', 'message', 'turn-end']);
    const debug = await streamed(testApp({ debug: true }).app, 'hello', 'query');
    const types = debug.map((event) => event.event);
    expect(types).toContain('explore-decision');
    expect(types).toContain('step-start');
    expect(types.at(-1)).toBe('turn-end');
    expect(JSON.parse(debug.at(-1)!.data).output.trace.length).toBeGreaterThan(0);
  });

  it('ends with an error event carrying the error body when the turn fails', async () => {
    const { app } = testApp();
    const events = await streamed(app, 'fail', 'accept');
    expect(events[0]!.event).toBe('turn-start');
    expect(events.at(-1)!.event).toBe('error');
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({
      type: 'error',
      status: 500,
      error: { code: 'CALLBACK_ERROR' },
    });
  });

  it('answers with an HTTP error when the turn fails before it starts', async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    agent.sessionStore.load = async () => {
      throw new Error('store down');
    };
    const response = await postMessage(app, session, { message: 'hello' }, { query: '?stream=true' });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: 'SESSION_STORE' } });
  });
});
