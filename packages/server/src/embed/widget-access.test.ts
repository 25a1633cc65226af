import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testApp } from '../test-support/fixtures.js';
import { signUserId, verifyUserSignature } from './widget-identity.js';
import { widgetScript } from './widget-script.js';

const SITE = 'https://shop.example.com';
const SECRET = 'a-widget-secret-of-at-least-32-characters';

function widgetApp() {
  return testApp({ widget: { origins: [SITE], identitySecret: SECRET } }).app;
}

describe('the widget on the session routes', () => {
  it('answers the preflight and the requests of an allowed origin with CORS', async () => {
    const app = widgetApp();
    const preflight = await app.request('/api/v1/sessions', {
      method: 'OPTIONS',
      headers: { Origin: SITE, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('X-Session-Token');
    const created = await app.request('/api/v1/sessions', { method: 'POST', headers: { Origin: SITE } });
    expect(created.status).toBe(201);
    expect(created.headers.get('access-control-allow-origin')).toBe(SITE);
    const { sessionId, token } = (await created.json()) as { sessionId: string; token: string };
    const history = await app.request(`/api/v1/sessions/${sessionId}/history`, {
      headers: { Origin: SITE, 'X-Session-Token': token },
    });
    expect(history.status).toBe(200);
    expect(history.headers.get('access-control-allow-origin')).toBe(SITE);
    // An error of the route is readable by the site too.
    const refused = await app.request(`/api/v1/sessions/${sessionId}/history`, { headers: { Origin: SITE } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(SITE);
  });

  it('refuses any other origin, saying how to allow it; same-origin and server-to-server requests pass', async () => {
    const app = widgetApp();
    const refused = await app.request('/api/v1/sessions', {
      method: 'POST',
      headers: { Origin: 'https://evil.example' },
    });
    expect(refused.status).toBe(403);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('ORIGIN_NOT_ALLOWED');
    expect(body.error.message).toContain('--widget-origin https://evil.example');
    // Readable by that site (its widget's error event says why, instead of a network failure), and
    // nothing else: its preflight passes, every request of it is this refusal.
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    const preflight = await app.request('/api/v1/sessions', {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://evil.example');
    const history = await app.request('/api/v1/sessions/any/history', {
      headers: { Origin: 'https://evil.example', 'X-Session-Token': 'x' },
    });
    expect(history.status).toBe(403);
    expect((await app.request('/api/v1/sessions', { method: 'POST' })).status).toBe(201);
    const own = await app.request('http://localhost/api/v1/sessions', {
      method: 'POST',
      headers: { Origin: 'http://localhost' },
    });
    expect(own.status).toBe(201);
  });

  it('creates a session for a user id only with its signature; a forged one is refused with the fix', async () => {
    const app = widgetApp();
    const create = (userId: string, signature: string | null) =>
      app.request('/api/v1/sessions', {
        method: 'POST',
        headers: {
          Origin: SITE,
          'Content-Type': 'application/json',
          ...(signature === null ? {} : { 'X-User-Signature': signature }),
        },
        body: JSON.stringify({ userId }),
      });
    expect((await create('user-42', signUserId('user-42', SECRET))).status).toBe(201);
    for (const forged of [
      signUserId('user-42', 'another-secret-of-at-least-32-chars!'),
      signUserId('user-7', SECRET),
      'abc',
      null,
    ]) {
      const response = await create('user-42', forged);
      expect(response.status).toBe(401);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('IDENTITY_REFUSED');
      expect(error.message).toContain('HMAC-SHA256');
      expect(response.headers.get('access-control-allow-origin')).toBe(SITE);
    }
    // Without a secret, identify() cannot be verified: refused too, saying what to set.
    const open = testApp({ widget: { origins: [SITE] } }).app;
    const unsigned = await open.request('/api/v1/sessions', {
      method: 'POST',
      headers: { Origin: SITE, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: 'user-42' }),
    });
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { error: { message: string } }).error.message).toContain(
      '--widget-secret-file',
    );
    expect(() => testApp({ widget: { origins: [SITE], identitySecret: 'short' } })).toThrow(/at least 32/);
  });

  it('on a deployment without API keys, a user id asked without an Origin (or from its own pages) needs its signature too', async () => {
    const app = widgetApp();
    const create = (headers: Record<string, string>, body: object) =>
      app.request('http://localhost/api/v1/sessions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    // A curl without an Origin, or a request that claims the server's own origin: no borrowed id.
    for (const headers of [{}, { Origin: 'http://localhost' }] as Record<string, string>[]) {
      const borrowed = await create(headers, { userId: 'user-42' });
      expect(borrowed.status).toBe(401);
      expect(((await borrowed.json()) as { error: { code: string } }).error.code).toBe('IDENTITY_REFUSED');
      const signed = await create(
        { ...headers, 'X-User-Signature': signUserId('user-42', SECRET) },
        {
          userId: 'user-42',
        },
      );
      expect(signed.status).toBe(201);
      // Anonymous sessions (the server's own chat page) are not affected.
      expect((await create(headers, {})).status).toBe(201);
    }
    // With API keys the backend's key vouches for the id: no signature asked.
    const KEY = 'sk-widget-test-key-0000';
    const keyed = testApp({ apiKeys: [KEY], widget: { origins: [SITE], identitySecret: SECRET } }).app;
    const backend = await keyed.request('/api/v1/sessions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: 'user-42' }),
    });
    expect(backend.status).toBe(201);
  });

  it('on a deployment with API keys: refuses the widget, naming the option, unless the widget is allowed', async () => {
    const KEY = 'sk-widget-test-key-0000';
    const keyed = testApp({ apiKeys: [KEY], widget: { origins: [SITE] } }).app;
    const refused = await keyed.request('/api/v1/sessions', { method: 'POST', headers: { Origin: SITE } });
    expect(refused.status).toBe(403);
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('WIDGET_NOT_ALLOWED');
    expect(error.message).toContain('--widget-without-api-key');
    expect(error.message).toContain('widget.allowWithoutApiKey');
    // The site can read why (CORS on the refusal), after a preflight that passes.
    expect(refused.headers.get('access-control-allow-origin')).toBe(SITE);
    const preflight = await keyed.request('/api/v1/sessions', {
      method: 'OPTIONS',
      headers: { Origin: SITE, 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    // The backend with its key is not affected; without a key, the usual 401.
    const backend = await keyed.request('/api/v1/sessions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(backend.status).toBe(201);
    expect((await keyed.request('/api/v1/sessions', { method: 'POST' })).status).toBe(401);

    const allowed = testApp({ apiKeys: [KEY], widget: { origins: [SITE], allowWithoutApiKey: true } }).app;
    const created = await allowed.request('/api/v1/sessions', { method: 'POST', headers: { Origin: SITE } });
    expect(created.status).toBe(201);
    const { sessionId, token } = (await created.json()) as { sessionId: string; token: string };
    const history = await allowed.request(`/api/v1/sessions/${sessionId}/history`, {
      headers: { Origin: SITE, 'X-Session-Token': token },
    });
    expect(history.status).toBe(200);
    // Only the session routes, only from the listed sites: the rest of the API keeps its key.
    expect((await allowed.request('/api/v1/tree', { headers: { Origin: SITE } })).status).toBe(401);
    expect(
      (
        await allowed.request('/api/v1/sessions', {
          method: 'POST',
          headers: { Origin: 'https://evil.example' },
        })
      ).status,
    ).toBe(403);
    expect((await allowed.request('/api/v1/sessions', { method: 'POST' })).status).toBe(401);
  });

  it('verifies signatures in constant time and only of the right length', () => {
    const signature = signUserId('u', SECRET);
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyUserSignature('u', signature, SECRET)).toBe(true);
    expect(verifyUserSignature('u', signature.toUpperCase(), SECRET)).toBe(true);
    expect(verifyUserSignature('u', signature.slice(2), SECRET)).toBe(false);
    expect(verifyUserSignature('v', signature, SECRET)).toBe(false);
  });
});

describe('the widget script', () => {
  it('is served to any site, cached for an hour then revalidated by its ETag', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-widget-'));
    writeFileSync(join(directory, 'widget.js'), 'console.log("widget")');
    const app = testApp().app;
    app.get('/widget.js', widgetScript(directory));
    const response = await app.request('/widget.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600, must-revalidate');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.text()).toBe('console.log("widget")');
    const etag = response.headers.get('etag')!;
    const again = await app.request('/widget.js', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    const missing = testApp().app;
    missing.get('/widget.mjs', widgetScript(directory));
    const unbuilt = await missing.request('/widget.mjs');
    expect(unbuilt.status).toBe(503);
    expect(await unbuilt.text()).toContain('npm run build:widget');
  });

  it("carries the deployment's locale, and refuses a locale that is not a language tag", async () => {
    const directory = mkdtempSync(join(tmpdir(), 'treeagent-widget-'));
    writeFileSync(join(directory, 'widget.js'), 'const l=`__TREEAGENT_DEPLOYMENT_LOCALE__`;');
    const italian = testApp().app;
    italian.get('/widget.js', widgetScript(directory, 'it-IT'));
    expect(await (await italian.request('/widget.js')).text()).toBe('const l=`it-IT`;');
    const plain = testApp().app;
    plain.get('/widget.js', widgetScript(directory));
    expect(await (await plain.request('/widget.js')).text()).toBe(
      'const l=`__TREEAGENT_DEPLOYMENT_LOCALE__`;',
    );
    for (const bad of ['italian`;alert(1)//', 'it_IT', ''])
      expect(() => widgetScript(directory, bad)).toThrow(/not a language tag.*--widget-locale/);
    const served = testApp({ widget: { origins: [SITE], locale: 'it' } }).app;
    expect((await served.request('/widget.js')).status).not.toBe(404);
  });

  it('is on the app with the widget option, and not without it', async () => {
    expect((await widgetApp().request('/widget.js')).status).not.toBe(404);
    expect((await testApp().app.request('/widget.js')).status).toBe(404);
  });
});
