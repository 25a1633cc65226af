import { timingSafeEqual } from 'node:crypto';
import type { ChannelConversation } from '@treeagent/core/adapter';
import {
  type Channel,
  type ChannelCapabilities,
  type ChannelListener,
  type ChannelRequest,
  type ChannelSend,
  ChannelSendError,
  type ChannelSendProgress,
  type InboundAttachment,
  type InboundMessage,
  readBodyWithin,
  refuseDeclaredOver,
  splitText,
  textWithOptions,
} from '@treeagent/core/adapter';
import { Api, GrammyError, HttpError, InputFile } from 'grammy';
import { isObject, malformedBody } from '../malformed-body.js';
import { sendInOrder } from '../send-in-order.js';
import { pollTelegram } from './telegram-polling.js';
import type { TelegramUpdate } from './telegram-update.js';

/** The header Telegram sends with the webhook's secret token (`setWebhook`'s `secret_token`). */
export const TELEGRAM_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

/** Options of a Telegram channel (docs/channels.md, "Telegram"). */
export interface TelegramChannelOptions {
  /** The channel's name in the configuration: the webhook is `/channels/<name>/webhook`. Default `telegram`. */
  name?: string;
  /** The bot's token from @BotFather. */
  token: string;
  /**
   * The webhook's secret token (1–256 of `A-Z a-z 0-9 _ -`), given to `setWebhook` as `secret_token`:
   * Telegram sends it in every request; a request without it is refused. Required for the webhook;
   * refused with `mode: 'polling'`.
   */
  secretToken?: string;
  /**
   * `webhook` (default): Telegram posts updates to `/channels/<name>/webhook`. `polling`: the server
   * fetches them with long polling (development: no public URL needed); not both.
   */
  mode?: 'webhook' | 'polling';
  /** Polling: `getUpdates`' long-poll timeout in seconds. Default 30. */
  pollingTimeoutSeconds?: number;
  /** The Bot API's root. Default `https://api.telegram.org` (tests: a local fake). */
  apiRoot?: string;
}

/** The longest `callback_data` Telegram accepts, in bytes. */
const CALLBACK_DATA_BYTES = 64;
/** The longest caption of a document (Telegram's limit); a longer one follows the file as text. */
const CAPTION_LENGTH = 1024;

/**
 * Telegram through grammY's Bot API client: the webhook with the secret-token header, messages,
 * documents and photos from the user, options as an inline keyboard (a numbered list when they do not
 * fit), documents to the user, typing.
 */
export class TelegramChannel implements Channel {
  readonly name: string;
  readonly platform = 'telegram';
  readonly capabilities: ChannelCapabilities = {
    // callback_data is at most 64 bytes: a label of up to 64 characters whose UTF-8 fits in them.
    buttons: { max: 8, labelLength: CALLBACK_DATA_BYTES },
    textLength: 4096,
    files: { receive: true, send: true },
    typing: true,
  };
  readonly api: Api;
  /** Set in polling mode: the server starts it (`Channel.listen`). */
  readonly listen?: (handle: (messages: InboundMessage[]) => Promise<void>) => ChannelListener;
  readonly #secret: Buffer | null;
  readonly #fileRoot: string;

  constructor(options: TelegramChannelOptions) {
    this.name = options.name ?? 'telegram';
    const polling = options.mode === 'polling';
    if (options.mode !== undefined && options.mode !== 'webhook' && !polling)
      throw new TypeError(
        `Telegram channel "${this.name}": mode must be "webhook" or "polling"; got ${JSON.stringify(options.mode)}.`,
      );
    if (polling && options.secretToken !== undefined)
      throw new TypeError(
        `Telegram channel "${this.name}": mode "polling" and a webhook secretToken together — Telegram gives updates to a webhook or to polling, not both. Remove secretToken to poll (development), or remove mode to use the webhook.`,
      );
    if (!polling && !/^[A-Za-z0-9_-]{1,256}$/.test(options.secretToken ?? ''))
      throw new TypeError(
        `Telegram channel "${this.name}": secretToken must be 1–256 characters of A-Z, a-z, 0-9, "_" and "-" (Telegram's rule for setWebhook's secret_token); generate one with \`openssl rand -hex 32\`.`,
      );
    if (!/^\d+:[A-Za-z0-9_-]+$/.test(options.token ?? ''))
      throw new TypeError(
        `Telegram channel "${this.name}": token does not look like a bot token ("123456:ABC…" from @BotFather).`,
      );
    const apiRoot = (options.apiRoot ?? 'https://api.telegram.org').replace(/\/$/, '');
    this.api = new Api(options.token, { apiRoot });
    this.#secret = polling ? null : Buffer.from(options.secretToken!);
    this.#fileRoot = `${apiRoot}/file/bot${options.token}`;
    if (polling)
      this.listen = (handle) =>
        pollTelegram({
          name: this.name,
          token: options.token,
          apiRoot,
          timeoutSeconds: options.pollingTimeoutSeconds ?? 30,
          read: (update) => this.#message(update),
          handle,
        });
  }

