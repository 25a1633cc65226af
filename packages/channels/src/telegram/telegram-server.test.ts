import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '@treeagent/server';
import { openSqlite, type SqliteStores } from '@treeagent/sqlite';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type OperatorAccount, operatorDirectory } from '../../../server/src/operators/operator-accounts.js';
import { HANDOFF_NOTICE, handoffAgent } from '../../../server/src/test-support/handoff.js';
import { loginOperator, testOperatorAccounts } from '../../../server/src/test-support/operators.js';
import {
  callbackUpdate,
  documentUpdate,
  FakeTelegram,
  telegramWebhook,
  textUpdate,
} from '../test-support/fake-telegram.js';
import { TelegramChannel } from './telegram-channel.js';

// The whole path: the server's webhook → a turn on a real SQLite file → the outbox → grammY →
// a local fake of the Bot API on loopback. The tree is the server tests' shop (mock embedder and
// model, labelled in its fixture).

const SECRET = 'webhook-secret_123';
let accounts: OperatorAccount[];
beforeAll(async () => {
  accounts = await testOperatorAccounts();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const fake = await FakeTelegram.start();
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-telegram-'));
  cleanups.push(async () => {
    await fake.close();
    rmSync(directory, { recursive: true, force: true });
  });
  const start = () => {
    const stores: SqliteStores = openSqlite(directory);
    const app = createApp({
      agent: handoffAgent({ sessionStore: stores.sessionStore, fileStore: stores.fileStore }),
      logger: { error: () => {} },
      operators: { directory: operatorDirectory(accounts), auditLog: stores.auditLog },
      handoff: { queue: stores.handoffQueue },
      channels: {
        channels: [new TelegramChannel({ token: fake.token, secretToken: SECRET, apiRoot: fake.apiRoot })],
        retryDelayMs: 20,
        pollMs: 50,
      },
    });
    const stop = async () => {
      await app.shutdown();
      await stores.close();
    };
    cleanups.push(stop);
    return { app, stores, stop };
  };
  const post = (
    app: ReturnType<typeof createApp>,
    update: Record<string, unknown>,
    secret: string | null = SECRET,
  ) => app.request(telegramWebhook(update, secret));
  const texts = () => fake.received.filter((item) => item.kind === 'text');
  return { fake, start, post, texts };
}

const chat = { chatId: 555, userId: 77 };

describe('Telegram through the server', () => {
  it('a missing or wrong secret token is 401 and nothing is stored', async () => {
    const { start, post, fake } = await setup();
    const { app, stores } = start();
    expect((await post(app, textUpdate({ updateId: 1, ...chat, text: 'hello' }), null)).status).toBe(401);
    expect((await post(app, textUpdate({ updateId: 1, ...chat, text: 'hello' }), 'wrong')).status).toBe(401);
    const channels = stores.sessionStore.channelStore();
    expect(await channels.conversationOf('anything')).toBeNull();
    expect(await channels.counts()).toEqual([]);
    expect(fake.received).toEqual([]);
  });

  it('a replayed update runs one turn; options go out as an inline keyboard and come back as a button press', async () => {
    const { start, post, texts } = await setup();
    const { app, stores } = start();
    for (let i = 0; i < 3; i++)
      expect((await post(app, textUpdate({ updateId: 10, ...chat, text: 'hello' }))).status).toBe(200);
    await expect.poll(() => texts().length).toBe(1);
    expect(texts()[0]).toMatchObject({
      conversationId: '555',
      text: 'Hi! How can I help?',
      buttons: ['Orders', 'Returns'],
    });
    expect((await post(app, callbackUpdate({ updateId: 11, ...chat, data: 'Orders' }))).status).toBe(200);
    const session = await stores.sessionStore
      .channelStore()
      .sessionOf({ channel: 'telegram', conversationId: '555', userId: '77' }, 'unused', new Date());
    const users = (await stores.sessionStore.history(session)).filter((entry) => entry.role === 'user');
    expect(users.map((entry) => [entry.content, entry.selectedOption ?? null])).toEqual([
      ['hello', null],
      ['Orders', 'Orders'],
    ]);
  });

  it('a 500 and a 429 on a send are retried and the user gets the message once', async () => {
    const { start, post, texts, fake } = await setup();
    const { app } = start();
    fake.failNext(500);
    fake.failNext(429, 1);
    await post(app, textUpdate({ updateId: 20, ...chat, text: 'hello' }));
    await expect.poll(() => texts().length, { timeout: 10_000 }).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(texts()).toHaveLength(1);
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_channel_deliveries_total{channel="telegram",result="retried"} 2');
  });

  it('a restart in the middle of a conversation keeps its session and an unsent answer', async () => {
    const { start, post, texts, fake } = await setup();
    const first = start();
    await post(first.app, textUpdate({ updateId: 30, ...chat, text: 'hello' }));
    await expect.poll(() => texts().length).toBe(1);
    // The platform is down when the next answer is due, and the process stops.
    for (let i = 0; i < 3; i++) fake.failNext(502);
    await post(first.app, textUpdate({ updateId: 31, ...chat, text: 'double' }));
    await first.stop();
    const second = start();
    await expect
      .poll(() => texts().map((item) => item.text), { timeout: 10_000 })
      .toEqual(['Hi! How can I help?', 'First.', 'Second.']);
    // A redelivery of an update the first process ran runs nothing in the second.
    await post(second.app, textUpdate({ updateId: 31, ...chat, text: 'double' }));
    await post(second.app, textUpdate({ updateId: 32, ...chat, text: 'hello' }));
    await expect.poll(() => texts().length).toBe(4);
    const session = await second.stores.sessionStore
      .channelStore()
      .sessionOf({ channel: 'telegram', conversationId: '555', userId: '77' }, 'unused', new Date());
    const users = (await second.stores.sessionStore.history(session)).filter(
      (entry) => entry.role === 'user',
    );
    expect(users.map((entry) => entry.content)).toEqual(['hello', 'double', 'hello']);
  });

  it('a handoff: the user’s file reaches the operator, whose reply and file reach the user on Telegram', async () => {
    const { start, post, texts, fake } = await setup();
    const { app, stores } = start();
    await post(app, textUpdate({ updateId: 40, ...chat, text: 'I want a human' }));
    await expect.poll(() => texts().map((item) => item.text)).toContain(HANDOFF_NOTICE);
    const receipt = new TextEncoder().encode('%PDF-1.4 scontrino');
    fake.upload('doc-1', receipt);
    await post(
      app,
      documentUpdate({
        updateId: 41,
        ...chat,
        fileId: 'doc-1',
        name: 'scontrino.pdf',
        mimeType: 'application/pdf',
      }),
    );
    const bruno = await loginOperator(app, 'bruno');
    const headers = { 'X-Operator-Token': bruno, 'Content-Type': 'application/json' };
    const list = (await (await app.request('/api/v1/operator/handoffs', { headers })).json()) as any;
    const sessionId = list.handoffs[0].sessionId as string;
    // The console shows where the user writes from.
    expect(list.handoffs[0].channel).toBe('telegram');
    const history = await stores.sessionStore.history(sessionId);
    const file = history.flatMap((entry) => entry.attachments ?? [])[0]!;
    expect(file).toMatchObject({ name: 'scontrino.pdf', mimeType: 'application/pdf' });
    expect(await stores.fileStore.read(file.id)).toEqual(receipt);
    await app.request(`/api/v1/operator/handoffs/${sessionId}/claim`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    // The operator typing shows on Telegram ("typing…").
    const typings = () => fake.received.filter((item) => item.kind === 'typing').length;
    const before = typings();
    const typing = await app.request(`/api/v1/operator/handoffs/${sessionId}/typing`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ typing: true }),
    });
    expect(typing.status).toBe(204);
    await expect.poll(typings).toBe(before + 1);
    const reply = await app.request(`/api/v1/operator/handoffs/${sessionId}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ content: 'Ecco la sua ricevuta.', attachments: [file.id] }),
    });
    expect(reply.status).toBe(201);
    await expect.poll(() => fake.received.filter((item) => item.kind === 'file').length).toBe(1);
    expect(fake.received.find((item) => item.kind === 'file')).toMatchObject({
      fileName: 'scontrino.pdf',
      data: receipt,
    });
    expect(texts().map((item) => item.text)).toEqual([
      HANDOFF_NOTICE,
      'Bruno Bianchi joined the conversation.',
      'Bruno Bianchi: Ecco la sua ricevuta.',
    ]);
  });

  it('CSAT: after the hand-back the user gets buttons 1–5; the pressed one is the rating, the next text its comment, and neither runs a turn', async () => {
    const { start, post, texts } = await setup();
    const { app, stores } = start();
    await post(app, textUpdate({ updateId: 50, ...chat, text: 'I want a human' }));
    await expect.poll(() => texts().map((item) => item.text)).toContain(HANDOFF_NOTICE);
    const bruno = await loginOperator(app, 'bruno');
    const headers = { 'X-Operator-Token': bruno, 'Content-Type': 'application/json' };
    const list = (await (await app.request('/api/v1/operator/handoffs', { headers })).json()) as any;
    const sessionId = list.handoffs[0].sessionId as string;
    const call = (path: string) =>
      app.request(`/api/v1/operator/handoffs/${sessionId}${path}`, { method: 'POST', headers, body: '{}' });
    expect((await call('/claim')).status).toBe(200);
    expect((await call('/hand-back')).status).toBe(200);
    const question =
      'How satisfied are you with the help you got? Choose from 1 (very unsatisfied) to 5 (very satisfied).';
    await expect.poll(() => texts().map((item) => item.text)).toContain(question);
    expect(texts().find((item) => item.text === question)).toMatchObject({
      buttons: ['1', '2', '3', '4', '5'],
    });
    const turns = async () =>
      (await stores.sessionStore.history(sessionId)).filter((entry) => entry.role === 'user').length;
    const before = await turns();

    expect((await post(app, callbackUpdate({ updateId: 51, ...chat, data: '4' }))).status).toBe(200);
    await expect
      .poll(() => texts().at(-1)?.text)
      .toBe('Thank you for your rating. Anything to add? Write it now (optional).');
    // A redelivery of the button press changes nothing and runs no turn.
    expect((await post(app, callbackUpdate({ updateId: 51, ...chat, data: '4' }))).status).toBe(200);
    expect((await post(app, textUpdate({ updateId: 52, ...chat, text: 'Quick and kind' }))).status).toBe(200);
    await expect.poll(() => texts().at(-1)?.text).toBe('Thank you: we keep your comment.');
    expect(await turns()).toBe(before);
    const report = (await (await app.request('/api/v1/analytics/satisfaction', { headers })).json()) as any;
    expect(report).toMatchObject({ count: 1, average: 4 });
    expect(report.byOperator).toEqual([expect.objectContaining({ key: 'bruno', count: 1 })]);
    expect(report.comments.map((item: { comment: string }) => item.comment)).toEqual(['Quick and kind']);

    // Afterwards the agent answers again.
    expect((await post(app, textUpdate({ updateId: 53, ...chat, text: 'hello' }))).status).toBe(200);
    await expect.poll(() => texts().at(-1)?.text).toBe('Hi! How can I help?');
  });
});
