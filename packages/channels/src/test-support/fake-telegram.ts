import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakePlatformSend } from '@treeagent/core/conformance';

/**
 * A local fake of the Telegram Bot API on loopback (for tests, never a product path): the methods
 * the channel calls (`sendMessage`, `sendDocument`, `sendChatAction`, `getFile`,
 * `answerCallbackQuery`) and file downloads, answered as Telegram answers them; what it received is
 * kept, and the next sends of messages and documents can be made to fail with a status (429 with `retry_after`).
 */
export class FakeTelegram {
  readonly token = '123456:TEST-token_abc';
  readonly received: FakePlatformSend[] = [];
  /** Files a user "uploaded", by file id. */
  readonly files = new Map<string, { path: string; data: Uint8Array }>();
  /** The answers of the next sends: a failure, or `null` to let one through. */
  readonly #failures: ({ status: number; retryAfter?: number } | null)[] = [];
  readonly #server: Server;
  apiRoot = '';

  private constructor() {
    this.#server = createServer((request, response) => {
      this.#handle(request)
        .then(({ status, body }) => {
          if (body instanceof Uint8Array) {
            response.writeHead(status, { 'Content-Type': 'application/octet-stream' });
            response.end(body);
          } else {
            response.writeHead(status, { 'Content-Type': 'application/json' });
            response.end(JSON.stringify(body));
          }
        })
        .catch((error) => {
          response.writeHead(500, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify({ ok: false, error_code: 500, description: String(error) }));
        });
    });
  }

  static async start(): Promise<FakeTelegram> {
    const fake = new FakeTelegram();
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.apiRoot = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  failNext(status: number, retryAfter?: number): void {
    this.#failures.push({ status, ...(retryAfter === undefined ? {} : { retryAfter }) });
  }

  /** Lets `nth - 1` sends through and answers the `nth` with `status` (1: the next send). */
  failSend(nth: number, status: number): void {
    this.#failures.push(...Array.from({ length: nth - 1 }, () => null), { status });
  }

  /** A file a user sent: its id for an update. */
  upload(fileId: string, data: Uint8Array): void {
    this.files.set(fileId, { path: `documents/${fileId}.bin`, data });
  }

  /** Updates waiting for `getUpdates` (long polling), oldest first. */
  readonly #updates: Record<string, unknown>[] = [];
  #waiters: (() => void)[] = [];
  /** The webhook URL the bot has (`getWebhookInfo`); empty: none, so polling may start. */
  webhookUrl = '';
  /** The offset of the last `getUpdates`: updates below it were confirmed. */
  confirmedOffset = 0;

  /** An update for the poller (`getUpdates`), as Telegram keeps them until confirmed. */
  queueUpdate(update: Record<string, unknown>): void {
    this.#updates.push(update);
    for (const wake of this.#waiters.splice(0)) wake();
  }

  async #polling(
    method: string,
    fields: Record<string, unknown>,
  ): Promise<{ status: number; body: unknown } | null> {
    if (method === 'getMe')
      return {
        status: 200,
        body: { ok: true, result: { id: 123456, is_bot: true, first_name: 'Shop', username: 'shop_bot' } },
      };
    if (method === 'getWebhookInfo')
      return { status: 200, body: { ok: true, result: { url: this.webhookUrl, pending_update_count: 0 } } };
    if (method === 'deleteWebhook') {
      this.webhookUrl = '';
      return { status: 200, body: { ok: true, result: true } };
    }
    if (method !== 'getUpdates') return null;
    if (this.webhookUrl)
      return {
        status: 409,
        body: {
          ok: false,
          error_code: 409,
          description: "Conflict: can't use getUpdates method while webhook is active",
        },
      };
    const offset = Number(fields.offset ?? 0);
    this.confirmedOffset = Math.max(this.confirmedOffset, offset);
    const due = () => this.#updates.filter((update) => Number(update.update_id) >= offset);
    // Long polling: wait for an update up to the timeout (capped for tests).
    if (due().length === 0 && Number(fields.timeout ?? 0) > 0)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(Number(fields.timeout) * 1000, 2000));
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    const limit = Number(fields.limit ?? 100);
    return { status: 200, body: { ok: true, result: due().slice(0, limit) } };
  }

  async close(): Promise<void> {
    for (const wake of this.#waiters.splice(0)) wake();
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; body: unknown }> {
    const url = new URL(request.url ?? '/', this.apiRoot);
    const filePrefix = `/file/bot${this.token}/`;
    if (url.pathname.startsWith(filePrefix)) {
      const path = url.pathname.slice(filePrefix.length);
      const file = [...this.files.values()].find((item) => item.path === path);
      return file ? { status: 200, body: file.data } : { status: 404, body: { ok: false, error_code: 404 } };
    }
    const prefix = `/bot${this.token}/`;
    if (!url.pathname.startsWith(prefix))
      return { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } };
    const method = url.pathname.slice(prefix.length);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const contentType = request.headers['content-type'] ?? 'application/json';
    const fields: Record<string, unknown> = {};
    let document: { name: string; data: Uint8Array } | null = null;
    if (contentType.includes('json')) Object.assign(fields, body.length ? JSON.parse(body.toString()) : {});
    else {
      // grammY's multipart: the file's field says `attach://<part>`, the bytes are in that part.
      const parts = parseMultipart(body, /boundary=(.+)$/.exec(contentType)![1]!);
      for (const part of parts) if (part.filename === null) fields[part.name] = tryJson(part.data.toString());
      const attached = String(fields.document ?? '').replace('attach://', '');
      const file = parts.find((part) => part.name === attached && part.filename !== null);
      if (file) document = { name: file.filename!, data: new Uint8Array(file.data) };
    }
    if (method === 'getFile') {
      const file = this.files.get(String(fields.file_id));
      return file
        ? {
            status: 200,
            body: {
              ok: true,
              result: { file_id: fields.file_id, file_path: file.path, file_size: file.data.byteLength },
            },
          }
        : { status: 400, body: { ok: false, error_code: 400, description: 'Bad Request: file not found' } };
    }
    if (method === 'answerCallbackQuery') return { status: 200, body: { ok: true, result: true } };
    const polling = await this.#polling(method, fields);
    if (polling) return polling;
    const failure = method === 'sendChatAction' ? undefined : this.#failures.shift();
    if (failure)
      return {
        status: failure.status,
        body: {
          ok: false,
          error_code: failure.status,
          description: failure.status === 429 ? 'Too Many Requests: retry later' : `Error ${failure.status}`,
          ...(failure.retryAfter === undefined ? {} : { parameters: { retry_after: failure.retryAfter } }),
        },
      };
    const conversationId = String(fields.chat_id);
    if (method === 'sendChatAction') {
      this.received.push({ conversationId, kind: 'typing' });
      return { status: 200, body: { ok: true, result: true } };
    }
    if (method === 'sendMessage') {
      const markup = fields.reply_markup as
        | { inline_keyboard?: { text: string; callback_data: string }[][] }
        | undefined;
      const buttons = markup?.inline_keyboard?.flat().map((button) => button.text);
      this.received.push({
        conversationId,
        kind: 'text',
        text: String(fields.text),
        ...(buttons ? { buttons } : {}),
      });
      return { status: 200, body: { ok: true, result: message(conversationId, this.received.length) } };
    }
    if (method === 'sendDocument' && document) {
      const caption = fields.caption === undefined ? undefined : String(fields.caption);
      // Telegram's limit on a caption (1,024 characters).
      if (caption !== undefined && caption.length > 1024)
        return {
          status: 400,
          body: { ok: false, error_code: 400, description: 'Bad Request: message caption is too long' },
        };
      this.received.push({
        conversationId,
        kind: 'file',
        fileName: document.name,
        data: document.data,
        ...(caption === undefined ? {} : { caption }),
      });
      return { status: 200, body: { ok: true, result: message(conversationId, this.received.length) } };
    }
    return {
      status: 400,
      body: { ok: false, error_code: 400, description: `Bad Request: ${method} not faked` },
    };
  }
}

