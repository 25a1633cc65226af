import { InMemoryAuditLog } from '@treeagent/core/adapter';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { routeArea } from '../areas/route-area.js';
import { describeRouteChannel } from '../conformance/index.js';
import { openAiCompatible } from '../openai/openai-channel.js';
import { operatorDirectory } from '../operators/operator-accounts.js';
import { webChat } from '../sessions/web-chat-channel.js';
import { testApp } from '../test-support/fixtures.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';
import { ScriptedChannel, scriptedUpdate } from '../test-support/scripted-channel.js';
import { type RouteChannel, routeChannel } from './route-channel.js';

// Option `channels` of createApp: which channels a server has (a mock messaging channel, labelled).

const json = { 'Content-Type': 'application/json' };

/** Whether the web chat and the OpenAI-compatible endpoint answer on `app`. */
async function surfaces(app: ReturnType<typeof testApp>['app']) {
  const session = await app.request('/api/v1/sessions', { method: 'POST', headers: json, body: '{}' });
  const models = await app.request('/v1/models');
  const completion = await app.request('/v1/chat/completions', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ model: 'test-shop', messages: [{ role: 'user', content: 'hello' }] }),
  });
  return { webChat: session.status, models: models.status, completions: completion.status };
}

describe('option channels of createApp', () => {
  it('GET /api/v1/channels lists every channel, route channels with their routes, for an admin only', async () => {
    const operators = {
      directory: operatorDirectory(await testOperatorAccounts()),
      auditLog: new InMemoryAuditLog(),
    };
    const list = async (app: ReturnType<typeof testApp>['app']) => {
      const admin = await loginOperator(app, 'anna');
      const response = await app.request('/api/v1/channels', { headers: { 'X-Operator-Token': admin } });
      expect(response.status).toBe(200);
      return ((await response.json()) as { channels: Record<string, any>[] }).channels;
    };
    // No messaging channel: the route channels are listed all the same.
    const plain = testApp({ operators });
    const listed = await list(plain.app);
    expect(listed.map(({ kind, name }) => `${kind}:${name}`)).toEqual(['routes:web-chat', 'routes:openai']);
    expect(listed[0]!.routes).toContainEqual({ method: 'POST', path: '/api/v1/sessions', access: 'public' });
    expect(listed[0]!.capabilities).toMatchObject({ streaming: true, handoff: true });
    expect((await plain.app.request('/api/v1/channels')).status).toBe(401);
    const bruno = await loginOperator(plain.app, 'bruno');
    const asOperator = await plain.app.request('/api/v1/channels', {
      headers: { 'X-Operator-Token': bruno },
    });
    expect(asOperator.status).toBe(403);
    // Both kinds: a route channel and a messaging channel, each as it is configured.
    const both = testApp({ operators, channels: [webChat(), new ScriptedChannel()] });
    const all = await list(both.app);
    expect(all.map(({ kind, name }) => `${kind}:${name}`)).toEqual(['routes:web-chat', 'messaging:scripted']);
    expect(all[1]).toMatchObject({
      webhook: '/channels/scripted/webhook',
      outbox: { pending: 0, dead: 0 },
      inbox: { pending: 0, failed: 0 },
    });
    await both.app.shutdown();
  });

  it('omitted: the web chat and the OpenAI-compatible endpoint', async () => {
    const { app } = testApp();
    expect(await surfaces(app)).toEqual({ webChat: 201, models: 200, completions: 200 });
  });

  it('a list of one messaging channel is a server with only it: no web chat, no /v1 (404)', async () => {
    const channel = new ScriptedChannel();
    const { app } = testApp({ channels: [channel] });
    expect(await surfaces(app)).toEqual({ webChat: 404, models: 404, completions: 404 });
    const webhook = await app.request(
      '/channels/scripted/webhook',
      scriptedUpdate({ id: '1', chat: '42', user: '7', text: 'hello' }),
    );
    expect(webhook.status).toBe(200);
    await expect.poll(() => channel.sent.length, { timeout: 10_000 }).toBeGreaterThan(0);
    await app.shutdown();
  });

  it('a list names the route channels it keeps: the web chat without the OpenAI endpoint', async () => {
    const { app } = testApp({ channels: [webChat(), new ScriptedChannel()] });
    expect(await surfaces(app)).toEqual({ webChat: 201, models: 404, completions: 404 });
    await app.shutdown();
  });

  it('today’s { channels: [messaging…] } keeps the web chat and the OpenAI endpoint; defaults: false drops them', async () => {
    const kept = testApp({ channels: { channels: [new ScriptedChannel()], pollMs: 50 } });
    expect(await surfaces(kept.app)).toEqual({ webChat: 201, models: 200, completions: 200 });
    await kept.app.shutdown();
    const only = testApp({ channels: { channels: [new ScriptedChannel()], pollMs: 50, defaults: false } });
    expect(await surfaces(only.app)).toEqual({ webChat: 404, models: 404, completions: 404 });
    await only.app.shutdown();
  });

  it('refuses two channels of one name, naming it and the fix', () => {
    expect(() => testApp({ channels: [webChat(), webChat()] })).toThrow(/Two channels are named "web-chat"/);
    expect(() => testApp({ channels: { channels: [new ScriptedChannel('openai')] } })).toThrow(
      /Two channels are named "openai": give each its own name/,
    );
  });

  it('refuses the widget on a server without the web chat, naming the fix', () => {
    expect(() =>
      testApp({ channels: [openAiCompatible()], widget: { origins: ['https://shop.example'] } }),
    ).toThrow(/add webChat\(\) to channels/);
  });

  it('routeChannel refuses a declared route outside its areas and a bad name', () => {
    const area = routeArea({ prefix: '/api/v1/status', access: 'public', routes: () => new Hono() });
    const capabilities = statusChannel().capabilities;
    expect(() =>
      routeChannel({
        name: 'status',
        capabilities,
        areas: [area],
        routes: [{ method: 'GET', path: '/v1/x', access: 'public' }],
      }),
    ).toThrow(/declares GET \/v1\/x, which is under none of its areas \(\/api\/v1\/status\)/);
    expect(() => routeChannel({ name: 'Status!', capabilities, areas: [area], routes: [] })).toThrow(
      /Route channel name "Status!" is not usable/,
    );
  });
});

/** A program's own route channel with a public, an operator and an admin route. */
function statusChannel(): RouteChannel {
  return routeChannel({
    name: 'status',
    capabilities: {
      streaming: false,
      options: false,
      files: { receive: false, send: false },
      typing: false,
      handoff: false,
    },
    areas: [
      routeArea({
        prefix: '/api/v1/status',
        access: 'public',
        routes: ({ agent }) => new Hono().get('/', (c) => c.json({ tree: agent.tree.name })),
      }),
      routeArea({
        prefix: '/api/v1/status-staff',
        access: 'operator',
        routes: () => new Hono().get('/', (c) => c.json({ ok: true })),
      }),
      routeArea({
        prefix: '/api/v1/status-admin',
        access: 'admin',
        routes: () => new Hono().post('/', (c) => c.json({ ok: true })),
      }),
    ],
    routes: [
      { method: 'GET', path: '/api/v1/status', access: 'public' },
      { method: 'GET', path: '/api/v1/status-staff', access: 'operator' },
      { method: 'POST', path: '/api/v1/status-admin', access: 'admin' },
    ],
  });
}

// The suite runs against a program's own route channel too (its staff cases included).
describeRouteChannel('a program’s own route channel', statusChannel);
