import {
  type Channel,
  type ChannelCapabilities,
  type ChannelConversation,
  type ChannelRequest,
  type ChannelSend,
  ChannelSendError,
  type ChannelSendProgress,
  type InboundAttachment,
  type InboundMessage,
  splitText,
  textWithOptions,
} from '@treeagent/core/adapter';
import { isObject, malformedBody } from '../malformed-body.js';
import { sendInOrder } from '../send-in-order.js';
import { GraphApiClient } from './graph-api-client.js';
import { type MetaWebhookSecrets, readMetaWebhook, requireMetaOptions } from './meta-webhook.js';

/** Options of a Messenger or Instagram channel (docs/channels.md, "Messenger and Instagram"). */
export interface MessengerChannelOptions extends MetaWebhookSecrets {
  /** The channel's name in the configuration. Default `messenger` or `instagram`. */
  name?: string;
  /**
   * The Page access token (Messenger: the Page's; Instagram: the token of the Facebook Page linked
   * to the Instagram professional account), with `pages_messaging` / `instagram_manage_messages`.
   */
  pageAccessToken: string;
  /** The Graph API root. Default `https://graph.facebook.com` (tests: a local fake). */
  graphRoot?: string;
  /** Default `v21.0`. */
  graphVersion?: string;
  /** The clock of the 24-hour window (tests). Default: the system clock. */
  now?: () => Date;
}

/** The longest text of a button template (the message that carries up to 3 postback buttons). */
const BUTTON_TEMPLATE_TEXT_LENGTH = 640;

/** The standard messaging window: 24 hours after the user's last message. */
const STANDARD_WINDOW_MS = 24 * 60 * 60 * 1000;
/** The HUMAN_AGENT tag's window: a person may answer for 7 days after the user's last message. */
const HUMAN_AGENT_WINDOW_MS = 7 * STANDARD_WINDOW_MS;

/** How a message goes out: a response in the 24-hour window, or a person's, tagged HUMAN_AGENT, after it. */
type Messaging = { messaging_type: 'RESPONSE' } | { messaging_type: 'MESSAGE_TAG'; tag: 'HUMAN_AGENT' };

/** One event of Messenger's `messaging` array (Instagram's has the same shape). */
interface MessagingEvent {
  sender?: { id: string };
  timestamp?: number;
  message?: {
    mid: string;
    text?: string;
    is_echo?: boolean;
    quick_reply?: { payload: string };
    attachments?: { type: string; payload?: { url?: string } }[];
  };
  postback?: { mid?: string; title?: string; payload: string };
}

/** What sets Messenger and Instagram apart on the one Send API. */
export interface MessengerPlatform {
  /** `messenger` or `instagram`. */
  platform: string;
  /** The name in errors and docs. */
  label: string;
  /** The webhook's `object`. */
  object: string;
  capabilities: ChannelCapabilities;
  /** Whether up to 3 short options go out as a button template (postback buttons) rather than quick replies. */
  buttonTemplate: boolean;
}

/** File types the platforms give no MIME type for: read from the name in the attachment's URL. */
const MIME_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  csv: 'text/csv',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  mp4: 'video/mp4',
  mp3: 'audio/mpeg',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
const DEFAULT_MIME: Record<string, string> = { image: 'image/jpeg', video: 'video/mp4', audio: 'audio/mpeg' };

/**
 * Messenger and Instagram through the Messenger Platform's Send API and Meta's webhook (shared with
 * WhatsApp: the verify-token handshake, `X-Hub-Signature-256`, one Graph API client): text, quick
 * replies and postbacks read as the chosen option, attachments from the user; options as postback
 * buttons (Messenger, up to 3) or quick replies (up to 13, 20 characters), a numbered list beyond;
 * files to the user (Messenger); `mark_seen` and `typing_on` when a message is being answered.
 */
export class MessengerPlatformChannel implements Channel {
  readonly name: string;
  readonly platform: string;
  readonly capabilities: ChannelCapabilities;
  readonly #options: MessengerChannelOptions;
  readonly #kind: MessengerPlatform;
  readonly #graph: GraphApiClient;
  readonly #now: () => Date;

