import { ChannelSendError } from '@treeagent/core/adapter';
import { describeChannel } from '@treeagent/core/conformance';
import { describe, expect, it } from 'vitest';
import { FakeWhatsApp } from '../test-support/fake-whatsapp.js';
import { WhatsAppChannel, type WhatsAppChannelOptions } from './whatsapp-channel.js';

function channelOn(fake: FakeWhatsApp, options: Partial<WhatsAppChannelOptions> = {}) {
  return new WhatsAppChannel({
    phoneNumberId: fake.phoneNumberId,
    accessToken: fake.accessToken,
    appSecret: fake.appSecret,
    verifyToken: fake.verifyToken,
    graphRoot: fake.root,
    ...options,
  });
}

describeChannel('WhatsAppChannel (Cloud API against a local fake Graph API)', async () => {
  const fake = await FakeWhatsApp.start();
  const channel = channelOn(fake);
  const rewrite = async (request: Request, signature: string | null) =>
    new Request(request.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        ...(signature ? { 'X-Hub-Signature-256': signature } : {}),
      },
      body: await request.text(),
    });
  return {
    channel,
    userMessage: async (input) =>
      fake.webhook({
        from: input.conversationId,
        id: `wamid.${input.messageId}`,
        message: { type: 'text', text: { body: input.text } },
      }),
    optionChoice: async (input) =>
      fake.webhook({
        from: input.conversationId,
        id: `wamid.${input.messageId}`,
        message: {
          type: 'interactive',
          interactive: { type: 'button_reply', button_reply: { id: 'o0', title: input.option } },
        },
      }),
    userFile: async (input) => {
      const id = `media-${input.messageId}`;
      fake.media.set(id, { data: input.data, name: input.name, mimeType: input.mimeType });
      return fake.webhook({
        from: input.conversationId,
        id: `wamid.${input.messageId}`,
        message: { type: 'document', document: { id, mime_type: input.mimeType, filename: input.name } },
      });
    },
    unsigned: (request) => rewrite(request, null),
    forged: (request) => rewrite(request, 'sha256=00ff'),
    sent: () => fake.received,
    failNextSend: (status, retryAfter) => fake.failNext(status, retryAfter),
    dispose: () => fake.close(),
  };
});

describe('WhatsApp specifics', () => {
  it('answers the verify-token handshake, and refuses a wrong token', async () => {
    const fake = await FakeWhatsApp.start();
    try {
      const channel = channelOn(fake);
      const ok = await channel.receive(
        new Request(
          `http://server/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${fake.verifyToken}&hub.challenge=1158201444`,
        ),
      );
      expect(ok.kind).toBe('answer');
      expect(await (ok as { response: Response }).response.text()).toBe('1158201444');
      const wrong = await channel.receive(
        new Request(
          'http://server/channels/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1',
        ),
      );
      expect(wrong.kind).toBe('rejected');
    } finally {
      await fake.close();
    }
  });

  it('outside the 24-hour window: a configured template is sent; without one, a final error that names the fix', async () => {
    const fake = await FakeWhatsApp.start();
    try {
      const later = () => new Date(Date.now() + 25 * 3600 * 1000);
      const conversation = {
        channel: 'whatsapp',
        conversationId: '393331234567',
        userId: '393331234567',
        reply: { lastUserMessageAt: new Date().toISOString() },
      };
      const error = await channelOn(fake, { now: later })
        .send(conversation, { type: 'text', text: 'Ciao', options: [] })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ChannelSendError);
      expect(error).toMatchObject({
        retryable: false,
        message: expect.stringContaining('configure a template'),
      });
      expect(fake.received).toEqual([]);
      await channelOn(fake, { now: later, template: { name: 'ripresa_conversazione', language: 'it' } }).send(
        conversation,
        {
          type: 'text',
          text: 'Ciao',
          options: [],
        },
      );
      expect(fake.received.map((item) => item.raw.template)).toEqual([
        { name: 'ripresa_conversazione', language: { code: 'it' } },
      ]);
      // Inside the window the message itself goes.
      await channelOn(fake).send(conversation, { type: 'text', text: 'Ciao', options: ['Sì', 'No'] });
      expect(fake.received.at(-1)).toMatchObject({ kind: 'text', text: 'Ciao', buttons: ['Sì', 'No'] });
      expect((fake.received.at(-1)!.raw as any).interactive.type).toBe('button');
    } finally {
      await fake.close();
    }
  });
});

describe('WhatsApp read receipts', () => {
  it('"typing" marks the user’s last message read with the typing indicator; without its id nothing is sent', async () => {
    const fake = await FakeWhatsApp.start();
    try {
      const channel = channelOn(fake);
      const read = await channel.receive(
        fake.webhook({
          from: '393331234567',
          id: 'wamid.T1',
          message: { type: 'text', text: { body: 'ciao' } },
        }),
      );
      const conversation = (read as { messages: { conversation: any }[] }).messages[0]!.conversation;
      await channel.send(conversation, { type: 'typing' });
      expect(fake.received.map((item) => item.raw)).toEqual([
        {
          messaging_product: 'whatsapp',
          status: 'read',
          message_id: 'wamid.T1',
          typing_indicator: { type: 'text' },
        },
      ]);
      await channel.send({ ...conversation, reply: {} }, { type: 'typing' });
      expect(fake.received).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });
});
