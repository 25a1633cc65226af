import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { MAX_JSON_DEPTH } from './body-problems.js';
import { describeIssues } from './read-json.js';

const json = { 'Content-Type': 'application/json' };

/** A JSON value nested `depth` arrays deep. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('what no JSON endpoint keeps is refused at the edge with a 400 naming where', () => {
  it('a body nested thousands of levels deep: 400, not a 500 from an exhausted stack, nothing logged', async () => {
    const { app, logger } = testApp();
    const session = await createSession(app);
    for (const [path, body] of [
      ['/api/v1/sessions', nested(5000)],
      [
        `/api/v1/sessions/${session.sessionId}/messages`,
        `{"message":"hi","clientMetadata":{"a":${nested(5000)}}}`,
      ],
      ['/v1/chat/completions', `{"model":"x","messages":${nested(5000)}}`],
      ['/api/v1/operator/login', `{"login":${nested(100_000)}}`],
    ] as const) {
      const response = await app.request(path, {
        method: 'POST',
        headers: { ...json, 'X-Session-Token': session.token },
        body,
      });
      expect(response.status, path).toBe(400);
      expect(JSON.stringify(await response.json()), path).toMatch(/nests more than 64 levels deep/);
    }
    expect(logger.entries).toEqual([]);
    // A body as deep as the bound passes the walk (the schema then says what it expects).
    const deepest = await postMessage(
      app,
      session,
      JSON.parse(`{"message":"hi","clientMetadata":{"a":${nested(MAX_JSON_DEPTH - 3)}}}`),
    );
    expect(deepest.status).toBe(200);
  });

  it('a NUL character (U+0000) in a message or a key: 400 naming where, nothing stored', async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    const response = await postMessage(app, session, { message: 'spedizioni\u0000x' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { code: string; message: string; details: any } };
    expect(body.error.code).toBe('INVALID_REQUEST');
    expect(body.error.message).toMatch(/message: .*NUL character \(U\+0000/);
    expect(body.error.details.issues[0]).toEqual({ path: 'message', message: 'NUL character (U+0000)' });
    const inKey = await postMessage(app, session, { message: 'hi', clientMetadata: { 'a\u0000': 1 } });
    expect(inKey.status).toBe(400);
    expect(((await inKey.json()) as any).error.details.issues[0].path).toBe('clientMetadata.a\u0000');
    expect(await agent.history(session.sessionId)).toEqual([]);
  });

  it('bytes that are not UTF-8: 400, not stored with replacement characters', async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    // "caffè" in Latin-1: 0xE8 alone is no UTF-8.
    const latin1 = Uint8Array.from([...Buffer.from('{"message":"caff'), 0xe8, ...Buffer.from(' resi"}')]);
    const response = await app.request(`/api/v1/sessions/${session.sessionId}/messages`, {
      method: 'POST',
      headers: { ...json, 'X-Session-Token': session.token },
      body: latin1,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).error.message).toMatch(/not valid UTF-8/);
    expect(await agent.history(session.sessionId)).toEqual([]);
  });

  it('a charset other than UTF-8 is 415 saying to send UTF-8; charset=utf-8 passes', async () => {
    const { app } = testApp();
    const session = await createSession(app);
    const send = (type: string) =>
      app.request(`/api/v1/sessions/${session.sessionId}/messages`, {
        method: 'POST',
        headers: { 'Content-Type': type, 'X-Session-Token': session.token },
        body: JSON.stringify({ message: 'caffè' }),
      });
    const latin1 = await send('application/json; charset=iso-8859-1');
    expect(latin1.status).toBe(415);
    expect(((await latin1.json()) as any).error.message).toMatch(/declared as iso-8859-1: send it in UTF-8/);
    expect((await send('application/json; charset=UTF-8')).status).toBe(200);
    expect((await send('application/json;charset="utf-8"')).status).toBe(200);
  });
});

describe('a compressed body is refused as such', () => {
  it('Content-Encoding: gzip is 415 naming the encoding, not "not valid UTF-8"', async () => {
    const { app } = testApp();
    const response = await app.request('/api/v1/sessions', {
      method: 'POST',
      headers: { ...json, 'Content-Encoding': 'gzip' },
      body: gzipSync('{}'),
    });
    expect(response.status).toBe(415);
    expect(JSON.stringify(await response.json())).toContain('Content-Encoding: gzip');
  });
});

describe('an error echoes a client’s input within bounds', () => {
  it('2,000 unknown query keys: one problem said in 300 characters, labelled as the query', async () => {
    const { app } = testApp();
    const query = Array.from({ length: 2000 }, (_, index) => `a${index}=1`).join('&');
    const response = await app.request(`/api/v1/tree?${query}`);
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text.length).toBeLessThan(2000);
    const { error } = JSON.parse(text) as {
      error: { message: string; details: { issues: { path: string; message: string }[] } };
    };
    expect(error.details.issues[0]!.path).toBe('(query)');
    expect(error.details.issues[0]!.message.length).toBeLessThanOrEqual(300);
    expect(error.message).toContain('Invalid query: (query): ');
  });

  it('more than 20 problems: the first 20, and how many more', () => {
    const issues = Array.from({ length: 25 }, (_, index) => ({
      code: 'custom' as const,
      path: [`k${index}`],
      message: 'x'.repeat(index === 0 ? 1000 : 5),
      input: null,
    }));
    const described = describeIssues(issues).issues;
    expect(described).toHaveLength(21);
    expect(described[0]!.message).toHaveLength(300);
    expect(described[19]!.path).toBe('k19');
    expect(described[20]).toEqual({ path: '(body)', message: 'and 5 more problems' });
  });
});
