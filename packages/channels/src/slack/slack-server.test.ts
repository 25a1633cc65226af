import type { SqliteStores } from '@treeagent/sqlite';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorAccount } from '../../../server/src/operators/operator-accounts.js';
import { HANDOFF_NOTICE } from '../../../server/src/test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../../../server/src/test-support/operators.js';
import {
  appMention,
  buttonPress,
  directMessage,
  eventBody,
  FakeSlack,
  slackRequest,
} from '../test-support/fake-slack.js';
import { operatorReplies, sqliteChannelApp } from '../test-support/sqlite-channel-app.js';
import { SlackChannel } from './slack-channel.js';

// The whole path: the server's webhook → a turn on a real SQLite file → the outbox → Bolt's Web API
// client → a local fake of Slack's Web API on loopback. The tree is the server tests' shop (mock
// embedder and model, labelled in its fixture).

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const fake = await FakeSlack.start();
  const server = sqliteChannelApp(
    () =>
      new SlackChannel({ botToken: fake.botToken, signingSecret: fake.signingSecret, apiUrl: fake.apiUrl }),
    accounts,
  );
  cleanups.push(async () => {
    await server.cleanup();
    await fake.close();
  });
  const start = server.start;
  const post = (
    app: { request(request: Request): Response | Promise<Response> },
    body: string,
    options: { secret?: string | null; form?: boolean; retryNum?: number } = {},
  ) =>
    app.request(
      slackRequest(body, {
        secret: options.secret === undefined ? fake.signingSecret : options.secret,
        ...(options.form ? { form: true } : {}),
        ...(options.retryNum ? { retryNum: options.retryNum } : {}),
      }),
    );
  const texts = () => fake.posts.map((item) => item.text);
  // The stored conversation is rewritten by each call: give it the thread the channel gives it.
  const sessionOf = (stores: SqliteStores, conversationId: string) =>
    server.sessionOf(stores, {
      channel: 'slack',
      conversationId,
      userId: 'U77',
      threadId: conversationId.includes(':') ? conversationId.split(':')[1]! : null,
    });
  return { fake, start, post, texts, sessionOf };
}

const dm = (text: string, ts: string) => eventBody(directMessage({ channel: 'D555', user: 'U77', text, ts }));

