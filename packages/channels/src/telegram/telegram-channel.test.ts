import { describeChannel } from '@treeagent/core/conformance';
import {
  callbackUpdate,
  documentUpdate,
  FakeTelegram,
  telegramWebhook,
  textUpdate,
} from '../test-support/fake-telegram.js';
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
    dispose: () => fake.close(),
  };
});
