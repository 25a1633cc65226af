import { type ChannelSend, ChannelSendError, type InboundMessage } from '@treeagent/core/adapter';
import { describeChannel } from '@treeagent/core/conformance';
import { describe, expect, it } from 'vitest';
import { FakeWhatsApp } from '../test-support/fake-whatsapp.js';
import { attempts, expectCaptionAfterFile, longCaptionFile } from '../test-support/long-caption.js';
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
    failSend: (nth, status) => fake.failSend(nth, status),
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

  it('a caption over WhatsApp’s 1,024 characters follows the document as text, resumable without a second upload; a shorter one rides with it', async () => {
    const fake = await FakeWhatsApp.start();
    try {
      const channel = channelOn(fake);
      const conversation = {
        channel: 'whatsapp',
        conversationId: '393331234567',
        userId: '393331234567',
        reply: { lastUserMessageAt: new Date().toISOString() },
      };
      fake.failSend(2, 500);
      const sends = attempts();
      const first = await channel.send(conversation, longCaptionFile, sends.next()).catch((error) => error);
      expect(first).toBeInstanceOf(ChannelSendError);
      expect(sends.sent()).toBe(1);
      await channel.send(conversation, longCaptionFile, sends.next());
      expectCaptionAfterFile(fake.received, sends.sent());
      expect(fake.media.size).toBe(1);
      fake.received.length = 0;
      const short = 'x'.repeat(1024);
      await channel.send(conversation, { ...longCaptionFile, caption: short });
      expect(fake.received).toEqual([expect.objectContaining({ kind: 'file', caption: short })]);
    } finally {
      await fake.close();
    }
  });

  it('outside the 24-hour window: the template goes once and the messages wait, dead-lettered with why; without one, a final error that names the fix', async () => {
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
      const channel = channelOn(fake, {
        now: later,
        template: { name: 'ripresa_conversazione', language: 'it' },
      });
      // An operator's reply, a reply with options and a file: none is lost in the template's place.
      const sends: ChannelSend[] = [
        { type: 'text', text: 'Ciao', options: [], operatorName: 'Anna' },
        { type: 'text', text: 'Scegli', options: ['Sì', 'No'] },
        {
          type: 'file',
          file: { id: 'f1', name: 'fattura.txt', mimeType: 'text/plain', origin: 'generated' },
          data: new TextEncoder().encode('fattura'),
        },
      ];
      for (const message of sends) {
        const refused = await channel.send(conversation, message).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(ChannelSendError);
        expect(refused).toMatchObject({
          retryable: false,
          message: expect.stringMatching(/waits for the user's answer.*retry it from the dead letters/),
        });
      }
      expect(fake.received.map((item) => item.raw.template)).toEqual([
        { name: 'ripresa_conversazione', language: { code: 'it' } },
      ]);
      // The user answers: the window opens again, a message after it that also lapses invites again.
      const answered = {
        ...conversation,
        reply: { lastUserMessageAt: new Date(Date.now() + 1000).toISOString() },
      };
      await channel.send(answered, { type: 'text', text: 'Ciao', options: [] }).catch(() => null);
      expect(fake.received.filter((item) => item.raw.type === 'template')).toHaveLength(2);
      // Inside the window the message itself goes.
      await channelOn(fake).send(conversation, { type: 'text', text: 'Ciao', options: ['Sì', 'No'] });
      expect(fake.received.at(-1)).toMatchObject({ kind: 'text', text: 'Ciao', buttons: ['Sì', 'No'] });
      expect((fake.received.at(-1)!.raw as any).interactive.type).toBe('button');
    } finally {
      await fake.close();
    }
  });

  it('a long answer with options goes in messages of 4,096 characters; only the last, with the buttons, is held to 1,024', async () => {
    const fake = await FakeWhatsApp.start();
    try {
      const conversation = {
        channel: 'whatsapp',
        conversationId: '393331234567',
        userId: '393331234567',
        reply: { lastUserMessageAt: new Date().toISOString() },
      };
      const text = Array.from({ length: 3000 }, (_, i) => `parola${i % 10}`)
        .join(' ')
        .slice(0, 22_000);
      await channelOn(fake).send(conversation, { type: 'text', text, options: ['Yes', 'No'] });
      const texts = fake.received.filter((item) => item.kind === 'text');
      expect(texts.length).toBeGreaterThanOrEqual(6);
      expect(texts.length).toBeLessThanOrEqual(7);
      expect(texts.slice(0, -1).every((item) => item.text!.length <= 4096 && !item.buttons)).toBe(true);
      expect(texts.at(-1)!.buttons).toEqual(['Yes', 'No']);
      expect(texts.at(-1)!.text!.length).toBeLessThanOrEqual(1024);
    } finally {
      await fake.close();
    }
  });

  it('the list of options opens with the configured button label (default "Options", at most 20 characters)', async () => {
    const fake = await FakeWhatsApp.start();
    try {
      const conversation = {
        channel: 'whatsapp',
        conversationId: '393331234567',
        userId: '393331234567',
        reply: { lastUserMessageAt: new Date().toISOString() },
      };
      const options = ['Ordini', 'Resi', 'Spedizioni', 'Pagamenti'];
      await channelOn(fake).send(conversation, { type: 'text', text: 'Scegli', options });
      await channelOn(fake, { listButton: 'Scegli' }).send(conversation, {
        type: 'text',
        text: 'Scegli',
        options,
      });
      expect(fake.received.map((item) => (item.raw as any).interactive.action.button)).toEqual([
        'Options',
        'Scegli',
      ]);
      expect(() => channelOn(fake, { listButton: 'Scegli una delle opzioni' })).toThrow(
        /listButton must be 1–20/,
      );
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

describe('WhatsApp webhooks', () => {
  const change = (fake: FakeWhatsApp, value: Record<string, unknown>, phoneNumberId = fake.phoneNumberId) =>
    fake.change(value, phoneNumberId);
  const user = (id: string, message: Record<string, unknown>) => ({
    from: '393331234567',
    id,
    timestamp: String(Math.floor(Date.now() / 1000)),
    ...message,
  });

  it('a signed body it cannot read is answered 200 with the problem (Meta redelivers anything else), never thrown; a message without an id or sender is skipped', async () => {
    const fake = await FakeWhatsApp.start();
    try {
      const channel = channelOn(fake);
      for (const body of ['null', '{"entry":"x"}', '[1]', '"text"']) {
        const result = await channel.receive(fake.post(body));
        expect(result.kind).toBe('answer');
        const response = (result as { response: Response }).response;
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ detail: expect.stringContaining('entry') });
      }
      expect(await channel.receive(fake.post('{"entry":[null,{"changes":"x"},{"changes":[null]}]}'))).toEqual(
        {
          kind: 'messages',
          messages: [],
        },
      );
      const result = await channel.receive(
        fake.post(
          change(fake, {
            messages: [
              { from: '393331234567', type: 'text', text: { body: 'no id' } },
              { id: 'wamid.X', type: 'text', text: { body: 'no sender' } },
              user('wamid.OK', { type: 'text', text: { body: 'ciao' } }),
            ],
          }),
        ),
      );
      expect(result).toMatchObject({ kind: 'messages', messages: [{ messageId: 'wamid.OK', text: 'ciao' }] });
      expect((result as { messages: unknown[] }).messages).toHaveLength(1);
    } finally {
      await fake.close();
    }
  });

  it('ignores the messages of another phone number of the same app; tells a failed delivery without personal data', async () => {
    const fake = await FakeWhatsApp.start();
    try {
      const failures: unknown[] = [];
      const channel = channelOn(fake, { onDeliveryFailure: (failure) => failures.push(failure) });
      const other = await channel.receive(
        fake.post(
          change(fake, { messages: [user('wamid.O', { type: 'text', text: { body: 'ciao' } })] }, '555'),
        ),
      );
      expect(other).toEqual({ kind: 'messages', messages: [] });
      const statuses = await channel.receive(
        fake.post(
          change(fake, {
            statuses: [
              { id: 'wamid.S1', status: 'delivered', recipient_id: '393331234567' },
              {
                id: 'wamid.S2',
                status: 'failed',
                recipient_id: '393331234567',
                errors: [{ code: 131047, title: 'Re-engagement message', message: 'More than 24 hours' }],
              },
            ],
          }),
        ),
      );
      // The same failure goes to the server, which logs and counts it.
      expect(statuses).toEqual({ kind: 'messages', messages: [], deliveryFailures: failures });
      expect(failures).toEqual([
        {
          messageId: expect.any(String),
          recipient: expect.any(String),
          code: 131047,
          title: 'Re-engagement message',
        },
      ]);
      expect(JSON.stringify(failures)).not.toContain('393331234567');
      expect(JSON.stringify(failures)).not.toContain('wamid.S2');
    } finally {
      await fake.close();
    }
  });

  it('reads voice and audio as files, a sticker as an image, a location and contacts as text; ignores reactions; an unsupported message is text that says so, never an empty turn', async () => {
    const fake = await FakeWhatsApp.start();
    try {
      const channel = channelOn(fake);
      fake.media.set('voice-1', { data: new Uint8Array([1, 2]), name: 'v', mimeType: 'audio/ogg' });
      const result = await channel.receive(
        fake.post(
          change(fake, {
            messages: [
              user('wamid.R', { type: 'reaction', reaction: { message_id: 'wamid.A', emoji: '👍' } }),
              user('wamid.V', {
                type: 'audio',
                audio: { id: 'voice-1', mime_type: 'audio/ogg; codecs=opus', voice: true },
              }),
              user('wamid.A', { type: 'audio', audio: { id: 'audio-1', mime_type: 'audio/mpeg' } }),
              user('wamid.S', { type: 'sticker', sticker: { id: 'sticker-1', mime_type: 'image/webp' } }),
              user('wamid.L', {
                type: 'location',
                location: { latitude: 45.4642, longitude: 9.19, name: 'Duomo' },
              }),
              user('wamid.C', { type: 'contacts', contacts: [{ name: { formatted_name: 'Anna Rossi' } }] }),
              user('wamid.U', { type: 'unsupported', errors: [{ code: 131051 }] }),
            ],
          }),
        ),
      );
      const messages = (result as { messages: InboundMessage[] }).messages;
      expect(messages.map((message) => message.messageId)).toEqual([
        'wamid.V',
        'wamid.A',
        'wamid.S',
        'wamid.L',
        'wamid.C',
        'wamid.U',
      ]);
      const [voice, audio, sticker, location, contacts, unsupported] = messages;
      expect(voice!.attachments.map((file) => [file.name, file.mimeType])).toEqual([
        ['voice-wamid.V.ogg', 'audio/ogg; codecs=opus'],
      ]);
      expect(await voice!.attachments[0]!.download()).toEqual(new Uint8Array([1, 2]));
      expect(audio!.attachments[0]!.mimeType).toBe('audio/mpeg');
      expect(sticker!.attachments.map((file) => file.mimeType)).toEqual(['image/webp']);
      expect(location!.text).toBe('(location: 45.4642, 9.19 — Duomo)');
      expect(contacts!.text).toBe('(contact card: Anna Rossi)');
      expect(unsupported!.text).toContain('cannot read');
      expect(messages.every((message) => message.text || message.attachments.length)).toBe(true);
    } finally {
      await fake.close();
    }
  });
});
