import { describe, expect, it } from 'vitest';
import { operatorDirectory } from './operators/operator-accounts.js';
import { createSession, postMessage, testApp } from './test-support/fixtures.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from './test-support/operators.js';

const KEY = 'sk-hardening';

describe('JSON endpoints require application/json (no cross-site form posts)', () => {
  it('answers 415 UNSUPPORTED_MEDIA_TYPE to a text/plain or untyped body', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const response = await postMessage(
        app,
        session,
        { message: 'hello' },
        {
          headers: type === null ? {} : { 'Content-Type': type },
        },
      );
      if (type === null) {
        // postMessage sets application/json: send again without any type.
        const untyped = await app.request(`/api/v1/sessions/${session.sessionId}/messages`, {
          method: 'POST',
          headers: { 'X-Session-Token': session.token },
          body: new Blob([JSON.stringify({ message: 'hello' })]),
        });
        expect(untyped.status).toBe(415);
        continue;
      }
      expect(response.status, type).toBe(415);
      expect(await response.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    }
    const completion = await app.request('/v1/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ model: 'test-shop', messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(completion.status).toBe(415);
    expect(await completion.json()).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
    // application/json with a charset, and +json types, are JSON.
    const ok = await postMessage(
      app,
      session,
      { message: 'hello' },
      {
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
      },
    );
    expect(ok.status).toBe(200);
  });
});

describe('Host allow-list (DNS rebinding)', () => {
  it('refuses a Host that is not allowed with 403 HOST_NOT_ALLOWED, on every path', async () => {
    const { app } = testApp({ allowedHosts: ['localhost', '127.0.0.1', '.localhost'] });
    for (const path of ['/api/v1/tree', '/health', '/v1/models']) {
      const evil = await app.request(`http://attacker.example${path}`);
      expect(evil.status, path).toBe(403);
      expect(await evil.json()).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
    }
    expect((await app.request('http://localhost:3000/api/v1/tree')).status).toBe(200);
    expect((await app.request('http://127.0.0.1:3000/health')).status).toBe(200);
    expect((await app.request('http://app.localhost/health')).status).toBe(200);
    expect((await app.request('http://localhost.attacker.example/health')).status).toBe(403);
  });
});

describe('failed authentication is rate-limited per client', () => {
  it('refuses every request of a client with 429 once it failed authentication too often', async () => {
    const { app } = testApp({ apiKeys: [KEY], authFailureLimit: { windowMs: 60_000, max: 3 } });
    const wrong = { Authorization: 'Bearer sk-guess' };
    for (let i = 0; i < 3; i++)
      expect((await app.request('/api/v1/tree', { headers: wrong })).status).toBe(401);
    const limited = await app.request('/api/v1/tree', { headers: wrong });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBeTruthy();
    expect(await limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    // Even the right key is refused until the window ends: a right guess looks like a wrong one.
    const right = await app.request('/api/v1/tree', { headers: { Authorization: `Bearer ${KEY}` } });
    expect(right.status).toBe(429);
  });

  it('counts wrong session tokens too', async () => {
    const { app } = testApp({ authFailureLimit: { windowMs: 60_000, max: 2 } });
    const session = await createSession(app);
    for (let i = 0; i < 2; i++)
      expect((await postMessage(app, { ...session, token: `wrong-${i}` }, { message: 'hello' })).status).toBe(
        403,
      );
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(429);
  });

  it('checks at most `max` passwords per window, however many guesses arrive at once', async () => {
    const operators = { directory: operatorDirectory(await testOperatorAccounts()) };
    const { app } = testApp({ operators, authFailureLimit: { windowMs: 60_000, max: 5 } });
    const login = (password: string) =>
      app.request('/api/v1/operator/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ login: 'anna', password }),
      });
    // 30 guesses sent together: each password check is slow (scrypt), so all 30 are in flight
    // before the first fails. Only 5 are checked; the others are refused before any check.
    const statuses = (
      await Promise.all(Array.from({ length: 30 }, (_, i) => login(`guess-${i}-xxxxxxx`)))
    ).map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(25);
    // The right password too, until the window ends.
    expect((await login(OPERATOR_PASSWORDS.anna)).status).toBe(429);
  });

  it('does not count a right password as a failure', async () => {
    const operators = { directory: operatorDirectory(await testOperatorAccounts()) };
    const { app } = testApp({ operators, authFailureLimit: { windowMs: 60_000, max: 2 } });
    const login = (password: string) =>
      app.request('/api/v1/operator/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ login: 'bruno', password }),
      });
    for (let i = 0; i < 4; i++) expect((await login(OPERATOR_PASSWORDS.bruno)).status).toBe(200);
    expect((await login('wrong-password-1')).status).toBe(401);
    expect((await login(OPERATOR_PASSWORDS.bruno)).status).toBe(200);
    expect((await login('wrong-password-2')).status).toBe(401);
    expect((await login(OPERATOR_PASSWORDS.bruno)).status).toBe(429);
  });

  it('is on by default', async () => {
    const { app } = testApp({ apiKeys: [KEY] });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await app.request('/v1/models', { headers: { Authorization: 'Bearer x' } })).status);
    expect(statuses.slice(0, 20).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(20).every((status) => status === 429)).toBe(true);
  });
});

describe('malformed multipart uploads', () => {
  it('answer 400 INVALID_REQUEST with the stable body, and log nothing', async () => {
    const { app, logger } = testApp();
    const session = await createSession(app);
    const bodies: [string, string][] = [
      [
        'multipart/form-data; boundary=ZZ',
        '--AA\r\nContent-Disposition: form-data; name="file"\r\n\r\nx\r\n--AA--\r\n',
      ],
      [
        'multipart/form-data',
        '--ZZ\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nx\r\n--ZZ--\r\n',
      ],
      [
        'multipart/form-data; boundary=ZZ',
        '--ZZ\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nunterminated',
      ],
      ['multipart/form-data; boundary=', 'garbage'],
      ['multipart/form-data; boundary=ZZ', ''],
    ];
    for (const [type, body] of bodies) {
      const response = await app.request(`/api/v1/sessions/${session.sessionId}/files`, {
        method: 'POST',
        headers: { 'Content-Type': type, 'X-Session-Token': session.token },
        body,
      });
      expect(response.status, `${type} ${JSON.stringify(body)}`).toBe(400);
      const error = ((await response.json()) as { error: Record<string, unknown> }).error;
      expect(error).toEqual({ code: 'INVALID_REQUEST', message: expect.any(String) });
    }
    expect(logger.entries).toEqual([]);
  });
});
