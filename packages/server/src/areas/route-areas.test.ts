import type { HistoryEntry } from '@treeagent/core';
import {
  ApiError,
  type CreateAppOptions,
  createApp,
  operatorDirectory,
  type RouteAreaContext,
  routeArea,
} from '@treeagent/server';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createSession, memoryLogger, postMessage, testAgent } from '../test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';

// Everything here comes from the package's public entry point, as a channel package would use it.

/** A session area of a program: a summary of one session (`:id`), for its token holder. */
const summaries = routeArea({
  prefix: '/api/v1/summaries',
  access: 'session',
  routes: ({ agent }: RouteAreaContext) =>
    new Hono().get('/:id', async (c) => c.json({ entries: (await agent.history(c.req.param('id'))).length })),
});

/** An admin area of a program. */
const tree = routeArea({
  prefix: '/api/v1/tree-name',
  access: 'admin',
  routes: ({ agent }) => new Hono().get('/', (c) => c.json({ name: agent.tree.name })),
});

/** A channel's webhook: public (a platform verifies itself), outside /api; runs the customer's message. */
const channel = routeArea({
  prefix: '/channels/test',
  access: 'public',
  routes: ({ turns }) =>
    new Hono().post('/webhook', async (c) => {
      const update = (await c.req.json()) as { chat: string; session: string; text: string };
      const output = await turns.run({
        sessionId: update.session,
        message: update.text,
        address: `test:${update.chat}`,
      });
      return c.json({ replies: output.messages.map((message) => message.content) });
    }),
});

async function extendedApp(options: Partial<CreateAppOptions> = {}) {
  const agent = testAgent({ redaction: {} });
  const app = createApp({
    agent,
    logger: memoryLogger(),
    apiKeys: ['sk-test'],
    operators: { directory: operatorDirectory(await testOperatorAccounts()) },
    routes: [summaries, tree, channel],
    ...options,
  });
  return { app, agent };
}

const KEY = { Authorization: 'Bearer sk-test' };

/** History entries without their timestamps, to compare two sessions. */
const timeless = (history: HistoryEntry[]) => history.map(({ at: _at, ...entry }) => entry);

describe('route areas of a program (createApp({ routes }))', () => {
  it('a session area needs the API key and the token of its session: none 401, another session’s 403', async () => {
    const { app } = await extendedApp();
    const mine = await createSession(app, KEY);
    const other = await createSession(app, KEY);
    const path = `/api/v1/summaries/${mine.sessionId}`;
    expect((await app.request(path, { headers: { 'X-Session-Token': mine.token } })).status).toBe(401);
    expect((await app.request(path, { headers: KEY })).status).toBe(401);
    const wrong = await app.request(path, { headers: { ...KEY, 'X-Session-Token': other.token } });
    expect(wrong.status).toBe(403);
    const right = await app.request(path, { headers: { ...KEY, 'X-Session-Token': mine.token } });
    expect(right.status).toBe(200);
    expect(await right.json()).toEqual({ entries: 0 });
  });

  it('an admin area answers 401 without a login and 403 to an operator', async () => {
    const { app } = await extendedApp();
    expect((await app.request('/api/v1/tree-name', { headers: KEY })).status).toBe(401);
    const operator = await loginOperator(app, 'bruno', KEY);
    const asOperator = await app.request('/api/v1/tree-name', {
      headers: { ...KEY, 'X-Operator-Token': operator },
    });
    expect(asOperator.status).toBe(403);
    const admin = await loginOperator(app, 'anna', KEY);
    const asAdmin = await app.request('/api/v1/tree-name', {
      headers: { ...KEY, 'X-Operator-Token': admin },
    });
    expect(asAdmin.status).toBe(200);
    expect(await asAdmin.json()).toEqual({ name: 'test-shop' });
  });

  it('a turn run by a channel shows in the session’s history exactly like an HTTP turn, redacted alike', async () => {
    const { app } = await extendedApp();
    const text = 'hello, I am mario.rossi@example.com';
    const overHttp = await createSession(app, KEY);
    const http = await postMessage(app, overHttp, { message: text }, { headers: KEY });
    expect(http.status).toBe(200);
    const httpOutput = (await http.json()) as { messages: { content: string }[] };
    const overChannel = await createSession(app, KEY);
    // The webhook is outside /api: no API key, as a platform's request carries none.
    const webhook = await app.request('/channels/test/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ chat: '42', session: overChannel.sessionId, text }),
    });
    expect(webhook.status).toBe(200);
    expect(await webhook.json()).toEqual({ replies: httpOutput.messages.map((message) => message.content) });

    const history = async (session: { sessionId: string; token: string }) => {
      const response = await app.request(`/api/v1/sessions/${session.sessionId}/history`, {
        headers: { ...KEY, 'X-Session-Token': session.token },
      });
      return timeless(((await response.json()) as { history: HistoryEntry[] }).history);
    };
    const channelHistory = await history(overChannel);
    expect(channelHistory).toEqual(await history(overHttp));
    expect(channelHistory[0]).toMatchObject({
      role: 'user',
      turn: 1,
      content: expect.stringContaining('hello, I am'),
    });
    expect(JSON.stringify(channelHistory)).not.toContain('mario.rossi@example.com');
  });

  it('app.turns applies the message limits of the message route and answers its errors', async () => {
    const { app } = await extendedApp({ messageLimit: { perSession: { windowMs: 60_000, max: 1 } } });
    const session = await createSession(app, KEY);
    const output = await app.turns.run({ sessionId: session.sessionId, message: 'hello' });
    expect(output).toMatchObject({ turn: 1, status: 'answered' });
    const limited = await app.turns
      .run({ sessionId: session.sessionId, message: 'hello' })
      .catch((error) => error);
    expect(limited).toBeInstanceOf(ApiError);
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    const tooLong = await app.turns
      .run({ sessionId: 'another', message: 'x'.repeat(10_001) })
      .catch((error) => error);
    expect(tooLong).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    const empty = await app.turns.run({ sessionId: 'a-third', message: ' ' }).catch((error) => error);
    expect(empty).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
  });

  it('a public area outside /api gets the body limits (and never the API key)', async () => {
    const { app } = await extendedApp({ limits: { maxBodyBytes: 100 } });
    const response = await app.request('/channels/test/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ chat: '1', session: 'x', text: 'y'.repeat(200) }),
    });
    expect(response.status).toBe(413);
  });

  it('routeArea names what is wrong with an area and how to write it', () => {
    const routes = () => new Hono();
    expect(() => routeArea({ prefix: 'channels/', access: 'public', routes })).toThrow(
      /prefix "channels\/" is not a plain path: write it like "\/api\/v1\/things"/,
    );
    expect(() => routeArea({ prefix: '/x', access: 'anyone' as never, routes })).toThrow(
      /access "anyone": use one of "public", "session", "operator", "admin"/,
    );
  });
});
