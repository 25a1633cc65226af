import { InMemoryOperatorSessions } from '@treeagent/core/adapter';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateAppOptions } from '../app-options.js';
import { InMemorySessionTokens } from '../auth/session-tokens.js';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { type RunningServer, serve } from '../serve.js';
import { memoryLogger } from '../test-support/fixtures.js';
import { handoffAgent } from '../test-support/handoff.js';
import { OPERATOR_PASSWORDS, testOperatorAccounts } from '../test-support/operators.js';
import { DEFAULT_STREAM_LIMITS } from './event-streams.js';

// Real HTTP connections to a served app on loopback: each stream holds a socket, as in the review.

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

let server: RunningServer | null = null;
const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
afterEach(async () => {
  for (const reader of readers.splice(0)) await reader.cancel().catch(() => undefined);
  await server?.close({ timeoutMs: 100 });
  server = null;
});

async function start(options: Partial<CreateAppOptions> = {}): Promise<RunningServer> {
  server = await serve({
    agent: handoffAgent(),
    port: 0,
    logger: memoryLogger(),
    operators: { directory: operatorDirectory(accounts) },
    ...options,
  });
  return server;
}

async function createSession(url: string): Promise<{ sessionId: string; token: string }> {
  return (await (await fetch(`${url}/api/v1/sessions`, { method: 'POST' })).json()) as {
    sessionId: string;
    token: string;
  };
}

