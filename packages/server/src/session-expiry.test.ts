import { InMemoryHandoffQueue } from '@treeagent/core/adapter';
import { describe, expect, it } from 'vitest';
import { createSession, postMessage, testApp } from './test-support/fixtures.js';
import { handoffAgent } from './test-support/handoff.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('session expiry and the sweep', () => {
  it('an idle session expires (404), and the sweep deletes its history, state, files and token', async () => {
    const { app, agent } = testApp({ sessions: { idleTimeoutMs: 300, sweepIntervalMs: 0 } });
    const session = await createSession(app);
    const form = new FormData();
    form.append('file', new Blob(['x']), 'x.txt');
    const file = (await (
      await app.request(`/api/v1/sessions/${session.sessionId}/files`, {
        method: 'POST',
        headers: { 'X-Session-Token': session.token },
        body: form,
      })
    ).json()) as { id: string };
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
    await pause(400);
    const expired = await postMessage(app, session, { message: 'hello' });
    expect(expired.status).toBe(404);
    expect(await expired.json()).toMatchObject({
      error: { code: 'NOT_FOUND', message: expect.stringContaining('expired') },
    });
    expect(await app.sweepExpiredSessions()).toBe(1);
    expect(await agent.history(session.sessionId)).toEqual([]);
    expect(await agent.sessionStore.load(session.sessionId)).toBeNull();
    expect(await agent.fileStore.metadata(file.id)).toBeNull();
    expect(await app.sweepExpiredSessions()).toBe(0);
  });

  it('a handed-off session leaves no queue entry (last messages, summary, notes) once deleted or expired', async () => {
    const queue = new InMemoryHandoffQueue();
    const { app } = testApp({
      agent: handoffAgent(),
      handoff: { queue },
      sessions: { idleTimeoutMs: 300, sweepIntervalMs: 0 },
    });
    const askForHuman = async () => {
      const session = await createSession(app);
      const response = await postMessage(app, session, { message: 'I want a human' });
      expect(((await response.json()) as { status: string }).status).toBe('handed-off');
      await expect.poll(() => queue.get(session.sessionId)).not.toBeNull();
      return session;
    };

    const deleted = await askForHuman();
    const response = await app.request(`/api/v1/sessions/${deleted.sessionId}`, {
      method: 'DELETE',
      headers: { 'X-Session-Token': deleted.token },
    });
    expect(response.status).toBe(204);
    expect(await queue.get(deleted.sessionId)).toBeNull();

    const expired = await askForHuman();
    await pause(400);
    expect(await app.sweepExpiredSessions()).toBe(1);
    expect(await queue.get(expired.sessionId)).toBeNull();
  });

  it('use keeps a session alive until its absolute timeout (the retention of its data)', async () => {
    const { app } = testApp({
      sessions: { idleTimeoutMs: 60_000, absoluteTimeoutMs: 500, sweepIntervalMs: 0 },
    });
    const session = await createSession(app);
    for (let i = 0; i < 3; i++) {
      expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);
      await pause(100);
    }
    await pause(400);
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(404);
  });

  it('the background sweep runs by itself', async () => {
    const { app, agent } = testApp({ sessions: { idleTimeoutMs: 100, sweepIntervalMs: 50 } });
    const session = await createSession(app);
    await postMessage(app, session, { message: 'hello' });
    expect(await agent.history(session.sessionId)).toHaveLength(2);
    await pause(400);
    expect(await agent.history(session.sessionId)).toEqual([]);
    await app.shutdown();
  });

  it('OpenAI conversations expire too: an idle one starts over and its data is deleted', async () => {
    const { app } = testApp({ apiKeys: ['sk-x'], sessions: { idleTimeoutMs: 300, sweepIntervalMs: 0 } });
    const complete = async () =>
      (await (
        await app.request('/v1/chat/completions', {
          method: 'POST',
          headers: { Authorization: 'Bearer sk-x', 'Content-Type': 'application/json', 'X-Session-Id': 'c1' },
          body: JSON.stringify({ model: 'test-shop', messages: [{ role: 'user', content: 'hello' }] }),
        })
      ).json()) as { treeagent: { turn: number } };
    expect((await complete()).treeagent.turn).toBe(1);
    expect((await complete()).treeagent.turn).toBe(2);
    await pause(400);
    expect((await complete()).treeagent.turn).toBe(1);
  });

  it('limits session creation per client address (429 RATE_LIMITED)', async () => {
    const { app } = testApp({ sessions: { createLimit: { windowMs: 60_000, max: 3 } } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await app.request('/api/v1/sessions', { method: 'POST' })).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });
});