  constructor(kind: MessengerPlatform, options: MessengerChannelOptions) {
    this.name = options.name ?? kind.platform;
    this.platform = kind.platform;
    this.capabilities = kind.capabilities;
    requireMetaOptions(kind.label, this.name, { ...options }, [
      'pageAccessToken',
      'appSecret',
      'verifyToken',
    ]);
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.#kind = kind;
    this.#graph = new GraphApiClient({
      platform: kind.label,
      accessToken: options.pageAccessToken,
      ...(options.graphRoot ? { root: options.graphRoot } : {}),
      ...(options.graphVersion ? { version: options.graphVersion } : {}),
    });
  }

  async receive(request: Request): Promise<ChannelRequest> {
    const read = await readMetaWebhook(request, this.#options);
    if (read.kind !== 'payload') return read;
    // Meta redelivers a webhook until it gets a 200: a body the channel cannot read is answered 200.
    if (!isObject(read.payload) || !Array.isArray(read.payload.entry ?? []))
      return malformedBody(this.#kind.label, 'the body is not an object with an "entry" array', 200);
    const payload = read.payload as { object?: string; entry?: { messaging?: MessagingEvent[] }[] };
    if (payload.object !== this.#kind.object)
      return {
        kind: 'rejected',
        reason: `a webhook of "${payload.object}" reached the ${this.#kind.label} channel; subscribe this URL to the ${this.#kind.object} object only`,
      };
    const messages = (payload.entry ?? [])
      .flatMap((entry) => (isObject(entry) && Array.isArray(entry.messaging) ? entry.messaging : []))
      .map((event) => (isObject(event) ? this.#message(event) : null))
      .filter((message): message is InboundMessage => message !== null);
    return { kind: 'messages', messages };
  }

  #message(event: MessagingEvent): InboundMessage | null {
    const sender = event.sender?.id;
    if (!sender) return null;
    // The time of the user's last message rides with the conversation: the messaging windows.
    const at = event.timestamp ? new Date(event.timestamp) : this.#now();
    const conversation: ChannelConversation = {
      channel: this.name,
      conversationId: sender,
      userId: sender,
      reply: { lastUserMessageAt: at.toISOString() },
    };
    if (event.postback)
      return {
        messageId: event.postback.mid ?? `postback:${sender}:${event.timestamp ?? ''}`,
        conversation,
        text: event.postback.title ?? event.postback.payload,
        selectedOption: event.postback.payload,
        attachments: [],
      };
    const message = event.message;
    // Echoes are the page's own messages; reads and deliveries carry no message.
    if (!message || message.is_echo) return null;
    return {
      messageId: message.mid,
      conversation,
      text: message.text ?? '',
      selectedOption: message.quick_reply?.payload ?? null,
      attachments: (message.attachments ?? []).flatMap((attachment, index) =>
        attachment.payload?.url ? [this.#attachment(attachment.type, attachment.payload.url, index)] : [],
      ),
    };
  }

  #attachment(type: string, url: string, index: number): InboundAttachment {
    const last = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    const extension = /\.([A-Za-z0-9]{1,5})$/.exec(last)?.[1]?.toLowerCase();
    const name = extension ? last : `${type}-${index + 1}`;
    return {
      name,
      mimeType: (extension && MIME_TYPES[extension]) || DEFAULT_MIME[type] || 'application/octet-stream',
      download: ({ maxBytes } = {}) => this.#graph.download(url, `the ${type} attachment`, maxBytes),
    };
  }

  /**
   * How a message may go out now. In the 24 hours after the user's last message: a response. After
   * them only a person may write — an operator's reply, file or handoff notice, the only messages
   * sent then (the agent answers within seconds of a message) — with the HUMAN_AGENT tag, for 7
   * days; after those, nothing (`null`). Unknown (a conversation recorded before the time was
   * kept): a response, as before.
   */
  #messaging(conversation: ChannelConversation): Messaging | null {
    const last = Date.parse(conversation.reply?.lastUserMessageAt ?? '');
    const elapsed = this.#now().getTime() - last;
    if (Number.isNaN(elapsed) || elapsed < STANDARD_WINDOW_MS) return { messaging_type: 'RESPONSE' };
    if (elapsed < HUMAN_AGENT_WINDOW_MS) return { messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' };
    return null;
  }

  async send(
    conversation: ChannelConversation,
    message: ChannelSend,
    progress?: ChannelSendProgress,
  ): Promise<void> {
    const recipient = { id: conversation.conversationId };
    const messaging = this.#messaging(conversation);
    const signal = progress?.signal;
    // Seen and typing are hints the platform takes in the 24-hour window only; never tagged.
    if (message.type === 'typing' && messaging?.messaging_type !== 'RESPONSE') return;
    if (!messaging)
      throw new ChannelSendError(
        `the user last wrote on ${this.#kind.label} more than 7 days ago: after 24 hours only a person may write, with the HUMAN_AGENT tag, and only for 7 days after the user's last message; this message cannot be sent until the user writes again`,
        { retryable: false },
      );
    const post = (body: Record<string, unknown> | FormData, stop: AbortSignal | undefined) =>
      this.#graph.call('POST', '/me/messages', body, stop);
    switch (message.type) {
      case 'typing':
        // Seen, then "typing…": the user knows the message arrived and an answer is coming.
        await post({ recipient, sender_action: 'mark_seen' }, signal);
        await post({ recipient, sender_action: 'typing_on' }, signal);
        return;
      case 'file': {
        // The file, then its caption in as many messages as its length needs.
        const caption = message.caption ? this.#texts(message.caption, []) : [];
        let file: () => Record<string, unknown> | FormData;
        if (!this.capabilities.files.send) {
          // Instagram takes a file to send only by a public URL: one the file has, or none.
          const url = publicUrlOf(message.file.url);
          if (!url)
            throw new ChannelSendError(
              `${this.#kind.label} takes files to send only by a public URL, and file "${message.file.name}" has none (the server does not publish session files): send a link in the text instead`,
              { retryable: false },
            );
          const content = { attachment: { type: attachmentType(message.file.mimeType), payload: { url } } };
          file = () => ({ recipient, ...messaging, message: content });
        } else
          file = () => {
            const form = new FormData();
            const type = message.file.mimeType.startsWith('image/') ? 'image' : 'file';
            form.set('recipient', JSON.stringify(recipient));
            for (const [key, value] of Object.entries(messaging)) form.set(key, value);
            form.set('message', JSON.stringify({ attachment: { type, payload: { is_reusable: false } } }));
            form.set(
              'filedata',
              new Blob([message.data], { type: message.file.mimeType }),
              message.file.name,
            );
            return form;
          };
        const bodies = [
          file,
          ...caption.map((content) => () => ({ recipient, ...messaging, message: content })),
        ];
        await sendInOrder(this.#kind.label, bodies, progress, (body, stop) => post(body(), stop));
        return;
      }
      case 'notice':
      case 'text': {
        const { text, buttons } = textWithOptions(this.capabilities, message);
        const contents = this.#texts(text, buttons);
        await sendInOrder(this.#kind.label, contents, progress, (content, stop) =>
          post({ recipient, ...messaging, message: content }, stop),
        );
      }
    }
  }

  /** A text as the contents of as many messages as its length needs; the options go with the last. */
  #texts(text: string, buttons: string[]): Record<string, unknown>[] {
    const template = this.#kind.buttonTemplate && buttons.length > 0 && buttons.length <= 3;
    // Only the last message carries the options, and only a button template's text is held to 640.
    const pieces = splitText(
      text || ' ',
      this.capabilities.textLength,
      template ? BUTTON_TEMPLATE_TEXT_LENGTH : this.capabilities.textLength,
    );
    return pieces.map((piece, index) => {
      if (index < pieces.length - 1 || buttons.length === 0) return { text: piece };
      if (template)
        return {
          attachment: {
            type: 'template',
            payload: {
              template_type: 'button',
              text: piece,
              buttons: buttons.map((title) => ({ type: 'postback', title, payload: title })),
            },
          },
        };
      return {
        text: piece,
        quick_replies: buttons.map((title) => ({ content_type: 'text', title, payload: title })),
      };
    });
  }
}

/** `url` when it is an absolute https URL anyone can fetch (not one of the server's own session paths). */
function publicUrlOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/** The Send API's attachment type of a MIME type. */
function attachmentType(mimeType: string): 'image' | 'video' | 'audio' | 'file' {
  const kind = mimeType.split('/')[0];
  return kind === 'image' || kind === 'video' || kind === 'audio' ? kind : 'file';
}
