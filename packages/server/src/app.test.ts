import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from './test-support/fixtures.js';
import { WEB_CONTENT_SECURITY_POLICY } from './web-app/web-routes.js';

const KEY = 'sk-test-1';

describe('API keys', () => {
  it('requires Authorization: Bearer <key> on /api and /v1 when keys are set', async () => {
    const { app } = testApp({ apiKeys: ['other-key', KEY] });
    const missing = await app.request('/api/v1/sessions', { method: 'POST' });
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(await missing.json()).toEqual({
      error: { code: 'UNAUTHORIZED', message: expect.stringContaining('Authorization: Bearer') },
    });

    const wrong = await app.request('/api/v1/tree', { headers: { Authorization: 'Bearer sk-test-2' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });

    const right = await app.request('/api/v1/tree', { headers: { Authorization: `Bearer ${KEY}` } });
    expect(right.status).toBe(200);

    const openAi = await app.request('/v1/models', { headers: { Authorization: 'Bearer nope' } });
    expect(openAi.status).toBe(401);
    expect(await openAi.json()).toEqual({
      error: {
        message: 'The API key is not valid.',
        type: 'authentication_error',
        param: null,
        code: 'UNAUTHORIZED',
      },
    });
    expect((await app.request('/v1/models', { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(
      200,
    );
  });

  it('needs both the API key and the session token for a session', async () => {
    const { app } = testApp({ apiKeys: [KEY] });
    const auth = { Authorization: `Bearer ${KEY}` };
    const session = await createSession(app, auth);
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(401);
    expect((await postMessage(app, session, { message: 'hello' }, { headers: auth })).status).toBe(200);
  });

  it('leaves /health, /ready and /metrics open', async () => {
    const { app } = testApp({ apiKeys: [KEY] });
    for (const path of ['/health', '/ready', '/metrics'])
      expect((await app.request(path)).status, path).toBe(200);
  });
});

describe('errors', () => {
  it('answers unknown paths with the JSON error body (OpenAI shape under /v1)', async () => {
    const { app } = testApp();
    const api = await app.request('/api/v1/nothing');
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'There is no GET /api/v1/nothing.' },
    });
    const openAi = await app.request('/v1/nothing');
    expect(await openAi.json()).toMatchObject({
      error: { type: 'invalid_request_error', code: 'NOT_FOUND' },
    });
  });
});

describe('CORS', () => {
  it('sends no CORS headers unless configured', async () => {
    const { app } = testApp();
    const response = await app.request('/api/v1/tree', { headers: { Origin: 'https://shop.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers preflights before authentication, allowing the session headers', async () => {
    const { app } = testApp({ apiKeys: [KEY], cors: { origin: ['https://shop.example'] } });
    const preflight = await app.request('/api/v1/sessions/abc/messages', {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://shop.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, x-session-token',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('X-Session-Token');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');

    const actual = await app.request('/api/v1/tree', {
      headers: { Origin: 'https://shop.example', Authorization: `Bearer ${KEY}` },
    });
    expect(actual.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(actual.headers.get('access-control-expose-headers')).toContain('X-Session-Id');

    const stranger = await app.request('/api/v1/tree', {
      headers: { Origin: 'https://evil.example', Authorization: `Bearer ${KEY}` },
    });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('rate limit', () => {
  it('answers 429 RATE_LIMITED with Retry-After beyond max requests per window', async () => {
    const { app } = testApp({ rateLimit: { windowMs: 60_000, max: 2, key: () => 'one-client' } });
    expect((await app.request('/api/v1/tree')).status).toBe(200);
    expect((await app.request('/api/v1/tree')).status).toBe(200);
    const limited = await app.request('/api/v1/tree');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    const openAi = await app.request('/v1/models');
    expect(openAi.status).toBe(429);
    expect(await openAi.json()).toMatchObject({ error: { type: 'rate_limit_error', code: 'RATE_LIMITED' } });
    expect((await app.request('/health')).status).toBe(200);
  });
});

describe('shutdown', () => {
  it('refuses new turns with 503 SHUTTING_DOWN once shutdown began', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    await app.shutdown({ timeoutMs: 10 });
    const response = await postMessage(app, session, { message: 'hello' });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toMatchObject({ error: { code: 'SHUTTING_DOWN' } });
  });
});

describe('web page hook', () => {
  it('serves static files from web.directory, / being index.html, never under /api', async () => {
    const { mkdtemp, writeFile, mkdir } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const directory = await mkdtemp(join(tmpdir(), 'treeagent-web-'));
    await writeFile(join(directory, 'index.html'), '<h1>chat</h1>');
    await writeFile(join(directory, 'app.js'), 'console.log(1)');
    await mkdir(join(directory, 'api'));
    await writeFile(join(directory, 'api', 'secret.txt'), 'no');
    const { app } = testApp({ web: { directory } });
    const index = await app.request('/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    expect(await index.text()).toBe('<h1>chat</h1>');
    expect(await (await app.request('/app.js')).text()).toBe('console.log(1)');
    expect((await app.request('/api/secret.txt')).status).toBe(404);
    expect((await app.request('/missing.css')).status).toBe(404);
  });

  it('caches hashed assets for a year and revalidates the rest; HTML gets the CSP; pages of the router get index.html', async () => {
    const { mkdtemp, writeFile, mkdir } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const directory = await mkdtemp(join(tmpdir(), 'treeagent-web-'));
    await writeFile(join(directory, 'index.html'), '<h1>app</h1>');
    await mkdir(join(directory, 'assets'));
    await writeFile(join(directory, 'assets', 'index-3f2a.js'), 'console.log(1)');
    const { app } = testApp({ web: { directory } });
    const html = { headers: { accept: 'text/html,application/xhtml+xml' } };

    const index = await app.request('/', html);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toBe(WEB_CONTENT_SECURITY_POLICY);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    const asset = await app.request('/assets/index-3f2a.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-security-policy')).toBeNull();

    // A page of the app's router, loaded directly: index.html, with its headers.
    const page = await app.request('/tree', html);
    expect(page.status).toBe(200);
    expect(await page.text()).toBe('<h1>app</h1>');
    expect(page.headers.get('content-security-policy')).toBe(WEB_CONTENT_SECURITY_POLICY);
    // Not for files, non-HTML requests or the API.
    expect((await app.request('/assets/missing.js', html)).status).toBe(404);
    expect((await app.request('/tree')).status).toBe(404);
    expect((await app.request('/api/v1/nothing', html)).status).toBe(404);

    const open = testApp({ web: { directory, contentSecurityPolicy: false } }).app;
    expect((await open.request('/', html)).headers.get('content-security-policy')).toBeNull();
  });

  it('tells the page its view: customer without debug (serve), developer in debug mode (dev), or as set', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const directory = await mkdtemp(join(tmpdir(), 'treeagent-web-'));
    const view = async (app: ReturnType<typeof testApp>['app']) => {
      const response = await app.request('/web-settings.json');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      return ((await response.json()) as { view: string }).view;
    };
    expect(await view(testApp({ web: { directory } }).app)).toBe('customer');
    expect(await view(testApp({ web: { directory }, debug: true }).app)).toBe('developer');
    expect(await view(testApp({ web: { directory, view: 'developer' } }).app)).toBe('developer');
    expect(await view(testApp({ web: { directory, view: 'customer' }, debug: true }).app)).toBe('customer');
  });

  it("gives the web app the deployment's locale in /web-settings.json, and none when unset", async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const directory = await mkdtemp(join(tmpdir(), 'treeagent-web-'));
    const settings = async (app: ReturnType<typeof testApp>['app']) =>
      (await (await app.request('/web-settings.json')).json()) as { view: string; locale?: string };
    expect(await settings(testApp({ web: { directory }, locale: 'it' }).app)).toEqual({
      view: 'customer',
      locale: 'it',
    });
    expect(await settings(testApp({ web: { directory, locale: 'es' } }).app)).toMatchObject({ locale: 'es' });
    expect(await settings(testApp({ web: { directory } }).app)).toEqual({ view: 'customer' });
    expect(() => testApp({ web: { directory, locale: 'xx' } })).toThrow(/web\.locale is "xx"/);
  });

  it('says how to build the web app when its directory has no index.html', async () => {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const directory = await mkdtemp(join(tmpdir(), 'treeagent-web-'));
    const { app } = testApp({ web: { directory } });
    const page = await app.request('/', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build:web');
    expect((await app.request('/api/v1/tree')).status).toBe(200);
  });
});