/** The parts of a multipart body (grammY writes headers without spaces and unquoted file names). */
function parseMultipart(
  body: Buffer,
  boundary: string,
): { name: string; filename: string | null; data: Buffer }[] {
  const parts: { name: string; filename: string | null; data: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next === -1) break;
    const part = body.subarray(at + delimiter.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, split).toString();
    const name = /name="?([^";\r\n]+)"?/.exec(headers)?.[1] ?? '';
    const filename = /filename="?([^";\r\n]+)"?/.exec(headers)?.[1] ?? null;
    parts.push({ name, filename, data: part.subarray(split + 4) });
    at = next;
  }
  return parts;
}

function tryJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function message(chatId: string, id: number) {
  return { message_id: id, date: 0, chat: { id: Number(chatId), type: 'private' } };
}

let updateIds = 0;

/** The webhook request Telegram sends for `update`, with the secret token (or none). */
export function telegramWebhook(update: Record<string, unknown>, secret: string | null): Request {
  return new Request('http://server/channels/telegram/webhook', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(secret ? { 'X-Telegram-Bot-Api-Secret-Token': secret } : {}),
    },
    body: JSON.stringify(update),
  });
}

/** A text message update. */
export function textUpdate(input: { updateId: number; chatId: number; userId: number; text: string }) {
  return {
    update_id: input.updateId,
    message: {
      message_id: ++updateIds,
      date: 0,
      chat: { id: input.chatId, type: 'private' },
      from: { id: input.userId, is_bot: false, first_name: 'Giulia' },
      text: input.text,
    },
  };
}

/** A button press on an inline keyboard. */
export function callbackUpdate(input: { updateId: number; chatId: number; userId: number; data: string }) {
  return {
    update_id: input.updateId,
    callback_query: {
      id: `cb-${input.updateId}`,
      from: { id: input.userId, is_bot: false, first_name: 'Giulia' },
      chat_instance: '1',
      data: input.data,
      message: { message_id: 1, date: 0, chat: { id: input.chatId, type: 'private' } },
    },
  };
}

/** A document update (the file must be `upload`ed to the fake first). */
export function documentUpdate(input: {
  updateId: number;
  chatId: number;
  userId: number;
  fileId: string;
  name: string;
  mimeType: string;
}) {
  return {
    update_id: input.updateId,
    message: {
      message_id: ++updateIds,
      date: 0,
      chat: { id: input.chatId, type: 'private' },
      from: { id: input.userId, is_bot: false, first_name: 'Giulia' },
      document: {
        file_id: input.fileId,
        file_unique_id: input.fileId,
        file_name: input.name,
        mime_type: input.mimeType,
      },
    },
  };
}
