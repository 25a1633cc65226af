import { InMemorySessionStore } from '@treeagent/core';
import { createApp } from '@treeagent/server';
import { afterEach, describe, expect, it } from 'vitest';
import { handoffAgent } from '../../../server/src/test-support/handoff.js';
import { FakeWhatsApp } from '../test-support/fake-whatsapp.js';
import { WhatsAppChannel } from './whatsapp-channel.js';

// The server's webhook → a turn → the outbox → a local fake of the Graph API on loopback. The tree
// is the server tests' shop (mock embedder and model, labelled in its fixture).

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(template?: { name: string; language: string }) {
  const fake = await FakeWhatsApp.start();
  const sessionStore = new InMemorySessionStore();
  const logged: string[] = [];
  const app = createApp({
    agent: handoffAgent({ sessionStore }),
    logger: { error: (message: string) => logged.push(message) },
    channels: {
      channels: [
        new WhatsAppChannel({
          phoneNumberId: fake.phoneNumberId,
          accessToken: fake.accessToken,
          appSecret: fake.appSecret,
          verifyToken: fake.verifyToken,
          graphRoot: fake.root,
          ...(template ? { template } : {}),
        }),
      ],
      retryDelayMs: 20,
      pollMs: 50,
    },
  });
  cleanups.push(async () => {
    await app.shutdown();
    await fake.close();
  });
  return { fake, app, sessionStore, logged };
}

const hello = { from: '393331234567', message: { type: 'text', text: { body: 'hello' } } };

describe('WhatsApp through the server', () => {
  it('a message WhatsApp reports undelivered is logged without the number or its id, and counted by its code', async () => {
    const { fake, app, logged } = await setup();
    const body = fake.change({
      statuses: [
        {
          id: 'wamid.F1',
          status: 'failed',
          recipient_id: '393331234567',
          errors: [{ code: 131047, title: 'Re-engagement message' }],
        },
      ],
    });
    expect((await app.request(fake.post(body))).status).toBe(200);
    const line = logged.find((message) => message.includes('was not delivered'));
    expect(line).toContain('131047 Re-engagement message');
    expect(line).not.toContain('393331234567');
    expect(line).not.toContain('wamid.F1');
    const metrics = await (await app.request('/metrics')).text();
    expect(metrics).toContain('treeagent_channel_undelivered_total{channel="whatsapp",code="131047"} 1');
  });

  it('a bad signature is 401 with nothing stored; a redelivered message runs one turn, answered once with reply buttons', async () => {
    const { fake, app, sessionStore } = await setup();
    expect((await app.request(fake.webhook({ ...hello, id: 'wamid.A' }, 'sha256=bad'))).status).toBe(401);
    expect((await app.request(fake.webhook({ ...hello, id: 'wamid.A' }, null))).status).toBe(401);
    expect(await sessionStore.channelStore().counts()).toEqual([]);
    for (let i = 0; i < 2; i++)
      expect((await app.request(fake.webhook({ ...hello, id: 'wamid.B' }))).status).toBe(200);
    fake.failNext(429, 1);
    const texts = () => fake.received.filter((item) => item.kind === 'text');
    await expect.poll(() => texts().length, { timeout: 5000 }).toBe(1);
    // Read and "typing…" while the turn ran: the receipt of the user's message.
    await expect
      .poll(() => fake.received.filter((item) => item.kind === 'typing').map((item) => item.text))
      .toEqual(['read:wamid.B']);
    expect(texts()[0]).toMatchObject({
      conversationId: '393331234567',
      text: 'Hi! How can I help?',
      buttons: ['Orders', 'Returns'],
    });
    const reply = await app.request(
      fake.webhook({
        from: '393331234567',
        id: 'wamid.C',
        message: {
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: 'o0', title: 'Orders' } },
        },
      }),
    );
    expect(reply.status).toBe(200);
    const session = await sessionStore
      .channelStore()
      .sessionOf(
        { channel: 'whatsapp', conversationId: '393331234567', userId: '393331234567' },
        'unused',
        new Date(),
      );
    const users = (await sessionStore.history(session)).filter((entry) => entry.role === 'user');
    expect(users.map((entry) => [entry.content, entry.selectedOption ?? null])).toEqual([
      ['hello', null],
      ['Orders', 'Orders'],
    ]);
  });

  it('outside the 24-hour window the answer is dead-lettered with the fix (never dropped); with a template configured, the template goes', async () => {
    const old = new Date(Date.now() - 25 * 3600 * 1000);
    const { fake, app, sessionStore } = await setup();
    expect((await app.request(fake.webhook({ ...hello, id: 'wamid.OLD', at: old }))).status).toBe(200);
    const store = sessionStore.channelStore();
    await expect.poll(() => store.deadLetters(), { timeout: 5000 }).toHaveLength(1);
    const [dead] = await store.deadLetters();
    expect(dead).toMatchObject({
      status: 'dead',
      attempts: 1,
      payload: { type: 'text', text: 'Hi! How can I help?' },
      lastError: expect.stringContaining('configure a template'),
    });
    expect(fake.received.filter((item) => item.kind === 'text')).toEqual([]);

    const withTemplate = await setup({ name: 'ripresa_conversazione', language: 'it' });
    await withTemplate.app.request(withTemplate.fake.webhook({ ...hello, id: 'wamid.OLD', at: old }));
    await expect
      .poll(() => withTemplate.fake.received.filter((item) => item.kind === 'text').map((item) => item.text))
      .toEqual(['template:ripresa_conversazione']);
  });
});
