import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '@treeagent/server';
import { openSqlite } from '@treeagent/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { handoffAgent } from '../../../server/src/test-support/handoff.js';
import { FakeMessenger } from '../test-support/fake-messenger.js';
import { InstagramChannel } from './instagram-channel.js';
import { MessengerChannel } from './messenger-channel.js';

// The server's webhook → a turn on a real SQLite file → the outbox → a local fake of the Send API on
// loopback. The tree is the server tests' shop (mock embedder and model, labelled in its fixture).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(object: 'page' | 'instagram') {
  const fake = await FakeMessenger.start(object);
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-messenger-'));
  const stores = openSqlite(directory);
  const options = {
    pageAccessToken: fake.accessToken,
    appSecret: fake.appSecret,
    verifyToken: fake.verifyToken,
    graphRoot: fake.root,
  };
  const app = createApp({
    agent: handoffAgent({ sessionStore: stores.sessionStore, fileStore: stores.fileStore }),
    logger: { error: () => {} },
    channels: {
      channels: [object === 'page' ? new MessengerChannel(options) : new InstagramChannel(options)],
      retryDelayMs: 20,
      pollMs: 50,
    },
  });
  cleanups.push(async () => {
    await app.shutdown();
    await stores.close();
    await fake.close();
    rmSync(directory, { recursive: true, force: true });
  });
  return { fake, app, stores };
}

for (const object of ['page', 'instagram'] as const) {
  const name = object === 'page' ? 'messenger' : 'instagram';
  describe(`${name} through the server`, () => {
    it('401 for a bad signature; a redelivery runs one turn; options round-trip; a file from the user is stored; seen and typing', async () => {
      const { fake, app, stores } = await setup(object);
      const hello = { sender: '2417', event: { message: { mid: 'm_A', text: 'hello' } } };
      expect((await app.request(fake.webhook(hello, 'sha256=bad'))).status).toBe(401);
      expect(await stores.sessionStore.channelStore().counts()).toEqual([]);
      for (let i = 0; i < 2; i++) expect((await app.request(fake.webhook(hello))).status).toBe(200);
      fake.failNext(500);
      const texts = () => fake.received.filter((item) => item.kind === 'text');
      await expect.poll(() => texts().length, { timeout: 5000 }).toBe(1);
      expect(texts()[0]).toMatchObject({
        conversationId: '2417',
        text: 'Hi! How can I help?',
        buttons: ['Orders', 'Returns'],
      });
      await expect.poll(() => fake.received.some((item) => item.kind === 'typing')).toBe(true);
      // The button (Messenger's postback) or quick reply (Instagram) comes back as the option.
      const choice =
        object === 'page'
          ? { postback: { mid: 'm_B', title: 'Orders', payload: 'Orders' } }
          : { message: { mid: 'm_B', text: 'Orders', quick_reply: { payload: 'Orders' } } };
      expect((await app.request(fake.webhook({ sender: '2417', event: choice }))).status).toBe(200);
      const url = fake.upload('r1', {
        data: new TextEncoder().encode('%PDF receipt'),
        name: 'receipt.pdf',
        mimeType: 'application/pdf',
      });
      const file = { message: { mid: 'm_C', attachments: [{ type: 'file', payload: { url } }] } };
      expect((await app.request(fake.webhook({ sender: '2417', event: file }))).status).toBe(200);
      const session = await stores.sessionStore
        .channelStore()
        .sessionOf({ channel: name, conversationId: '2417', userId: '2417' }, 'unused', new Date());
      const users = (await stores.sessionStore.history(session)).filter((entry) => entry.role === 'user');
      expect(users.map((entry) => [entry.content, entry.selectedOption ?? null])).toEqual([
        ['hello', null],
        ['Orders', 'Orders'],
        ['', null],
      ]);
      const files = await stores.fileStore.sessionFiles!(session);
      expect(files.map((item) => [item.name, item.mimeType])).toEqual([['receipt.pdf', 'application/pdf']]);
    });
  });
}
