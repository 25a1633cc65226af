import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from '../test-support/fixtures.js';
import { DEFAULT_ADDRESS_MESSAGE_LIMIT, DEFAULT_SESSION_MESSAGE_LIMIT } from './message-limits.js';

const peer = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
type Body = { error: { code: string; message: string; details: { retryAfterSeconds: number } } };

describe('messages are limited per session and per client address (429 with Retry-After, nothing stored)', () => {
  it(`by default ${DEFAULT_SESSION_MESSAGE_LIMIT.max} a minute in one session`, async () => {
    const { app, agent } = testApp();
    const session = await createSession(app);
    for (let i = 0; i < DEFAULT_SESSION_MESSAGE_LIMIT.max; i++) {
      expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
    }
    const refused = await postMessage(app, session, { message: 'hello' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused.json()) as Body;
    expect(body.error.code).toBe('RATE_LIMITED');
    expect(body.error.message).toMatch(
      /Too many messages in this session: at most 30 per minute\. Retry in \d+ s\./,
    );
    expect(body.error.details.retryAfterSeconds).toBeGreaterThan(0);
    // Two history rows (user, agent) per accepted message; the refused one left nothing.
    expect(await agent.history(session.sessionId)).toHaveLength(2 * DEFAULT_SESSION_MESSAGE_LIMIT.max);
    // Another session of the same client is not affected by this session's limit.
    expect((await postMessage(app, await createSession(app), { message: 'hello' })).status).toBe(200);
  });

  it(`by default ${DEFAULT_ADDRESS_MESSAGE_LIMIT.max} a minute from one address over all its sessions; another address goes on`, async () => {
    const { app } = testApp({ sessions: { createLimit: false } });
    const send = async (address: string, session: { sessionId: string; token: string }) =>
      (
        await app.request(
          `/api/v1/sessions/${session.sessionId}/messages`,
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Session-Token': session.token },
            body: JSON.stringify({ message: 'hello' }),
          },
          peer(address),
        )
      ).status;
    let sent = 0;
    while (sent < DEFAULT_ADDRESS_MESSAGE_LIMIT.max) {
      const session = await createSession(app);
      for (let i = 0; i < 20 && sent < DEFAULT_ADDRESS_MESSAGE_LIMIT.max; i++, sent++) {
        expect(await send('198.51.100.1', session)).toBe(200);
      }
    }
    const fresh = await createSession(app);
    expect(await send('198.51.100.1', fresh)).toBe(429);
    expect(await send('198.51.100.2', fresh)).toBe(200);
  });

  it('the OpenAI endpoint counts too; limits are settings and false turns one off', async () => {
    const { app, agent } = testApp({
      messageLimit: { perSession: { windowMs: 60_000, max: 2 }, perAddress: { windowMs: 60_000, max: 4 } },
    });
    const completion = (user?: string) =>
      app.request('/v1/chat/completions', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          model: agent.tree.name,
          messages: [{ role: 'user', content: 'hello' }],
          ...(user ? { user } : {}),
        }),
      });
    const first = await completion();
    const conversation = first.headers.get('x-session-id')!;
    expect((await completion(conversation)).status).toBe(200);
    const third = await completion(conversation);
    expect(third.status).toBe(429);
    expect(JSON.stringify(await third.json())).toMatch(
      /Too many messages in this session: at most 2 per minute/,
    );
    // Every attempt counts against the address, the refused one too: a new conversation is its
    // fourth message, the fifth is over the address's limit.
    expect((await completion()).status).toBe(200);
    expect((await completion()).status).toBe(429);

    const { app: open } = testApp({ messageLimit: { perSession: false, perAddress: false } });
    const session = await createSession(open);
    for (let i = 0; i < DEFAULT_SESSION_MESSAGE_LIMIT.max + 5; i++) {
      expect((await postMessage(open, session, { message: 'hello' })).status).toBe(200);
    }
  });

  it('an over-long message is 413 naming the limit, and is not stored', async () => {
    const { app, agent } = testApp({ limits: { maxMessageLength: 100 } });
    const session = await createSession(app);
    const response = await postMessage(app, session, { message: 'x'.repeat(101) });
    expect(response.status).toBe(413);
    expect(((await response.json()) as Body).error.message).toBe(
      'The message has 101 characters; the limit is 100.',
    );
    expect(await agent.history(session.sessionId)).toEqual([]);
  });
});
