import type { ChannelConversation, ChannelPayload } from '../protocol/channel.js';
import type { FileMetadata } from '../protocol/file-metadata.js';

/** What a platform can show, declared by its channel (never guessed by the server). */
export interface ChannelCapabilities {
  /** Native buttons for options: how many per message and the longest label; `null`: a numbered text list. */
  buttons: { max: number; labelLength: number } | null;
  /** Longest text of one message (longer texts are cut into several messages). */
  textLength: number;
  /** Whether the platform takes files from the user and from the agent. */
  files: { receive: boolean; send: boolean };
  /** Whether a "typing…" indicator can be shown. */
  typing: boolean;
}

/** A file the user sent, fetched from the platform when the server stores it. */
export interface InboundAttachment {
  name: string;
  mimeType: string;
  /**
   * The file's bytes. With `maxBytes`, a file the platform declares larger (its API, or the answer's
   * `Content-Length`) is not fetched, and the reading stops as soon as more arrives: both throw
   * `AttachmentTooLargeError` (`readBodyWithin` does it for an HTTP answer).
   */
  download(options?: AttachmentDownloadOptions): Promise<Uint8Array>;
}

/** How much of a user's file the server takes (`InboundAttachment.download`). */
export interface AttachmentDownloadOptions {
  /** Most bytes the server will store; past it the download stops with `AttachmentTooLargeError`. */
  maxBytes?: number;
}

/** A user's file larger than the server takes: not downloaded, or not read past `maxBytes`. */
export class AttachmentTooLargeError extends Error {
  readonly maxBytes: number;
  /** The size the platform declared, or `null` when the reading was stopped past `maxBytes`. */
  readonly bytes: number | null;

  constructor(what: string, maxBytes: number, bytes: number | null = null) {
    super(
      bytes === null
        ? `${what} is over ${maxBytes} bytes: the download was stopped`
        : `${what} is ${bytes} bytes, over ${maxBytes}: it was not downloaded`,
    );
    this.name = 'AttachmentTooLargeError';
    this.maxBytes = maxBytes;
    this.bytes = bytes;
  }
}

/**
 * Throws `AttachmentTooLargeError` when the size a platform declared for a file (`declared`, any
 * type: a platform's field may be missing or not a number) is over `maxBytes` — checked before the
 * file is fetched. No limit when `maxBytes` is undefined.
 */
export function refuseDeclaredOver(what: string, maxBytes: number | undefined, declared: unknown): void {
  if (maxBytes === undefined) return;
  const bytes = typeof declared === 'string' && declared.trim() !== '' ? Number(declared) : declared;
  if (typeof bytes === 'number' && Number.isFinite(bytes) && bytes > maxBytes)
    throw new AttachmentTooLargeError(what, maxBytes, bytes);
}

/**
 * The body of a platform's HTTP answer, read to at most `maxBytes` (no limit when it is undefined):
 * an answer whose `Content-Length` is over it is cancelled unread, and one that sends more than it
 * is cancelled there, so a large file never sits whole in memory. Throws `AttachmentTooLargeError`.
 */
export async function readBodyWithin(
  response: Response,
  maxBytes: number | undefined,
  what: string,
): Promise<Uint8Array> {
  if (maxBytes === undefined) return new Uint8Array(await response.arrayBuffer());
  try {
    refuseDeclaredOver(what, maxBytes, response.headers.get('content-length'));
  } catch (error) {
    await response.body?.cancel().catch(() => {});
    throw error;
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new AttachmentTooLargeError(what, maxBytes);
    }
    parts.push(value);
  }
  const data = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    data.set(part, offset);
    offset += part.byteLength;
  }
  return data;
}

/** What the server lends a channel while it reads a request. */
export interface ChannelReceiveContext {
  /** The bytes of a file in the server's file store, by id (a file the channel offered the user earlier). */
  readFile(fileId: string): Promise<Uint8Array>;
}

/** One message of a user, read from a verified webhook request. */
export interface InboundMessage {
  /** The platform's id of the update: the same on every redelivery (the exactly-once receipt). */
  messageId: string;
  conversation: ChannelConversation;
  text: string;
  /** The option the user chose with a button, or `null`. */
  selectedOption: string | null;
  attachments: InboundAttachment[];
}

