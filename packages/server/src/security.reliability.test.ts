import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from './test-support/fixtures.js';

const KEY = 'sk-live-SECRET-0123456789';
type App = ReturnType<typeof testApp>['app'];

function upload(app: App, session: { sessionId: string; token: string }, headers: Record<string, string>) {
  const form = new FormData();
  form.append('file', new Blob(['%PDF-1.4 private'], { type: 'application/pdf' }), 'private.pdf');
  return app.request(`/api/v1/sessions/${session.sessionId}/files`, {
    method: 'POST',
    headers: { 'X-Session-Token': session.token, ...headers },
    body: form,
  });
}

describe('security', () => {
  it('never puts the API key or the bearer token in traces, logs or error bodies', async () => {
    const { app, agent, logger } = testApp({ apiKeys: [KEY], debug: true });
    const auth = { Authorization: `Bearer ${KEY}` };
    const session = await createSession(app, auth);
    const seen: string[] = [];
    for (const message of ['hello', 'fail', 'story', 'nothing here'])
      seen.push(await (await postMessage(app, session, { message }, { headers: auth })).text());
    seen.push(
      await (
        await postMessage(
          app,
          session,
          { message: 'hello' },
          { headers: { ...auth, Accept: 'text/event-stream' } },
        )
      ).text(),
    );
    // Wrong keys and wrong tokens: the error bodies do not echo them.
    seen.push(
      await (await app.request('/api/v1/tree', { headers: { Authorization: `Bearer ${KEY}x` } })).text(),
    );
    seen.push(
      await (
        await postMessage(app, { ...session, token: `${KEY}` }, { message: 'x' }, { headers: auth })
      ).text(),
    );
    seen.push(
      await (
        await app.request('/v1/chat/completions', {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ model: 'x', messages: [{ role: 'user', content: 'fail' }] }),
        })
      ).text(),
    );
    seen.push(JSON.stringify(await agent.history(session.sessionId)));
    seen.push(
      JSON.stringify(logger.entries, (_key, value) =>
        value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
      ),
    );
    expect(logger.entries.length).toBeGreaterThan(0);
    for (const text of seen) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(session.token);
    }
  });

  it('refuses path traversal in file downloads', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const upload1 = (await (await upload(app, session, {})).json()) as { id: string };
    for (const fileId of [
      '..%2F..%2Fetc%2Fpasswd',
      `..%2Fsession%2F${upload1.id}`,
      '%2e%2e%2f%2e%2e%2fpackage.json',
      '....//....//etc/passwd',
      `${upload1.id}%00.pdf`,
    ]) {
      const response = await app.request(`/api/v1/sessions/${session.sessionId}/files/${fileId}`, {
        headers: { 'X-Session-Token': session.token },
      });
      expect(response.status, fileId).toBeGreaterThanOrEqual(400);
      expect(response.status, fileId).toBeLessThan(500);
      expect(await response.text()).not.toContain('root:');
    }
  });

  it('does not let a message attach or download another session’s file', async () => {
    const { app } = testApp();
    const mine = await createSession(app);
    const theirs = await createSession(app);
    const file = (await (await upload(app, theirs, {})).json()) as { id: string };
    const attach = await postMessage(app, mine, { message: 'hello', attachments: [file.id] });
    expect(attach.status).toBeGreaterThanOrEqual(400);
    expect(attach.status).toBeLessThan(500);
    const download = await app.request(`/api/v1/sessions/${mine.sessionId}/files/${file.id}`, {
      headers: { 'X-Session-Token': mine.token },
    });
    expect(download.status).toBe(404);
    const crossToken = await app.request(`/api/v1/sessions/${theirs.sessionId}/files/${file.id}`, {
      headers: { 'X-Session-Token': mine.token },
    });
    expect([401, 403, 404]).toContain(crossToken.status);
  });

  it('keeps the debug view off unless enabled', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const output = (await (await postMessage(app, session, { message: 'hello' })).json()) as Record<
      string,
      unknown
    >;
    expect(output.trace).toBeUndefined();
    const route = await app.request('/api/v1/route', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(route.status).toBe(404);
    const tree = await (await app.request('/api/v1/tree')).text();
    expect(tree).not.toContain('"hello"');
    const failing = (await (await postMessage(app, session, { message: 'fail' })).json()) as {
      error: { message: string };
    };
    expect(failing.error.message).not.toContain('password');

    const debug = testApp({ debug: true });
    const debugRoute = await debug.app.request('/api/v1/route', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(debugRoute.status).toBe(200);
    expect(await (await debug.app.request('/api/v1/tree')).text()).toContain('hello');
  });

  it('rate limits with 429 and the stable body', async () => {
    const { app } = testApp({ rateLimit: { windowMs: 60_000, max: 3, key: () => 'one' } });
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 5; i++) {
      last = await app.request('/api/v1/tree');
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = (await last!.json()) as { error: Record<string, unknown> };
    expect(body.error).toMatchObject({ code: 'RATE_LIMITED', message: expect.any(String) });
    // userMessage: the same refusal for a customer, in the request's language (docs/languages.md).
    expect(Object.keys(body.error).sort()).toEqual(['code', 'details', 'message', 'userMessage']);
    expect(body.error.userMessage).toMatch(/^Too many requests\. Try again in \d+ seconds\.$/);
    const openAi = await app.request('/v1/models');
    expect(openAi.status).toBe(429);
    expect(await openAi.json()).toEqual({
      error: { message: expect.any(String), type: 'rate_limit_error', param: null, code: 'RATE_LIMITED' },
    });
  });
});
