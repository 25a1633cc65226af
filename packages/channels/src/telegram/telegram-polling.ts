import type { ChannelListener, InboundMessage } from '@treeagent/core/adapter';
import { Bot } from 'grammy';
import type { TelegramUpdate } from './telegram-update.js';

/** What `pollTelegram` needs from its channel. */
export interface TelegramPollingOptions {
  name: string;
  token: string;
  apiRoot: string;
  /** `getUpdates`' long-poll timeout, in seconds. */
  timeoutSeconds: number;
  /** Reads an update as the webhook does (`null`: nothing to run). */
  read(update: TelegramUpdate): InboundMessage | null;
  /** The server's handler (`Channel.listen`). */
  handle(messages: InboundMessage[]): Promise<void>;
}

/** The longest wait between two tries of an update whose turn failed. */
const MAX_RETRY_MS = 30_000;

/**
 * Telegram's long polling with grammY's `Bot` (development: no public HTTPS URL needed). It refuses to
 * start while the bot has a webhook, naming the fix, rather than let grammY delete it: a production
 * webhook and a development poller on one bot would take each other's updates. Updates are handled one
 * at a time; one whose turn failed is tried again (backing off up to 30 s) before the next, and Telegram
 * is told it was handled only then.
 */
export function pollTelegram(options: TelegramPollingOptions): ChannelListener {
  const bot = new Bot(options.token, { client: { apiRoot: options.apiRoot } });
  let stopping = false;
  bot.use(async (context) => {
    const message = options.read(context.update as unknown as TelegramUpdate);
    if (!message) return;
    for (let attempt = 1; ; attempt++) {
      try {
        await options.handle([message]);
        return;
      } catch (error) {
        if (stopping) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** attempt, MAX_RETRY_MS)));
      }
    }
  });
  // The handler logged the failure already; polling goes on.
  bot.catch(() => {});
  const stopped = (async () => {
    const webhook = await bot.api.getWebhookInfo();
    if (webhook.url)
      throw new Error(
        `Telegram channel "${options.name}" is in polling mode, but the bot has a webhook (${new URL(webhook.url).host}): Telegram gives updates to one or the other. Remove the webhook (curl https://api.telegram.org/bot<token>/deleteWebhook) to poll, or drop "mode": "polling" to use it.`,
      );
    if (stopping) return;
    await bot.start({
      timeout: options.timeoutSeconds,
      allowed_updates: ['message', 'callback_query'],
    });
  })();
  return {
    stopped,
    stop: async () => {
      stopping = true;
      if (bot.isRunning()) await bot.stop();
      await stopped.catch(() => {});
    },
  };
}