  async receive(request: Request): Promise<ChannelRequest> {
    if (!this.#secret)
      return {
        kind: 'rejected',
        reason: 'this channel polls for updates (mode "polling"); it takes no webhook',
      };
    if (request.method !== 'POST')
      return { kind: 'rejected', reason: `Telegram posts updates; got ${request.method}` };
    const given = Buffer.from(request.headers.get(TELEGRAM_SECRET_HEADER) ?? '');
    if (given.length !== this.#secret.length || !timingSafeEqual(given, this.#secret))
      return { kind: 'rejected', reason: `missing or wrong ${TELEGRAM_SECRET_HEADER} header` };
    let update: unknown;
    try {
      update = await request.json();
    } catch {
      return malformedBody('Telegram', 'the body is not JSON', 200);
    }
    // Telegram redelivers an update until it gets a 2xx: one the channel cannot read is answered 200.
    if (!isObject(update) || typeof update.update_id !== 'number')
      return malformedBody('Telegram', 'the body is not an update with a numeric "update_id"', 200);
    const message = this.#message(update as unknown as TelegramUpdate);
    return { kind: 'messages', messages: message ? [message] : [] };
  }

  #message(update: TelegramUpdate): InboundMessage | null {
    const messageId = String(update.update_id);
    const callback = update.callback_query;
    if (callback?.message && callback.data !== undefined) {
      // Stops the button's spinner; only a courtesy.
      void this.api.answerCallbackQuery(callback.id).catch(() => {});
      return {
        messageId,
        conversation: this.#conversation(callback.message.chat.id, callback.from.id),
        text: '',
        selectedOption: callback.data,
        attachments: [],
      };
    }
    const message = update.message;
    if (!isObject(message) || !message.from || !message.chat) return null;
    const attachments: InboundAttachment[] = [];
    const media = (
      item: { file_id?: string; file_name?: string; mime_type?: string } | undefined,
      name: string,
      mimeType: string,
    ) => {
      if (item?.file_id)
        attachments.push(this.#attachment(item.file_id, item.file_name ?? name, item.mime_type ?? mimeType));
    };
    media(message.voice, `voice-${message.message_id}.ogg`, 'audio/ogg');
    media(message.audio, `audio-${message.message_id}.mp3`, 'audio/mpeg');
    media(message.video, `video-${message.message_id}.mp4`, 'video/mp4');
    const sticker = message.sticker;
    // A still sticker is a WebP image; an animated or video one is read as its emoji.
    const still = sticker && !sticker.is_animated && !sticker.is_video;
    if (still) media(sticker, `sticker-${message.message_id}.webp`, 'image/webp');
    if (message.document)
      attachments.push(
        this.#attachment(
          message.document.file_id,
          message.document.file_name ?? 'document',
          message.document.mime_type ?? 'application/octet-stream',
        ),
      );
    const photo = message.photo?.at(-1);
    if (photo)
      attachments.push(this.#attachment(photo.file_id, `photo-${message.message_id}.jpg`, 'image/jpeg'));
    const text =
      message.text ??
      message.caption ??
      placeText(message) ??
      (message.contact
        ? `(contact card: ${[message.contact.first_name, message.contact.last_name].filter(Boolean).join(' ')})`
        : null) ??
      (sticker && !still ? `(sticker${sticker.emoji ? ` ${sticker.emoji}` : ''})` : '');
    // A service message (a member joined, a pin) or one of a kind the channel does not read: no turn.
    if (!text && attachments.length === 0) return null;
    return {
      messageId,
      conversation: this.#conversation(message.chat.id, message.from.id),
      text,
      selectedOption: null,
      attachments,
    };
  }

  #conversation(chatId: number, userId: number): ChannelConversation {
    return { channel: this.name, conversationId: String(chatId), userId: String(userId) };
  }

  #attachment(fileId: string, name: string, mimeType: string): InboundAttachment {
    return {
      name,
      mimeType,
      download: async ({ maxBytes } = {}) => {
        const file = await this.api.getFile(fileId);
        const what = `Telegram file ${fileId}`;
        refuseDeclaredOver(what, maxBytes, file.file_size);
        if (!file.file_path) throw new Error(`Telegram gave no path for file ${fileId}.`);
        const response = await fetch(`${this.#fileRoot}/${file.file_path}`);
        if (!response.ok) throw new Error(`Telegram answered HTTP ${response.status} for file ${fileId}.`);
        return readBodyWithin(response, maxBytes, what);
      },
    };
  }