describe('Slack through the server', () => {
  it('a missing or wrong signature, or a replay older than 5 minutes, is 401 and nothing is stored', async () => {
    const { start, post, fake } = await setup();
    const { app, stores } = start();
    expect((await post(app, dm('hello', '1.1'), { secret: null })).status).toBe(401);
    expect((await post(app, dm('hello', '1.1'), { secret: 'wrong-secret' })).status).toBe(401);
    const stale = slackRequest(dm('hello', '1.1'), {
      secret: fake.signingSecret,
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    expect((await app.request(stale)).status).toBe(401);
    const channels = stores.sessionStore.channelStore();
    expect(await channels.counts()).toEqual([]);
    expect(await channels.sessionData(['anything'])).toEqual({ identities: [], deliveries: [] });
    expect(fake.posts).toEqual([]);
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain(
      'treeagent_channel_messages_received_total{channel="slack",result="rejected"} 3',
    );
  });

  it('answers the url_verification handshake', async () => {
    const { start, post } = await setup();
    const { app } = start();
    const response = await post(app, JSON.stringify({ type: 'url_verification', challenge: 'abc123' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ challenge: 'abc123' });
  });

  it('acknowledges before the turn runs: the 200 comes while the turn’s commit is still held', async () => {
    const { start, post, texts, sessionOf } = await setup();
    const { app, stores } = start();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let commits = 0;
    const commit = stores.sessionStore.commit.bind(stores.sessionStore);
    stores.sessionStore.commit = async (value) => {
      commits++;
      await held;
      return commit(value);
    };
    const response = await post(app, dm('hello', '10.1'));
    expect(response.status).toBe(200);
    const session = await sessionOf(stores, 'D555');
    // Acknowledged, and the turn has not committed: nothing in the history, nothing sent.
    expect(await stores.sessionStore.history(session)).toEqual([]);
    expect(texts()).toEqual([]);
    release();
    await expect.poll(() => texts()).toEqual(['Hi! How can I help?']);
    expect(commits).toBe(1);
  });

  it('Slack’s retry of an event whose turn is still running adds nothing: one turn, one answer', async () => {
    const { start, post, texts } = await setup();
    const { app, stores } = start();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let commits = 0;
    const commit = stores.sessionStore.commit.bind(stores.sessionStore);
    stores.sessionStore.commit = async (value) => {
      commits++;
      await held;
      return commit(value);
    };
    const inbox = stores.sessionStore.channelStore().inbox();
    const body = dm('hello', '12.1');
    expect((await post(app, body)).status).toBe(200);
    // Acknowledged, and kept in the inbox until the turn commits.
    expect(await inbox.counts()).toEqual([{ channel: 'slack', pending: 1, failed: 0 }]);
    await expect.poll(() => commits).toBe(1);
    expect((await post(app, body, { retryNum: 1 })).status).toBe(200);
    expect((await post(app, body, { retryNum: 2 })).status).toBe(200);
    release();
    await expect.poll(() => texts()).toEqual(['Hi! How can I help?']);
    await expect.poll(() => inbox.counts()).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(commits).toBe(1);
    expect(texts()).toEqual(['Hi! How can I help?']);
  });

  it('the messages of one conversation run one at a time, in order; another conversation does not wait', async () => {
    const { start, post, texts, fake } = await setup();
    const { app, stores } = start();
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const commit = stores.sessionStore.commit.bind(stores.sessionStore);
    stores.sessionStore.commit = async (value) => {
      const said = value.history.find((entry) => entry.role === 'user')?.content ?? '';
      const conversation = await stores.sessionStore.channelStore().conversationOf(value.record.id);
      const mine = conversation?.conversationId === 'D555';
      if (mine) {
        running++;
        most = Math.max(most, running);
        if (said === 'hello') await held;
        order.push(said);
        running--;
      }
      return commit(value);
    };
    expect((await post(app, dm('hello', '13.1'))).status).toBe(200);
    expect((await post(app, dm('double', '13.2'))).status).toBe(200);
    expect((await post(app, dm('hello', '13.3'))).status).toBe(200);
    // Another user's conversation is answered while the first one's head is held.
    const other = eventBody(directMessage({ channel: 'D777', user: 'U78', text: 'hello', ts: '13.4' }));
    expect((await post(app, other)).status).toBe(200);
    await expect.poll(() => fake.posts.map((item) => item.channel)).toEqual(['D777']);
    expect(order).toEqual([]);
    release();
    await expect.poll(() => order).toEqual(['hello', 'double', 'hello']);
    expect(most).toBe(1);
    await expect
      .poll(() => texts())
      .toEqual(['Hi! How can I help?', 'Hi! How can I help?', 'First.', 'Second.', expect.any(String)]);
  });

  it('a turn that fails after the answer is retried from the inbox, and the conversation’s next message runs after it', async () => {
    const { start, post, texts } = await setup();
    const { app, stores } = start();
    const commit = stores.sessionStore.commit.bind(stores.sessionStore);
    let failures = 1;
    stores.sessionStore.commit = async (value) => {
      if (failures-- > 0) throw new Error('the disk is full');
      return commit(value);
    };
    expect((await post(app, dm('hello', '15.1'))).status).toBe(200);
    expect((await post(app, dm('double', '15.2'))).status).toBe(200);
    // The first message's turn runs again, and only then the second's: the answers keep their order.
    await expect.poll(() => texts()).toEqual(['Hi! How can I help?', 'First.', 'Second.']);
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_channel_messages_received_total{channel="slack",result="turn"} 2');
    expect(metrics).not.toContain('result="failed"');
    expect(await stores.sessionStore.channelStore().inbox().counts()).toEqual([]);
  });

  it('a turn that keeps failing is given up with its reason, listed for admins, who may put it back in line; the conversation goes on', async () => {
    const { start, post, texts } = await setup();
    const { app, stores } = start();
    const commit = stores.sessionStore.commit.bind(stores.sessionStore);
    let full = true;
    stores.sessionStore.commit = async (value) => {
      if (full && value.history.some((entry) => entry.role === 'user' && entry.content === 'hello'))
        throw new Error('the disk is full');
      return commit(value);
    };
    expect((await post(app, dm('hello', '16.1'))).status).toBe(200);
    expect((await post(app, dm('double', '16.2'))).status).toBe(200);
    // 'hello' fails 5 times (the default attempts), is given up (the user is told), and then 'double' runs.
    await expect
      .poll(() => texts(), { timeout: 15_000 })
      .toEqual(['Something went wrong on our side. Try again in a moment.', 'First.', 'Second.']);
    const token = await loginOperator(app, 'anna');
    const admin = { headers: { 'X-Operator-Token': token } };
    const failures = (await (await app.request('/api/v1/channels/inbox/failures', admin)).json()) as {
      failures: { channel: string; status: string; attempts: number; lastError: string; text: string }[];
    };
    expect(failures.failures).toEqual([
      expect.objectContaining({
        channel: 'slack',
        status: 'failed',
        attempts: 5,
        lastError: expect.stringContaining('SESSION_STORE'),
        text: 'hello',
      }),
    ]);
    const list = (await (await app.request('/api/v1/channels', admin)).json()) as {
      channels: { name: string; inbox: unknown }[];
    };
    expect(list.channels.find((channel) => channel.name === 'slack')!.inbox).toEqual({
      channel: 'slack',
      pending: 0,
      failed: 1,
    });
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_channel_messages_received_total{channel="slack",result="failed"} 1');
    expect(metrics).toContain('treeagent_channel_inbox{channel="slack",status="failed"} 1');
    // The disk has room again: the admin puts the message back in line, and it is answered.
    full = false;
    const [given] = failures.failures as unknown as { channel: string; messageId: string }[];
    const retry = (messageId: string) =>
      app.request(`/api/v1/channels/inbox/failures/slack/${encodeURIComponent(messageId)}/retry`, {
        method: 'POST',
        ...admin,
      });
    expect((await retry(given!.messageId)).status).toBe(200);
    await expect
      .poll(() => texts())
      .toEqual([
        'Something went wrong on our side. Try again in a moment.',
        'First.',
        'Second.',
        'Hi! How can I help?',
      ]);
    expect((await retry(given!.messageId)).status).toBe(404);
    expect(
      (await app.request(`/api/v1/channels/inbox/failures/slack/x/retry`, { method: 'POST' })).status,
    ).toBe(401);
  });

  it('a retried event (X-Slack-Retry-Num) runs one turn, answered in the mention’s thread; options go out as buttons and come back as a press', async () => {
    const { start, post, texts, fake, sessionOf } = await setup();
    const { app, stores } = start();
    const body = eventBody(appMention({ channel: 'C42', user: 'U77', text: 'hello', ts: '20.5' }), 'Ev1');
    expect((await post(app, body)).status).toBe(200);
    expect((await post(app, body, { retryNum: 1 })).status).toBe(200);
    expect((await post(app, body, { retryNum: 2 })).status).toBe(200);
    await expect.poll(() => texts().length).toBe(1);
    expect(fake.posts[0]).toMatchObject({
      channel: 'C42',
      threadTs: '20.5',
      text: 'Hi! How can I help?',
      buttons: [
        { label: 'Orders', value: 'Orders' },
        { label: 'Returns', value: 'Returns' },
      ],
    });
    const press = buttonPress({
      channel: 'C42',
      user: 'U77',
      value: 'Orders',
      actionTs: '21.9',
      messageTs: '20.7',
      threadTs: '20.5',
    });
    expect((await post(app, press, { form: true })).status).toBe(200);
    // The pressed message's buttons give way to the choice.
    await expect
      .poll(() => fake.updates)
      .toEqual([
        {
          channel: 'C42',
          ts: '20.7',
          blocks: [
            expect.objectContaining({ type: 'section' }),
            expect.objectContaining({ type: 'context' }),
          ],
        },
      ]);
    const session = await sessionOf(stores, 'C42:20.5');
    await expect
      .poll(
        async () =>
          (await stores.sessionStore.history(session)).filter((entry) => entry.role === 'user').length,
      )
      .toBe(2);
    const users = (await stores.sessionStore.history(session)).filter((entry) => entry.role === 'user');
    expect(users.map((entry) => [entry.content, entry.selectedOption ?? null])).toEqual([
      ['hello', null],
      ['Orders', 'Orders'],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(texts()).toHaveLength(1);
  });

  it('a 500 and a 429 on a send are retried and the user gets the message once', async () => {
    const { start, post, texts, fake } = await setup();
    const { app } = start();
    fake.failNext(500);
    fake.failNext(429, 1);
    await post(app, dm('hello', '30.1'));
    await expect.poll(() => texts().length, { timeout: 10_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(texts()).toHaveLength(1);
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_channel_deliveries_total{channel="slack",result="retried"} 2');
  });

  it('a restart in the middle of a conversation keeps its session and an unsent answer', async () => {
    const { start, post, texts, fake, sessionOf } = await setup();
    const first = start();
    await post(first.app, dm('hello', '40.1'));
    await expect.poll(() => texts().length).toBe(1);
    for (let i = 0; i < 3; i++) fake.failNext(502);
    await post(first.app, dm('double', '40.2'));
    const session = await sessionOf(first.stores, 'D555');
    await expect
      .poll(
        async () =>
          (await first.stores.sessionStore.history(session)).filter((e) => e.role === 'user').length,
      )
      .toBe(2);
    await first.stop();
    const second = start();
    await expect
      .poll(() => texts(), { timeout: 10_000 })
      .toEqual(['Hi! How can I help?', 'First.', 'Second.']);
    await post(second.app, dm('double', '40.2'), { retryNum: 1 });
    await post(second.app, dm('hello', '40.3'));
    await expect.poll(() => texts().length).toBe(4);
    expect(await sessionOf(second.stores, 'D555')).toBe(session);
    const users = (await second.stores.sessionStore.history(session)).filter(
      (entry) => entry.role === 'user',
    );
    expect(users.map((entry) => entry.content)).toEqual(['hello', 'double', 'hello']);
  });

  it('a handoff in a thread: the user’s file reaches the operator, whose reply and file reach the thread', async () => {
    const { start, post, texts, fake, sessionOf } = await setup();
    const { app, stores } = start();
    await post(
      app,
      eventBody(appMention({ channel: 'C42', user: 'U77', text: 'I want a human', ts: '50.1' })),
    );
    await expect.poll(() => texts()).toContain(HANDOFF_NOTICE);
    const receipt = new TextEncoder().encode('%PDF-1.4 scontrino');
    const shared = fake.share('F77', 'scontrino.pdf', 'application/pdf', receipt);
    await post(
      app,
      eventBody({
        ...appMention({ channel: 'C42', user: 'U77', text: 'here', ts: '50.2', threadTs: '50.1' }),
        subtype: 'file_share',
        files: [shared],
      }),
    );
    const sessionId = await sessionOf(stores, 'C42:50.1');
    await expect
      .poll(
        async () =>
          (await stores.sessionStore.history(sessionId)).flatMap((entry) => entry.attachments ?? []).length,
      )
      .toBe(1);
    const file = (await stores.sessionStore.history(sessionId)).flatMap(
      (entry) => entry.attachments ?? [],
    )[0]!;
    expect(file).toMatchObject({ name: 'scontrino.pdf', mimeType: 'application/pdf' });
    expect(await stores.fileStore.read(file.id)).toEqual(receipt);
    const reply = await operatorReplies(app, sessionId, {
      content: 'Ecco la sua ricevuta.',
      attachments: [file.id],
    });
    expect(reply).toEqual({ queued: [sessionId], status: 201 });
    await expect.poll(() => fake.received.filter((item) => item.kind === 'file').length).toBe(1);
    expect(fake.received.find((item) => item.kind === 'file')).toMatchObject({
      fileName: 'scontrino.pdf',
      data: receipt,
    });
    expect(texts()).toEqual([
      HANDOFF_NOTICE,
      'Bruno Bianchi joined the conversation.',
      'Bruno Bianchi: Ecco la sua ricevuta.',
      '[file scontrino.pdf]',
    ]);
    expect(fake.posts.every((item) => item.channel === 'C42' && item.threadTs === '50.1')).toBe(true);
  });
});