/** What a webhook request was. */
export type ChannelRequest =
  /** Not from the platform (bad or missing signature or secret): answered 401, nothing stored. */
  | { kind: 'rejected'; reason: string }
  /** A handshake or a ping the channel answers itself (Meta's verify token): nothing to run. */
  | { kind: 'answer'; response: Response }
  /** Verified: the user messages it carries (none for a status update). */
  | {
      kind: 'messages';
      messages: InboundMessage[];
      /**
       * Answer the platform with this as soon as the messages are in the server's inbox, and run the
       * turns after (a platform that wants its acknowledgement within seconds, like Slack's 3).
       * Without it the server answers 200 once their turns ran (or after the inbox's `waitMs`). Either
       * way a message is answered only once it is stored, so an acknowledged message is never lost.
       */
      acknowledgeWith?: Response;
      /**
       * Messages the platform took earlier and now reports it could not deliver (WhatsApp's `failed`
       * statuses): the server logs and counts them (`treeagent_channel_undelivered_total`).
       */
      deliveryFailures?: ChannelDeliveryFailure[];
    };

/** A message the platform took, then reported it could not deliver; without personal data. */
export interface ChannelDeliveryFailure {
  /** A hash of the platform's message id (the same for the same message). */
  messageId: string;
  /** A hash of the recipient (a phone number, a user id). */
  recipient: string;
  /** The platform's error code (WhatsApp's 131047: the 24-hour window had closed), or `null`. */
  code: number | null;
  /** The platform's error title. */
  title: string;
}

/** What `Channel.send` gets: the outbox's payload, with a file's bytes read from the file store. */
export type ChannelSend =
  | Exclude<ChannelPayload, { type: 'file' }>
  | { type: 'file'; file: FileMetadata; data: Uint8Array; caption?: string | null }
  | { type: 'typing' };

/**
 * How far one send has gone, for a send the channel makes in several platform messages (a text
 * longer than one message, a caption after its file). The server keeps it across the attempts of one
 * outbox message, so a retry after a failure or a timeout sends only what the platform did not take.
 */
export interface ChannelSendProgress {
  /** Platform messages an earlier attempt of this send delivered, from the first: do not send them again. */
  readonly skip: number;
  /** Tell after each platform message the platform took: `count` delivered so far, from the first (skipped ones included). */
  sent(count: number): void;
  /** Aborted when the server stops waiting (no progress within its timeout, or shutdown): send nothing more. */
  readonly signal: AbortSignal;
}

/**
 * A messaging platform on the server's channel seam (docs/channels.md). A channel verifies and reads
 * the platform's webhook requests and sends on the platform; the server does the rest (sessions,
 * exactly once, the outbox, retries, rate limits, handoff). Every channel runs `describeChannel`
 * (`@treeagent/core/conformance`).
 */
export interface Channel {
  /** The name in the configuration; the webhook is `/channels/<name>/webhook`. */
  readonly name: string;
  /** The platform (`telegram`, `meta`, `slack`, `teams`, …). */
  readonly platform: string;
  readonly capabilities: ChannelCapabilities;
  /**
   * Verifies a webhook request (signature, secret token) from its raw body and reads it. Never
   * throws for a request that is not the platform's: returns `rejected`. `context` is what the
   * server lends a channel that finishes a send inside a request (Teams' file consent).
   */
  receive(request: Request, context?: ChannelReceiveContext): Promise<ChannelRequest>;
  /**
   * Sends one thing to a conversation; resolves when the platform accepted it. A failure throws a
   * `ChannelSendError` that says whether to retry and when. A send made of several platform messages
   * skips the `progress.skip` first ones and reports each one the platform took (`progress.sent`),
   * so a retry never repeats them; without `progress` it sends them all.
   */
  send(
    conversation: ChannelConversation,
    message: ChannelSend,
    progress?: ChannelSendProgress,
  ): Promise<void>;
  /**
   * For a channel that fetches its updates itself instead of receiving webhooks (Telegram's long
   * polling, for development): the server calls it once at start. `handle` runs the verified messages'
   * turns and throws when it could not (the channel then offers them again, never skips them).
   * `stopped` settles when the channel stops, rejected with the reason when it could not start;
   * `stop` ends it (shutdown).
   */
  listen?(handle: (messages: InboundMessage[]) => Promise<void>): ChannelListener;
}