async function login(url: string, id: keyof typeof OPERATOR_PASSWORDS): Promise<string> {
  const response = await fetch(`${url}/api/v1/operator/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: id, password: OPERATOR_PASSWORDS[id] }),
  });
  return /treeagent_operator=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')![1]!;
}

/** Opens a stream; on 200 keeps its reader (to read or cancel), else returns the refusal. */
async function openStream(url: string, path: string, headers: Record<string, string>) {
  const response = await fetch(`${url}${path}`, { headers: { Accept: 'text/event-stream', ...headers } });
  if (response.status !== 200) return { response, reader: null };
  const reader = response.body!.getReader();
  readers.push(reader);
  return { response, reader };
}

/** Reads until the server ends the stream; returns what it sent, or throws after `timeoutMs`. */
async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>, timeoutMs = 5000): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0)
      throw new Error(`the stream is still open after ${timeoutMs} ms; got ${JSON.stringify(text)}`);
    const next = await Promise.race([
      reader.read(),
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), left)),
    ]);
    if (next === 'timeout') continue;
    if (next.done) return text;
    text += decoder.decode(next.value, { stream: true });
  }
}

/** Whether the stream is still open after `ms` (nothing but data, no end). */
async function staysOpen(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<boolean> {
  return readToEnd(reader, ms).then(
    () => false,
    () => true,
  );
}

async function expectCapRefusal(response: Response, cap: string, max: number) {
  expect(response.status).toBe(429);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  const body = (await response.json()) as { error: { code: string; message: string; details: any } };
  expect(body.error.code).toBe('RATE_LIMITED');
  expect(body.error.message).toMatch(/^Too many event streams: /);
  expect(body.error.details).toMatchObject({ streamCap: cap, maxStreams: max });
}

describe('event streams are capped, time out when idle, and end with the operator', () => {
  it(`one session token holds at most ${DEFAULT_STREAM_LIMITS.perSession} streams; a closed one frees its place`, async () => {
    const { url } = await start();
    const session = await createSession(url);
    const path = `/api/v1/sessions/${session.sessionId}/events`;
    const headers = { 'X-Session-Token': session.token };
    const open = [];
    for (let i = 0; i < DEFAULT_STREAM_LIMITS.perSession; i++) {
      const stream = await openStream(url, path, headers);
      expect(stream.response.status).toBe(200);
      open.push(stream.reader!);
    }
    // The review held 6,000 streams on one token; the fifth is refused now.
    for (let i = 0; i < 3; i++) {
      await expectCapRefusal(
        (await openStream(url, path, headers)).response,
        'session',
        DEFAULT_STREAM_LIMITS.perSession,
      );
    }
    await open[0]!.cancel();
    await expect
      .poll(async () => {
        const next = await openStream(url, path, headers);
        if (next.response.status !== 200) await next.response.body?.cancel();
        return next.response.status;
      })
      .toBe(200);
    // Another session is not affected by this one's cap.
    const other = await createSession(url);
    expect(
      (
        await openStream(url, `/api/v1/sessions/${other.sessionId}/events`, {
          'X-Session-Token': other.token,
        })
      ).response.status,
    ).toBe(200);
  });

  it('per operator, per address and per process caps are settings', async () => {
    let { url } = await start({ streams: { perOperator: 2, perAddress: 4 } });
    const bruno = await login(url, 'bruno');
    const carla = await login(url, 'carla');
    const events = (token: string) =>
      openStream(url, '/api/v1/operator/events', { 'X-Operator-Token': token });
    for (let i = 0; i < 2; i++) expect((await events(bruno)).response.status).toBe(200);
    await expectCapRefusal((await events(bruno)).response, 'operator', 2);
    // Another operator on the same address: two more, then the address (4) is full for anyone.
    for (let i = 0; i < 2; i++) expect((await events(carla)).response.status).toBe(200);
    const session = await createSession(url);
    const sessionStream = () =>
      openStream(url, `/api/v1/sessions/${session.sessionId}/events`, { 'X-Session-Token': session.token });
    await expectCapRefusal((await sessionStream()).response, 'address', 4);

    for (const reader of readers.splice(0)) await reader.cancel();
    await server!.close({ timeoutMs: 100 });
    ({ url } = await start({ streams: { perProcess: 3 } }));
    for (let i = 0; i < 3; i++) {
      const each = await createSession(url);
      const opened = await openStream(url, `/api/v1/sessions/${each.sessionId}/events`, {
        'X-Session-Token': each.token,
      });
      expect(opened.response.status).toBe(200);
    }
    const last = await createSession(url);
    await expectCapRefusal(
      (await openStream(url, `/api/v1/sessions/${last.sessionId}/events`, { 'X-Session-Token': last.token }))
        .response,
      'process',
      3,
    );
  });

  it('a stream with no event for idleTimeoutMs is ended, saying why', async () => {
    const { url } = await start({ streams: { idleTimeoutMs: 400 } });
    const session = await createSession(url);
    const { reader } = await openStream(url, `/api/v1/sessions/${session.sessionId}/events`, {
      'X-Session-Token': session.token,
    });
    const text = await readToEnd(reader!, 3000);
    expect(text).toContain('event: handoff');
    expect(text).toContain(': closed: idle');
  });

  it("logout ends that login's streams at once; another operator's stay open", async () => {
    const { url } = await start();
    const bruno = await login(url, 'bruno');
    const carla = await login(url, 'carla');
    const brunoStream = await openStream(url, '/api/v1/operator/events', { 'X-Operator-Token': bruno });
    const carlaStream = await openStream(url, '/api/v1/operator/events', { 'X-Operator-Token': carla });
    const logout = await fetch(`${url}/api/v1/operator/logout`, {
      method: 'POST',
      headers: { 'X-Operator-Token': bruno },
    });
    expect(logout.status).toBe(204);
    expect(await readToEnd(brunoStream.reader!, 2000)).toContain(': closed: logged out');
    expect(await staysOpen(carlaStream.reader!, 300)).toBe(true);
    // The ended login cannot open a new one.
    expect(
      (await openStream(url, '/api/v1/operator/events', { 'X-Operator-Token': bruno })).response.status,
    ).toBe(401);
  });

  it('a logout on another process ends the stream within recheckMs (the login store is shared)', async () => {
    const sessions = new InMemoryOperatorSessions();
    const directory = operatorDirectory(accounts);
    const other = await serve({
      agent: handoffAgent(),
      port: 0,
      logger: memoryLogger(),
      operators: { directory, sessions },
    });
    try {
      const { url } = await start({ operators: { directory, sessions }, streams: { recheckMs: 200 } });
      const bruno = await login(other.url, 'bruno');
      const { reader } = await openStream(url, '/api/v1/operator/events', { 'X-Operator-Token': bruno });
      const logout = await fetch(`${other.url}/api/v1/operator/logout`, {
        method: 'POST',
        headers: { 'X-Operator-Token': bruno },
      });
      expect(logout.status).toBe(204);
      const text = await readToEnd(reader!, 2000);
      expect(text).toContain('event: queue');
      expect(text).toContain(': closed: logged out');
    } finally {
      await other.close({ timeoutMs: 100 });
    }
  });

  it("deleting a session ends that session's own streams at once; another session's stay open", async () => {
    const { url } = await start();
    const session = await createSession(url);
    const other = await createSession(url);
    const stream = (each: { sessionId: string; token: string }) =>
      openStream(url, `/api/v1/sessions/${each.sessionId}/events`, { 'X-Session-Token': each.token });
    const mine = await stream(session);
    const theirs = await stream(other);
    const deleted = await fetch(`${url}/api/v1/sessions/${session.sessionId}`, {
      method: 'DELETE',
      headers: { 'X-Session-Token': session.token },
    });
    expect(deleted.status).toBe(204);
    expect(await readToEnd(mine.reader!, 2000)).toContain(': closed: session deleted');
    expect(await staysOpen(theirs.reader!, 300)).toBe(true);
    expect((await stream(session)).response.status).toBe(404);
  });

  it('a session deleted on another process ends its stream within recheckMs (the token store is shared)', async () => {
    const sessionTokens = new InMemorySessionTokens();
    const other = await serve({ agent: handoffAgent(), port: 0, logger: memoryLogger(), sessionTokens });
    try {
      const { url } = await start({ sessionTokens, streams: { recheckMs: 200 } });
      const session = await createSession(other.url);
      const { reader } = await openStream(url, `/api/v1/sessions/${session.sessionId}/events`, {
        'X-Session-Token': session.token,
      });
      const deleted = await fetch(`${other.url}/api/v1/sessions/${session.sessionId}`, {
        method: 'DELETE',
        headers: { 'X-Session-Token': session.token },
      });
      expect(deleted.status).toBe(204);
      expect(await readToEnd(reader!, 2000)).toContain(': closed: session deleted');
    } finally {
      await other.close({ timeoutMs: 100 });
    }
  });
});
