import type { InboundMessage } from '@treeagent/core/adapter';
import { describeChannel } from '@treeagent/core/conformance';
import { describe, expect, it } from 'vitest';
import {
  callbackUpdate,
  documentUpdate,
  FakeTelegram,
  telegramWebhook,
  textUpdate,
} from '../test-support/fake-telegram.js';
import { attempts, expectCaptionAfterFile, longCaptionFile } from '../test-support/long-caption.js';
import { TelegramChannel } from './telegram-channel.js';

const SECRET = 'webhook-secret_123';

describeChannel('TelegramChannel (grammY against a local fake Bot API)', async () => {
  const fake = await FakeTelegram.start();
  const channel = new TelegramChannel({ token: fake.token, secretToken: SECRET, apiRoot: fake.apiRoot });
  const ids = (input: { conversationId: string; userId: string; messageId: string }) => ({
    updateId: Number(input.messageId),
    chatId: Number(input.conversationId),
    userId: Number(input.userId),
  });
  return {
    channel,
    userMessage: async (input) => telegramWebhook(textUpdate({ ...ids(input), text: input.text }), SECRET),
    optionChoice: async (input) =>
      telegramWebhook(callbackUpdate({ ...ids(input), data: input.option }), SECRET),
    userFile: async (input) => {
      const fileId = `file-${input.messageId}`;
      fake.upload(fileId, input.data);
      return telegramWebhook(
        documentUpdate({ ...ids(input), fileId, name: input.name, mimeType: input.mimeType }),
        SECRET,
      );
    },
    unsigned: async (request) => telegramWebhook((await request.json()) as Record<string, unknown>, null),
    forged: async (request) =>
      telegramWebhook((await request.json()) as Record<string, unknown>, 'not-the-secret'),
    sent: () => fake.received.filter((item) => item.kind !== 'typing'),
    failNextSend: (status, retryAfter) => fake.failNext(status, retryAfter),
    failSend: (nth, status) => fake.failSend(nth, status),
    dispose: () => fake.close(),
  };
});

describe('Telegram specifics', () => {
  const open = async () => {
    const fake = await FakeTelegram.start();
    const channel = new TelegramChannel({ token: fake.token, secretToken: SECRET, apiRoot: fake.apiRoot });
    return { fake, channel };
  };
  const raw = (body: string) =>
    new Request('http://server/channels/telegram/webhook', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': SECRET },
      body,
    });
  const withContent = (updateId: number, content: Record<string, unknown>) => {
    const update = textUpdate({ updateId, chatId: 42, userId: 7, text: '' });
    const { text: _text, ...message } = update.message;
    return { ...update, message: { ...message, ...content } };
  };

  it('a caption over Telegram’s 1,024 characters follows the document as text, resumable; a shorter one rides with it', async () => {
    const { fake, channel } = await open();
    try {
      const conversation = { channel: 'telegram', conversationId: '42', userId: '7' };
      // The platform refuses the second text after the file once: the retry sends only what is left.
      fake.failSend(3, 500);
      const sends = attempts();
      const first = await channel.send(conversation, longCaptionFile, sends.next()).catch((error) => error);
      expect(first).toBeInstanceOf(Error);
      expect(sends.sent()).toBe(2);
      await channel.send(conversation, longCaptionFile, sends.next());
      expectCaptionAfterFile(fake.received, sends.sent());
      fake.received.length = 0;
      const short = 'x'.repeat(1024);
      await channel.send(conversation, { ...longCaptionFile, caption: short });
      expect(fake.received).toEqual([expect.objectContaining({ kind: 'file', caption: short })]);
    } finally {
      await fake.close();
    }
  });

  it('an update it cannot read is answered 200 with the problem (Telegram redelivers anything else), never thrown', async () => {
    const { fake, channel } = await open();
    try {
      for (const body of ['null', '[1]', '{"update_id":"x"}', '{not json']) {
        const result = await channel.receive(raw(body));
        expect(result.kind, body).toBe('answer');
        const response = (result as { response: Response }).response;
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({
          detail: expect.stringContaining(body === '{not json' ? 'not JSON' : 'update_id'),
        });
      }
      expect(await channel.receive(raw('{"update_id":9,"message":null}'))).toEqual({
        kind: 'messages',
        messages: [],
      });
    } finally {
      await fake.close();
    }
  });

  it('reads a voice message as a file, a still sticker as an image, an animated one and a location as text; a service message runs no turn', async () => {
    const { fake, channel } = await open();
    try {
      const read = async (update: Record<string, unknown>) => {
        const result = await channel.receive(telegramWebhook(update, SECRET));
        return (result as { messages: InboundMessage[] }).messages;
      };
      fake.upload('voice-1', new Uint8Array([7, 8]));
      const [voice] = await read(withContent(1, { voice: { file_id: 'voice-1', mime_type: 'audio/ogg' } }));
      expect(voice!.attachments.map((file) => file.mimeType)).toEqual(['audio/ogg']);
      expect(await voice!.attachments[0]!.download()).toEqual(new Uint8Array([7, 8]));
      const [still] = await read(
        withContent(2, { sticker: { file_id: 's1', is_animated: false, is_video: false } }),
      );
      expect(still!.attachments.map((file) => file.mimeType)).toEqual(['image/webp']);
      const [animated] = await read(
        withContent(3, { sticker: { file_id: 's2', is_animated: true, is_video: false, emoji: '😀' } }),
      );
      expect([animated!.text, animated!.attachments]).toEqual(['(sticker 😀)', []]);
      const [place] = await read(withContent(4, { location: { latitude: 41.9, longitude: 12.5 } }));
      expect(place!.text).toBe('(location: 41.9, 12.5)');
      expect(await read(withContent(5, { new_chat_members: [{ id: 9 }] }))).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('an option of up to 64 bytes is a button, a longer one (in UTF-8) makes the options a numbered list', async () => {
    const { fake, channel } = await open();
    try {
      const to = { channel: 'telegram', conversationId: '42', userId: '7' };
      const ascii = 'a'.repeat(50);
      await channel.send(to, { type: 'text', text: 'Scegli', options: [ascii, 'No'] });
      expect(fake.received.at(-1)!.buttons).toEqual([ascii, 'No']);
      const accented = 'è'.repeat(40); // 40 characters, 80 bytes
      await channel.send(to, { type: 'text', text: 'Scegli', options: [accented, 'No'] });
      expect(fake.received.at(-1)!.buttons ?? []).toEqual([]);
      expect(fake.received.at(-1)!.text).toContain(`1. ${accented}`);
    } finally {
      await fake.close();
    }
  });
});