/** A channel fetching its own updates (`Channel.listen`). */
export interface ChannelListener {
  /** Settles when the channel stops; rejected with the reason when it could not start or went wrong. */
  stopped: Promise<void>;
  /** Stops fetching; resolves when the update in hand ran and the platform was told. */
  stop(): Promise<void>;
}

/** A send the platform refused: retried (`retryable`, after `retryAfterMs` when the platform said) or dead-lettered. */
export class ChannelSendError extends Error {
  readonly retryable: boolean;
  readonly retryAfterMs: number | null;
  readonly status: number | null;

  constructor(
    message: string,
    options: { retryable: boolean; retryAfterMs?: number | null; status?: number | null; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ChannelSendError';
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs ?? null;
    this.status = options.status ?? null;
  }

  /** The error of an HTTP answer: 429 and 5xx are retried (429 after its `Retry-After`), other statuses are final. */
  static ofStatus(
    platform: string,
    status: number,
    retryAfter: string | number | null | undefined,
    detail = '',
  ): ChannelSendError {
    const seconds = retryAfter === null || retryAfter === undefined ? Number.NaN : Number(retryAfter);
    return new ChannelSendError(`${platform} answered HTTP ${status}${detail ? `: ${detail}` : ''}`, {
      retryable: status === 429 || status >= 500,
      retryAfterMs: Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null,
      status,
    });
  }
}

/**
 * Options as the channel can show them: native buttons when they fit the platform's limits,
 * otherwise the text with a numbered list appended (the user answers with the number or the text).
 */
export function optionsFor(
  capabilities: ChannelCapabilities,
  text: string,
  options: readonly string[],
): { text: string; buttons: string[] } {
  if (options.length === 0) return { text, buttons: [] };
  const limits = capabilities.buttons;
  if (
    limits &&
    options.length <= limits.max &&
    options.every((option) => option.length <= limits.labelLength)
  )
    return { text, buttons: [...options] };
  const list = options.map((option, index) => `${index + 1}. ${option}`).join('\n');
  return { text: text ? `${text}\n\n${list}` : list, buttons: [] };
}

/**
 * A text or a notice as the user reads it on a platform: an operator's text after their name
 * ("Anna: …"), and its options as `optionsFor` shows them (buttons, or a numbered list).
 */
export function textWithOptions(
  capabilities: ChannelCapabilities,
  message: Extract<ChannelSend, { type: 'text' | 'notice' }>,
): { text: string; buttons: string[] } {
  const body =
    message.type === 'text' && message.operatorName
      ? `${message.operatorName}: ${message.text}`
      : message.text;
  return optionsFor(capabilities, body, message.type === 'text' ? message.options : []);
}

/** The chosen option of a text answer to a numbered list ("2" → the second option), else `null`. */
export function optionOfAnswer(text: string, options: readonly string[]): string | null {
  const trimmed = text.trim();
  if (/^\d{1,2}$/.test(trimmed)) return options[Number(trimmed) - 1] ?? null;
  return options.find((option) => option.toLowerCase() === trimmed.toLowerCase()) ?? null;
}

/**
 * Cuts a text into pieces of at most `length` characters (UTF-16 code units, as platforms count), at a
 * line or word break where there is one, never inside a character (an emoji's surrogate pair). The
 * last piece holds at most `lastLength` (the shorter limit of a message that carries buttons); the
 * pieces before it use the full `length`.
 */
export function splitText(text: string, length: number, lastLength = length): string[] {
  const pieces = cutText(text, length);
  const last = pieces.pop()!;
  return last.length > lastLength ? [...pieces, ...cutText(last, lastLength)] : [...pieces, last];
}

function cutText(text: string, length: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > length) {
    let cut = rest.lastIndexOf('\n', length);
    if (cut < length / 2) cut = rest.lastIndexOf(' ', length);
    if (cut < length / 2) {
      cut = length;
      // Not between the two halves of a surrogate pair: the character goes whole to the next piece.
      const code = rest.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
    }
    pieces.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest || pieces.length === 0) pieces.push(rest);
  return pieces;
}
