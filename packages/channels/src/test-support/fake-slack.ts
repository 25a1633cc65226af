import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FakePlatformSend } from '@treeagent/core/conformance';
import { type FakeAnswer, type LoopbackServer, startLoopbackServer } from './loopback-server.js';

/** One call of `chat.postMessage` as the fake received it. */
export interface SlackPost {
  channel: string;
  threadTs: string | null;
  text: string;
  /** The labels and values of the option buttons in its blocks. */
  buttons: { label: string; value: string; actionId: string }[];
}

/**
 * A local fake of Slack's Web API on loopback (for tests, never a product path): `chat.postMessage`,
 * `files.getUploadURLExternal`, the upload URL and `files.completeUploadExternal` (what
 * `files.uploadV2` calls), `auth.test`, and private file downloads (bot token required), answered as
 * Slack answers; the next sends can be made to fail with an HTTP status (429 with `Retry-After`).
 */
export class FakeSlack {
  readonly botToken = 'xoxb-1111-2222-fake';
  readonly signingSecret = '8f742231b10e8888abcd99yyyzzz85a5';
  readonly received: FakePlatformSend[] = [];
  readonly posts: SlackPost[] = [];
  /** Calls of `chat.update` (the buttons of a pressed message replaced by the choice). */
  readonly updates: { channel: string; ts: string; blocks: { type: string }[] }[] = [];
  /** Files a user shared, by id. */
  readonly files = new Map<string, Uint8Array>();
  readonly #uploads = new Map<string, { name: string; data?: Uint8Array }>();
  /** The answers of the next sends: a failure, or `null` to let one through. */
  readonly #failures: ({ status: number; retryAfter?: number } | null)[] = [];
  #server!: LoopbackServer;
  origin = '';
  #ids = 0;

  private constructor() {}

  static async start(): Promise<FakeSlack> {
    const fake = new FakeSlack();
    fake.#server = await startLoopbackServer((request, body) => fake.#handle(request, body));
    fake.origin = fake.#server.origin;
    return fake;
  }

  /** The Web API root to give the channel (`apiUrl`). */
  get apiUrl(): string {
    return `${this.origin}/api/`;
  }

  failNext(status: number, retryAfter?: number): void {
    this.#failures.push({ status, ...(retryAfter === undefined ? {} : { retryAfter }) });
  }

  /** Lets `nth - 1` sends through and answers the `nth` with `status` (1: the next send). */
  failSend(nth: number, status: number): void {
    this.#failures.push(...Array.from({ length: nth - 1 }, () => null), { status });
  }

  /** A file a user shared: its entry for a `file_share` event. */
  share(id: string, name: string, mimeType: string, data: Uint8Array) {
    this.files.set(id, data);
    return { id, name, mimetype: mimeType, url_private_download: `${this.origin}/files-pri/${id}/${name}` };
  }

  close(): Promise<void> {
    return this.#server.close();
  }

  async #handle(request: IncomingMessage, body: Buffer): Promise<FakeAnswer> {
    const url = new URL(request.url ?? '/', this.origin);
    const authorized = request.headers.authorization === `Bearer ${this.botToken}`;
    if (url.pathname.startsWith('/files-pri/')) {
      const data = this.files.get(url.pathname.split('/')[2] ?? '');
      if (!authorized) return { status: 302, body: { ok: false, error: 'login page' } };
      return data ? { status: 200, body: data } : { status: 404, body: { ok: false } };
    }
    const raw = body;
    if (url.pathname.startsWith('/upload/')) {
      const id = url.pathname.slice('/upload/'.length);
      const upload = this.#uploads.get(id);
      if (!upload) return { status: 404, body: { ok: false } };
      const form = await new Request(url, {
        method: 'POST',
        headers: { 'content-type': String(request.headers['content-type']) },
        body: raw,
      }).formData();
      const part = [...form.values()].find((value) => value instanceof Blob) as Blob | undefined;
      upload.data = new Uint8Array(await (part ?? new Blob([])).arrayBuffer());
      return { status: 200, body: { ok: true } };
    }
    if (!url.pathname.startsWith('/api/')) return { status: 404, body: { ok: false } };
    if (!authorized) return { status: 200, body: { ok: false, error: 'not_authed' } };
    const method = url.pathname.slice('/api/'.length);
    const fields = Object.fromEntries(new URLSearchParams(raw.toString()));
    if (method === 'auth.test') return { status: 200, body: { ok: true, user_id: 'UBOT', bot_id: 'BBOT' } };
    if (method === 'files.getUploadURLExternal') {
      const id = `F${++this.#ids}`;
      this.#uploads.set(id, { name: fields.filename ?? 'file' });
      return { status: 200, body: { ok: true, upload_url: `${this.origin}/upload/${id}`, file_id: id } };
    }
    const failure = this.#failures.shift();
    if (failure)
      return {
        status: failure.status,
        body: { ok: false, error: failure.status === 429 ? 'ratelimited' : 'fatal_error' },
        headers: failure.retryAfter === undefined ? {} : { 'Retry-After': String(failure.retryAfter) },
      };
    if (method === 'chat.postMessage') {
      const blocks = JSON.parse(fields.blocks ?? '[]') as {
        type: string;
        elements?: { action_id: string; value: string; text: { text: string } }[];
      }[];
      const buttons = blocks
        .filter((block) => block.type === 'actions')
        .flatMap((block) => block.elements ?? [])
        .map((button) => ({ label: button.text.text, value: button.value, actionId: button.action_id }));
      const post: SlackPost = {
        channel: String(fields.channel),
        threadTs: fields.thread_ts ?? null,
        text: String(fields.text ?? ''),
        buttons,
      };
      this.posts.push(post);
      this.received.push({
        conversationId: post.channel,
        kind: 'text',
        text: post.text,
        ...(buttons.length ? { buttons: buttons.map((button) => button.label) } : {}),
      });
      return { status: 200, body: { ok: true, channel: post.channel, ts: `${Date.now() / 1000}` } };
    }
    if (method === 'chat.update') {
      this.updates.push({
        channel: String(fields.channel),
        ts: String(fields.ts),
        blocks: JSON.parse(fields.blocks ?? '[]') as { type: string }[],
      });
      return { status: 200, body: { ok: true, channel: fields.channel, ts: fields.ts } };
    }
    if (method === 'files.completeUploadExternal') {
      const files = JSON.parse(fields.files ?? '[]') as { id: string; title?: string }[];
      for (const file of files) {
        const upload = this.#uploads.get(file.id);
        if (!upload?.data) return { status: 200, body: { ok: false, error: 'file_not_found' } };
        this.received.push({
          conversationId: String(fields.channel_id),
          kind: 'file',
          fileName: upload.name,
          data: upload.data,
        });
        this.posts.push({
          channel: String(fields.channel_id),
          threadTs: fields.thread_ts ?? null,
          text: `[file ${upload.name}]`,
          buttons: [],
        });
      }
      return { status: 200, body: { ok: true, files: files.map((file) => ({ id: file.id })) } };
    }
    return { status: 200, body: { ok: false, error: 'unknown_method' } };
  }
}

