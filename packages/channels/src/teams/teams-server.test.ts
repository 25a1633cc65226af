import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorAccount } from '../../../server/src/operators/operator-accounts.js';
import { HANDOFF_NOTICE } from '../../../server/src/test-support/handoff.js';
import { testOperatorAccounts } from '../../../server/src/test-support/operators.js';
import { FakeTeams, FakeTenantTokens, teamsActivity, teamsRequest } from '../test-support/fake-teams.js';
import { operatorReplies, sqliteChannelApp } from '../test-support/sqlite-channel-app.js';
import { TeamsChannel } from './teams-channel.js';

// The whole path: Azure Bot Service's POST (a JWT the Agents SDK validates against a local tenant's
// keys) → a turn on a real SQLite file → the outbox → the SDK's ConnectorClient → a local Bot
// Connector at the activity's serviceUrl. The token provider is the fake tenant's (labelled in
// fake-teams.ts: MSAL only talks to an https authority).

let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const CONVERSATION = 'a:1personal-chat-555';

async function setup() {
  const fake = await FakeTeams.start();
  const server = sqliteChannelApp(
    () =>
      new TeamsChannel({
        appId: fake.appId,
        appPassword: fake.appPassword,
        tenantId: fake.tenantId,
        authority: fake.authority,
        tokenProvider: new FakeTenantTokens(fake),
      }),
    accounts,
  );
  cleanups.push(async () => {
    await server.cleanup();
    await fake.close();
  });
  const post = (
    app: { request(request: Request): Response | Promise<Response> },
    input: { text?: string; id: string; value?: unknown; attachments?: unknown[] },
    token: string | null = fake.token(),
  ) =>
    app.request(
      teamsRequest(
        teamsActivity(fake, { conversationId: CONVERSATION, userId: '29:giulia', ...input }),
        token,
      ),
    );
  const texts = () => fake.posts.filter((item) => item.type === 'message').map((item) => item.text);
  const conversation = {
    channel: 'teams',
    conversationId: CONVERSATION,
    userId: '29:giulia',
    reply: { serviceUrl: fake.serviceUrl, botId: fake.botId },
  };
  return { fake, server, post, texts, conversation };
}

describe('Microsoft Teams through the server', () => {
  it('a missing, forged or foreign token is 401 and nothing is stored', async () => {
    const { server, post, fake } = await setup();
    const { app, stores } = server.start();
    expect((await post(app, { text: 'hello', id: '1' }, null)).status).toBe(401);
    expect((await post(app, { text: 'hello', id: '1' }, fake.token({}, 'other'))).status).toBe(401);
    expect((await post(app, { text: 'hello', id: '1' }, fake.token({ aud: 'another-bot' }))).status).toBe(
      401,
    );
    const channels = stores.sessionStore.channelStore();
    expect(await channels.counts()).toEqual([]);
    expect(fake.posts).toEqual([]);
  });

  it('a replayed activity runs one turn; typing is shown; options go out as Adaptive Card buttons and come back as Action.Submit', async () => {
    const { server, post, texts, fake, conversation } = await setup();
    const { app, stores } = server.start();
    for (let i = 0; i < 3; i++) expect((await post(app, { text: 'hello', id: '10' })).status).toBe(200);
    await expect.poll(() => texts().length).toBe(1);
    // The typing activity is a hint sent as the turn starts (not through the outbox).
    await expect.poll(() => fake.posts.filter((item) => item.type === 'typing').length).toBeGreaterThan(0);
    const answer = fake.posts.find((item) => item.type === 'message')!;
    expect(answer).toMatchObject({
      conversationId: CONVERSATION,
      text: 'Hi! How can I help?',
      buttons: [
        { title: 'Orders', data: { treeagentOption: 'Orders' } },
        { title: 'Returns', data: { treeagentOption: 'Returns' } },
      ],
    });
    expect((await post(app, { id: '11', value: { treeagentOption: 'Orders' } })).status).toBe(200);
    const session = await server.sessionOf(stores, conversation);
    expect(await server.userEntries(stores, session)).toEqual([
      ['hello', null],
      ['Orders', 'Orders'],
    ]);
  });

  it('a 500 and a 429 on a send are retried and the user gets the message once', async () => {
    const { server, post, texts, fake } = await setup();
    const { app } = server.start();
    fake.failNext(500);
    fake.failNext(429, 1);
    await post(app, { text: 'hello', id: '20' });
    await expect.poll(() => texts().length, { timeout: 10_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(texts()).toHaveLength(1);
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_channel_deliveries_total{channel="teams",result="retried"} 2');
  });

  it('a restart in the middle of a conversation keeps its session and an unsent answer', async () => {
    const { server, post, texts, fake, conversation } = await setup();
    const first = server.start();
    await post(first.app, { text: 'hello', id: '30' });
    await expect.poll(() => texts().length).toBe(1);
    for (let i = 0; i < 3; i++) fake.failNext(502);
    await post(first.app, { text: 'double', id: '31' });
    const session = await server.sessionOf(first.stores, conversation);
    await first.stop();
    const second = server.start();
    await expect
      .poll(() => texts(), { timeout: 10_000 })
      .toEqual(['Hi! How can I help?', 'First.', 'Second.']);
    await post(second.app, { text: 'double', id: '31' });
    await post(second.app, { text: 'hello', id: '32' });
    await expect.poll(() => texts().length).toBe(4);
    expect(await server.sessionOf(second.stores, conversation)).toBe(session);
    expect((await server.userEntries(second.stores, session)).map(([content]) => content)).toEqual([
      'hello',
      'double',
      'hello',
    ]);
  });

  it('a handoff: the user’s file reaches the operator, whose reply and image reach the user on Teams', async () => {
    const { server, post, texts, fake, conversation } = await setup();
    const { app, stores } = server.start();
    await post(app, { text: 'I want a human', id: '40' });
    await expect.poll(() => texts()).toContain(HANDOFF_NOTICE);
    const photo = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]);
    await post(app, { text: '', id: '41', attachments: [fake.share('photo-1', 'danno.png', photo)] });
    const sessionId = await server.sessionOf(stores, conversation);
    const file = (await stores.sessionStore.history(sessionId)).flatMap(
      (entry) => entry.attachments ?? [],
    )[0]!;
    expect(file).toMatchObject({ name: 'danno.png', mimeType: 'image/png' });
    expect(await stores.fileStore.read(file.id)).toEqual(photo);
    const reply = await operatorReplies(app, sessionId, {
      content: 'Ricevuta, grazie.',
      attachments: [file.id],
    });
    expect(reply).toEqual({ queued: [sessionId], status: 201 });
    await expect.poll(() => fake.received.filter((item) => item.kind === 'file').length).toBe(1);
    expect(fake.received.find((item) => item.kind === 'file')).toMatchObject({
      fileName: 'danno.png',
      data: photo,
    });
    expect(texts().filter(Boolean)).toEqual([
      HANDOFF_NOTICE,
      'Bruno Bianchi joined the conversation.',
      'Bruno Bianchi: Ricevuta, grazie.',
    ]);
  });
});
