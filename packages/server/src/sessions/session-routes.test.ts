import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';

describe('POST /api/v1/sessions', () => {
  it('creates a session with a random id and token, shown once', async () => {
    const { app } = testApp();
    const response = await app.request('/api/v1/sessions', { method: 'POST' });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const first = (await response.json()) as { sessionId: string; token: string };
    const second = await createSession(app);
    expect(first.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.token.length).toBeGreaterThanOrEqual(43);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.token).not.toBe(first.token);
  });
});

describe('GET /api/v1/sessions/:id/history', () => {
  it('returns the history, oldest first, and honours limit', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const empty = await app.request(`/api/v1/sessions/${session.sessionId}/history`, {
      headers: { 'X-Session-Token': session.token },
    });
    expect(await empty.json()).toEqual({ sessionId: session.sessionId, history: [] });

    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
    const full = await app.request(`/api/v1/sessions/${session.sessionId}/history`, {
      headers: { 'X-Session-Token': session.token },
    });
    const body = (await full.json()) as { history: { role: string; content: string }[] };
    expect(body.history.map((entry) => [entry.role, entry.content])).toEqual([
      ['user', 'hello'],
      ['assistant', 'Hi! How can I help?'],
    ]);
    const last = await app.request(`/api/v1/sessions/${session.sessionId}/history?limit=1`, {
      headers: { 'X-Session-Token': session.token },
    });
    expect(((await last.json()) as { history: unknown[] }).history).toHaveLength(1);
  });

  it('refuses a bad limit with INVALID_REQUEST', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const response = await app.request(`/api/v1/sessions/${session.sessionId}/history?limit=0`, {
      headers: { 'X-Session-Token': session.token },
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as {
      error: { code: string; details: { issues: { path: string }[] } };
    };
    expect(body.error.code).toBe('INVALID_REQUEST');
    expect(body.error.details.issues[0]!.path).toBe('limit');
  });

  it('answers 503 SESSION_STORE when the store fails', async () => {
    const { app, agent, logger } = testApp();
    const session = await createSession(app);
    agent.sessionStore.history = async () => {
      throw new Error('connection refused');
    };
    const response = await app.request(`/api/v1/sessions/${session.sessionId}/history`, {
      headers: { 'X-Session-Token': session.token },
    });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('SESSION_STORE');
    expect(logger.entries).toHaveLength(1);
  });
});

describe('session access', () => {
  it('404 for an unknown session, 401 without the token, 403 with another session token', async () => {
    const { app } = testApp();
    const mine = await createSession(app);
    const theirs = await createSession(app);
    const history = (id: string, headers: Record<string, string> = {}) =>
      app.request(`/api/v1/sessions/${id}/history`, { headers });

    const unknown = await history('no-such-session', { 'X-Session-Token': mine.token });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');

    const missing = await history(mine.sessionId);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });

    const other = await history(mine.sessionId, { 'X-Session-Token': theirs.token });
    expect(other.status).toBe(403);
    expect(await other.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });

    const write = await postMessage(
      app,
      { sessionId: mine.sessionId, token: theirs.token },
      { message: 'hello' },
    );
    expect(write.status).toBe(403);

    const path = await history('..%2F..%2Fetc', { 'X-Session-Token': mine.token });
    expect(path.status).toBe(404);
  });
});

describe('DELETE /api/v1/sessions/:id and POST /api/v1/sessions/:id/reset', () => {
  async function uploadFile(
    app: ReturnType<typeof testApp>['app'],
    session: { sessionId: string; token: string },
  ) {
    const form = new FormData();
    form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
    const response = await app.request(`/api/v1/sessions/${session.sessionId}/files`, {
      method: 'POST',
      headers: { 'X-Session-Token': session.token },
      body: form,
    });
    return ((await response.json()) as { id: string }).id;
  }

  it('delete needs the token, then removes history, state, files and the token', async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    const fileId = await uploadFile(app, session);
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
    const path = `/api/v1/sessions/${session.sessionId}`;
    expect((await app.request(path, { method: 'DELETE' })).status).toBe(401);
    expect((await app.request(path, { method: 'DELETE', headers: { 'X-Session-Token': 'x' } })).status).toBe(
      403,
    );
    const deleted = await app.request(path, {
      method: 'DELETE',
      headers: { 'X-Session-Token': session.token },
    });
    expect(deleted.status).toBe(204);
    expect(await agent.sessionStore.load(session.sessionId)).toBeNull();
    expect(await agent.history(session.sessionId)).toEqual([]);
    expect(await agent.fileStore.metadata(fileId)).toBeNull();
    // The token opens nothing any more.
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(404);
    expect(
      (await app.request(path, { method: 'DELETE', headers: { 'X-Session-Token': session.token } })).status,
    ).toBe(404);
  });

  it('reset starts the conversation over and keeps the session usable', async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    await postMessage(app, session, { message: 'hello' });
    await postMessage(app, session, { message: 'hello' });
    const path = `/api/v1/sessions/${session.sessionId}/reset`;
    expect((await app.request(path, { method: 'POST' })).status).toBe(401);
    // A body it does not take is refused, and nothing is reset.
    const headers = { 'X-Session-Token': session.token, 'Content-Type': 'application/json' };
    for (const body of ['{', '{"all":true}', '[]'])
      expect((await app.request(path, { method: 'POST', headers, body })).status, body).toBe(400);
    expect(await agent.history(session.sessionId)).not.toEqual([]);
    expect((await app.request(path, { method: 'POST', headers, body: '{}' })).status).toBe(204);
    expect(
      (await app.request(path, { method: 'POST', headers: { 'X-Session-Token': session.token } })).status,
    ).toBe(204);
    expect(await agent.history(session.sessionId)).toEqual([]);
    const next = await postMessage(app, session, { message: 'hello' });
    expect(((await next.json()) as { turn: number }).turn).toBe(1);
  });
});