/** Signs a request body as Slack does: `v0=` HMAC-SHA256 of `v0:<timestamp>:<body>` under the signing secret. */
export function signSlack(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** A request as Slack sends it to the webhook: signed (or not), JSON or the interactivity form. */
export function slackRequest(
  body: string,
  options: {
    secret: string | null;
    form?: boolean;
    timestamp?: number;
    retryNum?: number;
    path?: string;
  },
): Request {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return new Request(`http://server${options.path ?? '/channels/slack/webhook'}`, {
    method: 'POST',
    headers: {
      'Content-Type': options.form ? 'application/x-www-form-urlencoded' : 'application/json',
      'X-Slack-Request-Timestamp': String(timestamp),
      ...(options.secret ? { 'X-Slack-Signature': signSlack(options.secret, timestamp, body) } : {}),
      ...(options.retryNum
        ? { 'X-Slack-Retry-Num': String(options.retryNum), 'X-Slack-Retry-Reason': 'http_timeout' }
        : {}),
    },
    body,
  });
}

/** An Events API callback around `event`. */
export function eventBody(
  event: Record<string, unknown>,
  eventId = `Ev${Math.random().toString(36).slice(2)}`,
): string {
  return JSON.stringify({
    token: 'deprecated-verification-token',
    team_id: 'T0001',
    api_app_id: 'A0001',
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: 'T0001', user_id: 'UBOT', is_bot: true }],
    event,
  });
}

/** A direct message to the app (`message.im`). */
export function directMessage(input: {
  channel: string;
  user: string;
  text: string;
  ts: string;
  files?: unknown[];
}) {
  return {
    type: 'message',
    channel: input.channel,
    channel_type: 'im',
    user: input.user,
    text: input.text,
    ts: input.ts,
    ...(input.files ? { subtype: 'file_share', files: input.files } : {}),
  };
}

/** A mention of the app in a channel (`app_mention`), in a thread when `threadTs` is given. */
export function appMention(input: {
  channel: string;
  user: string;
  text: string;
  ts: string;
  threadTs?: string;
}) {
  return {
    type: 'app_mention',
    channel: input.channel,
    user: input.user,
    text: `<@UBOT> ${input.text}`,
    ts: input.ts,
    ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
  };
}

/** The interactivity form body of a press on a button the app posted. */
export function buttonPress(input: {
  channel: string;
  user: string;
  value: string;
  actionTs: string;
  messageTs?: string;
  threadTs?: string | null;
}): string {
  const payload = {
    type: 'block_actions',
    user: { id: input.user, team_id: 'T0001' },
    api_app_id: 'A0001',
    channel: { id: input.channel, name: input.channel.startsWith('D') ? 'directmessage' : 'support' },
    container: { type: 'message', message_ts: input.messageTs ?? '1.0', channel_id: input.channel },
    message: {
      ts: input.messageTs ?? '1.0',
      text: 'Hi! How can I help?',
      ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
    },
    actions: [
      {
        type: 'button',
        block_id: 'treeagent-options',
        action_id: 'treeagent-option-0',
        value: input.value,
        text: { type: 'plain_text', text: input.value },
        action_ts: input.actionTs,
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}
