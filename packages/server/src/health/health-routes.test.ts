import { describe, expect, it } from 'vitest';
import { testApp } from '../test-support/fixtures.js';

describe('GET /health and GET /ready', () => {
  it('/health answers while the process lives', async () => {
    const { app } = testApp({ apiKeys: ['secret'] });
    const response = await app.request('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('/ready is 200 once the tree is loaded and the session store answers', async () => {
    const { app } = testApp();
    const response = await app.request('/ready');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ready',
      checks: { tree: { ok: true }, sessionStore: { ok: true }, accepting: { ok: true } },
    });
  });

  it('/ready is 503 when the session store is unreachable', async () => {
    const { app, agent } = testApp();
    agent.sessionStore.load = async () => {
      throw new Error('ECONNREFUSED');
    };
    const response = await app.request('/ready');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'not-ready',
      checks: { sessionStore: { ok: false, reason: 'ECONNREFUSED' } },
    });
  });

  it('/ready is 503 when the tree cannot be loaded, or does not load in time', async () => {
    const failing = testApp({
      agentOptions: {
        embedder: {
          id: 'broken',
          dimensions: 2,
          embed: () => {
            throw new Error('embedder offline');
          },
        },
      },
    });
    const broken = await failing.app.request('/ready');
    expect(broken.status).toBe(503);
    expect(await broken.json()).toMatchObject({
      checks: { tree: { ok: false, reason: expect.stringContaining('offline') } },
    });

    const slow = testApp({
      readyTimeoutMs: 20,
      agentOptions: { embedder: { id: 'slow', dimensions: 2, embed: () => new Promise(() => {}) } },
    });
    const loading = await slow.app.request('/ready');
    expect(loading.status).toBe(503);
    expect(await loading.json()).toMatchObject({
      checks: { tree: { ok: false, reason: 'loading the tree did not answer within 20 ms' } },
    });
  });

  it('/ready is 503 once shutdown began', async () => {
    const { app } = testApp();
    await app.shutdown({ timeoutMs: 10 });
    const response = await app.request('/ready');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      checks: { accepting: { ok: false, reason: 'shutting down' } },
    });
  });
});