  async send(
    conversation: ChannelConversation,
    message: ChannelSend,
    progress?: ChannelSendProgress,
  ): Promise<void> {
    const chatId = conversation.conversationId;
    const signal = progress?.signal;
    try {
      switch (message.type) {
        case 'typing':
          await this.api.sendChatAction(chatId, 'typing', undefined, grammySignal(signal));
          return;
        case 'file': {
          // A caption within Telegram's limit rides with the document; a longer one follows it as text.
          const caption = message.caption ?? '';
          const rides = caption.length <= CAPTION_LENGTH;
          const after = rides ? [] : splitText(caption, this.capabilities.textLength);
          await sendInOrder('Telegram', [null, ...after], progress, (text, stop) =>
            text === null
              ? this.api.sendDocument(
                  chatId,
                  new InputFile(message.data, message.file.name),
                  rides && caption ? { caption } : {},
                  grammySignal(stop),
                )
              : this.api.sendMessage(chatId, text, {}, grammySignal(stop)),
          );
          return;
        }
        case 'notice':
          await sendInOrder('Telegram', [message.text], progress, (text, stop) =>
            this.api.sendMessage(chatId, text, {}, grammySignal(stop)),
          );
          return;
        case 'text': {
          const fits = message.options.every((option) => Buffer.byteLength(option) <= CALLBACK_DATA_BYTES);
          const { text, buttons } = textWithOptions(
            fits ? this.capabilities : { ...this.capabilities, buttons: null },
            message,
          );
          const pieces = splitText(text, this.capabilities.textLength);
          const keyboard = {
            reply_markup: {
              inline_keyboard: buttons.map((option) => [{ text: option, callback_data: option }]),
            },
          };
          const messages = pieces.map((piece, index) => ({
            piece,
            markup: index === pieces.length - 1 && buttons.length ? keyboard : {},
          }));
          await sendInOrder('Telegram', messages, progress, ({ piece, markup }, stop) =>
            this.api.sendMessage(chatId, piece, markup, grammySignal(stop)),
          );
          return;
        }
      }
    } catch (error) {
      throw sendError(error);
    }
  }
}

/** A shared location or venue as text the agent can read. */
function placeText(message: NonNullable<TelegramUpdate['message']>): string | null {
  const location = message.location;
  if (typeof location?.latitude !== 'number' || typeof location.longitude !== 'number') return null;
  const place = [message.venue?.title, message.venue?.address].filter(Boolean).join(', ');
  return `(location: ${location.latitude}, ${location.longitude}${place ? ` — ${place}` : ''})`;
}

/** The standard `AbortSignal` as grammY's types name it (the `abort-controller` polyfill's type; the same object at run time). */
function grammySignal(signal: AbortSignal | undefined): Parameters<Api['sendMessage']>[3] {
  return signal as Parameters<Api['sendMessage']>[3];
}

/** grammY's errors as the outbox reads them: 429 (with `retry_after`) and 5xx retried, network errors retried, the rest final. */
function sendError(error: unknown): ChannelSendError {
  if (error instanceof ChannelSendError) return error;
  if (error instanceof GrammyError)
    return ChannelSendError.ofStatus(
      'Telegram',
      error.error_code,
      error.parameters.retry_after,
      error.description,
    );
  if (error instanceof HttpError)
    return new ChannelSendError(`Telegram could not be reached: ${error.message}`, {
      retryable: true,
      cause: error,
    });
  return new ChannelSendError((error as Error)?.message ?? String(error), { retryable: true, cause: error });
}
