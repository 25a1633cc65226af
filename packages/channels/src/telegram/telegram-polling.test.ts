import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '@treeagent/server';
import { openSqlite } from '@treeagent/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { handoffAgent } from '../../../server/src/test-support/handoff.js';
import { FakeTelegram, telegramWebhook, textUpdate } from '../test-support/fake-telegram.js';
import { TelegramChannel } from './telegram-channel.js';

// Long polling through grammY's Bot against a local fake of the Bot API (getUpdates on loopback),
// a real SQLite file, the server's turn and outbox. The tree is the server tests' shop (mock embedder
// and model, labelled in its fixture).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(prepare: (fake: FakeTelegram) => void = () => {}) {
  const fake = await FakeTelegram.start();
  prepare(fake);
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-polling-'));
  const stores = openSqlite(directory);
  const errors: string[] = [];
  const app = createApp({
    agent: handoffAgent({ sessionStore: stores.sessionStore, fileStore: stores.fileStore }),
    logger: { error: (message: string) => errors.push(message) },
    channels: {
      channels: [
        new TelegramChannel({
          token: fake.token,
          apiRoot: fake.apiRoot,
          mode: 'polling',
          pollingTimeoutSeconds: 1,
        }),
      ],
      retryDelayMs: 20,
      pollMs: 50,
    },
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await app.shutdown();
    await stores.close();
  };
  cleanups.push(async () => {
    await stop();
    await fake.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return { fake, app, stores, errors, stop };
}

describe('Telegram long polling (mode "polling")', () => {
  it('fetches updates with getUpdates, runs each once and answers; confirms them; takes no webhook', async () => {
    const { fake, app, stop } = await setup();
    fake.queueUpdate(textUpdate({ updateId: 900, chatId: 555, userId: 77, text: 'hello' }));
    const texts = () => fake.received.filter((item) => item.kind === 'text');
    await expect.poll(() => texts().length, { timeout: 10_000 }).toBe(1);
    expect(texts()[0]).toMatchObject({
      conversationId: '555',
      text: 'Hi! How can I help?',
      buttons: ['Orders', 'Returns'],
    });
    fake.queueUpdate(textUpdate({ updateId: 901, chatId: 555, userId: 77, text: 'hello' }));
    await expect.poll(() => texts().length, { timeout: 10_000 }).toBe(2);
    const webhook = await app.request(
      telegramWebhook(textUpdate({ updateId: 902, chatId: 555, userId: 77, text: 'x' }), 'any'),
    );
    expect(webhook.status).toBe(401);
    await stop();
    // Both updates confirmed to Telegram (the next getUpdates starts after them).
    expect(fake.confirmedOffset).toBe(902);
    expect(texts()).toHaveLength(2);
  });

  it('refuses to poll while the bot has a webhook, naming the fix, and leaves the webhook alone', async () => {
    const { fake, errors } = await setup((fake) => {
      fake.webhookUrl = 'https://help.example.com/channels/telegram/webhook';
    });
    await expect
      .poll(() => errors.join('\n'), { timeout: 10_000 })
      .toMatch(/polling mode, but the bot has a webhook \(help\.example\.com\).*deleteWebhook/);
    expect(fake.webhookUrl).toBe('https://help.example.com/channels/telegram/webhook');
  });

  it('refuses polling together with a webhook secret token', () => {
    expect(() => new TelegramChannel({ token: '1:abc', secretToken: 'secret', mode: 'polling' })).toThrow(
      /"polling" and a webhook secretToken together.*Remove secretToken/,
    );
  });
});
