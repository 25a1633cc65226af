import { ChannelSendError, InMemoryAuditLog } from '@treeagent/core/adapter';
import { beforeAll, describe, expect, it } from 'vitest';
import { type OperatorAccount, operatorDirectory } from '../operators/operator-accounts.js';
import { testApp } from '../test-support/fixtures.js';
import { HANDOFF_NOTICE, handoffAgent } from '../test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../test-support/operators.js';
import { ScriptedChannel, scriptedUpdate } from '../test-support/scripted-channel.js';

// The seam with a mock channel (ScriptedChannel, labelled); the platforms' adapters are tested
// against local fakes of their APIs in @treeagent/channels.

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

function channelApp(options: { retryDelayMs?: number; maxAttempts?: number } = {}) {
  const channel = new ScriptedChannel();
  const made = testApp({
    agent: handoffAgent(),
    operators: { directory: operatorDirectory(accounts), auditLog: new InMemoryAuditLog() },
    channels: { channels: [channel], retryDelayMs: options.retryDelayMs ?? 20, pollMs: 50, ...options },
  });
  return { ...made, channel };
}

const user = { chat: '42', user: '7' };

describe('the channel seam', () => {
  it('a request without the platform’s secret is 401 and stores nothing', async () => {
    const { app, agent, channel } = channelApp();
    const response = await app.request(
      '/channels/scripted/webhook',
      scriptedUpdate({ id: '1', ...user, text: 'hello' }, 'wrong'),
    );
    expect(response.status).toBe(401);
    const store = agent.sessionStore.channelStore!();
    expect(await store.sessionData([])).toEqual({ identities: [], deliveries: [] });
    expect(await store.counts()).toEqual([]);
    expect(channel.sent).toEqual([]);
    await app.shutdown();
  });

  it('a redelivered update runs one turn; the conversation keeps one session; the answer is sent once', async () => {
    const { app, agent, channel } = channelApp();
    for (let i = 0; i < 2; i++) {
      const response = await app.request(
        '/channels/scripted/webhook',
        scriptedUpdate({ id: '100', ...user, text: 'hello' }),
      );
      expect(response.status).toBe(200);
    }
    await app.request('/channels/scripted/webhook', scriptedUpdate({ id: '101', ...user, text: 'hello' }));
    const sessionId = await agent.sessionStore.channelStore!().sessionOf(
      { channel: 'scripted', conversationId: '42', userId: '7' },
      'unused',
      new Date(),
    );
    expect(sessionId).toMatch(/^ch-/);
    const history = await agent.history(sessionId);
    expect(history.filter((entry) => entry.role === 'user')).toHaveLength(2);
    await expect.poll(() => channel.sent.length).toBe(2);
    expect(channel.sent.every(({ conversation }) => conversation.conversationId === '42')).toBe(true);
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain(
      'treeagent_channel_messages_received_total{channel="scripted",result="duplicate"} 1',
    );
    expect(metrics).toContain(
      'treeagent_channel_messages_received_total{channel="scripted",result="turn"} 2',
    );
    await app.shutdown();
  });

  it('an update whose text holds a NUL character runs its turn without it (no update refused and sent again forever)', async () => {
    const { app, agent, channel } = channelApp();
    const response = await app.request(
      '/channels/scripted/webhook',
      scriptedUpdate({ id: '300', ...user, text: 'hel\u0000lo' }),
    );
    expect(response.status).toBe(200);
    await expect.poll(() => channel.sent.length).toBe(1);
    const sessionId = await agent.sessionStore.channelStore!().sessionOf(
      { channel: 'scripted', conversationId: '42', userId: '7' },
      'unused',
      new Date(),
    );
    const said = (await agent.history(sessionId)).filter((entry) => entry.role === 'user');
    expect(said.map((entry) => entry.content)).toEqual(['hello']);
    await app.shutdown();
  });

  it('a 429 is retried after its Retry-After and the user gets the message once; a final refusal is dead-lettered and an admin retries it', async () => {
    const { app, channel, logger } = channelApp({ retryDelayMs: 10 });
    channel.failures.push(ChannelSendError.ofStatus('scripted', 429, '0.2'));
    const started = Date.now();
    await app.request('/channels/scripted/webhook', scriptedUpdate({ id: '200', ...user, text: 'hello' }));
    await expect.poll(() => channel.sent.length, { timeout: 5000 }).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);

    channel.failures.push(ChannelSendError.ofStatus('scripted', 403, null, 'bot was blocked by the user'));
    await app.request('/channels/scripted/webhook', scriptedUpdate({ id: '201', ...user, text: 'hello' }));
    const anna = await loginOperator(app, 'anna');
    const admin = { headers: { 'X-Operator-Token': anna } };
    await expect
      .poll(
        async () =>
          ((await (await app.request('/api/v1/channels/dead-letters', admin)).json()) as any).deadLetters
            .length,
      )
      .toBe(1);
    const [dead] = ((await (await app.request('/api/v1/channels/dead-letters', admin)).json()) as any)
      .deadLetters;
    expect(dead).toMatchObject({
      id: 'scripted:201:0',
      status: 'dead',
      lastError: expect.stringContaining('HTTP 403'),
    });
    expect(logger.entries.some((entry) => entry.message.includes('dead-lettered'))).toBe(true);
    // The log names ids, never the text.
    expect(logger.entries.some((entry) => entry.message.includes('hello'))).toBe(false);
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_channel_outbox{channel="scripted",status="dead"} 1');
    expect(metrics).toContain('treeagent_channel_deliveries_total{channel="scripted",result="retried"} 1');
    expect((await app.request('/api/v1/channels/dead-letters')).status).toBe(401);
    // A limit that is not a whole number from 1 to 1000 is refused, saying which.
    for (const path of ['/api/v1/channels/dead-letters', '/api/v1/channels/inbox/failures'])
      for (const limit of ['x', '-1', '0', '1.5', '1e9']) {
        const refused = await app.request(`${path}?limit=${limit}`, admin);
        expect(refused.status, `${path}?limit=${limit}`).toBe(400);
        expect(JSON.stringify(await refused.json())).toContain('limit');
      }
    expect((await app.request('/api/v1/channels/dead-letters?limit=1', admin)).status).toBe(200);
    const bruno = await loginOperator(app, 'bruno');
    expect(
      (await app.request('/api/v1/channels/dead-letters', { headers: { 'X-Operator-Token': bruno } })).status,
    ).toBe(403);

    const retried = await app.request(`/api/v1/channels/dead-letters/${dead.id}/retry`, {
      method: 'POST',
      ...admin,
    });
    expect(retried.status).toBe(200);
    await expect.poll(() => channel.sent.length).toBe(2);
    expect(
      (await app.request('/api/v1/channels/dead-letters/nothing/retry', { method: 'POST', ...admin })).status,
    ).toBe(404);
    await app.shutdown();
  });

  it('a handoff from the channel: the operator’s join, reply (with options) and hand-back reach the user with their name', async () => {
    const { app, channel } = channelApp();
    await app.request(
      '/channels/scripted/webhook',
      scriptedUpdate({ id: '300', ...user, text: 'I want a human' }),
    );
    await expect.poll(() => channel.texts()).toContain(HANDOFF_NOTICE);
    const bruno = await loginOperator(app, 'bruno');
    const call = (path: string, body: unknown) =>
      app.request(`/api/v1/operator${path}`, {
        method: 'POST',
        headers: { 'X-Operator-Token': bruno, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const list = (await (
      await app.request('/api/v1/operator/handoffs', { headers: { 'X-Operator-Token': bruno } })
    ).json()) as any;
    const sessionId = list.handoffs[0].sessionId as string;
    expect((await call(`/handoffs/${sessionId}/claim`, {})).status).toBe(200);
    expect(
      (await call(`/handoffs/${sessionId}/messages`, { content: 'Ciao, sono Bruno.', options: ['Sì', 'No'] }))
        .status,
    ).toBe(201);
    // The user's message during the handoff reaches the operator, not the tree.
    await app.request('/channels/scripted/webhook', scriptedUpdate({ id: '301', ...user, option: 'Sì' }));
    expect((await call(`/handoffs/${sessionId}/hand-back`, {})).status).toBe(200);
    // Then the satisfaction question follows the hand-back (a fifth message, sometimes already sent).
    await expect.poll(() => channel.sent.length).toBeGreaterThanOrEqual(4);
    const [, joined, reply, back] = channel.sent.map(({ message }) => message);
    expect(joined).toMatchObject({
      type: 'notice',
      notice: 'operator-joined',
      operatorName: 'Bruno Bianchi',
    });
    expect(reply).toMatchObject({
      type: 'text',
      text: 'Ciao, sono Bruno.',
      options: ['Sì', 'No'],
      operatorName: 'Bruno Bianchi',
    });
    expect(back).toMatchObject({ type: 'notice', notice: 'handed-back', operatorName: 'Bruno Bianchi' });
    const view = (await (
      await app.request(`/api/v1/operator/handoffs/${sessionId}`, { headers: { 'X-Operator-Token': bruno } })
    ).json()) as any;
    expect(JSON.stringify(view)).toContain('Sì');
    await app.shutdown();
  });

  it('a channel reading a request may read a file of the server’s file store (what Teams’ file consent needs)', async () => {
    const { app, agent, channel } = channelApp();
    const data = new Uint8Array([37, 80, 68, 70]);
    const stored = await agent.fileStore.put({
      name: 'fattura.pdf',
      mimeType: 'application/pdf',
      data,
      origin: 'generated',
    });
    const request = scriptedUpdate({ id: '900', ...user });
    const body = JSON.stringify({ ...JSON.parse(String(request.body)), readFile: stored.id });
    const response = await app.request('/channels/scripted/webhook', { ...request, body });
    expect(response.status).toBe(204);
    expect(channel.read.get(stored.id)).toEqual(data);
    await app.shutdown();
  });

  it('session expiry applies to a channel session: its history, channel identity and inbox entries go, the next message starts afresh', async () => {
    const { app, agent } = channelApp();
    await app.request('/channels/scripted/webhook', scriptedUpdate({ id: '400', ...user, text: 'hello' }));
    const store = agent.sessionStore.channelStore!();
    const conversation = { channel: 'scripted', conversationId: '42', userId: '7' };
    const sessionId = await store.sessionOf(conversation, 'unused', new Date());
    expect(await agent.history(sessionId)).not.toEqual([]);
    // A message of the session given up in the inbox (what the user wrote, kept for staff) expires with it.
    const inbox = store.inbox!();
    const given = {
      channel: 'scripted',
      messageId: '399',
      sessionId,
      conversation,
      text: 'hi',
      selectedOption: null,
      attachments: [],
    };
    await inbox.add(given, new Date());
    await inbox.lease(new Date(), 10, 60_000);
    await inbox.failed('scripted', '399', 'gave up', null, new Date());
    expect(await inbox.sessionEntries([sessionId])).toHaveLength(1);
    const deleted = await app.sweepExpiredSessions(new Date(Date.now() + 400 * 24 * 3600 * 1000));
    expect(deleted).toBe(1);
    expect(await agent.history(sessionId)).toEqual([]);
    expect(await store.conversationOf(sessionId)).toBeNull();
    expect(await inbox.sessionEntries([sessionId])).toEqual([]);
    await app.request('/channels/scripted/webhook', scriptedUpdate({ id: '401', ...user, text: 'hello' }));
    expect(await store.sessionOf(conversation, 'unused', new Date())).not.toBe(sessionId);
    await app.shutdown();
  });
});
