import type { ChannelConversation } from '@treeagent/core/adapter';
import {
  type Channel,
  type ChannelCapabilities,
  type ChannelDeliveryFailure,
  type ChannelRequest,
  type ChannelSend,
  ChannelSendError,
  type ChannelSendProgress,
  type InboundAttachment,
  type InboundMessage,
  refuseDeclaredOver,
  splitText,
  textWithOptions,
} from '@treeagent/core/adapter';
import { isObject, malformedBody } from '../malformed-body.js';
import { receiptId } from '../receipt-id.js';
import { sendInOrder, throwIfStopped } from '../send-in-order.js';
import { GraphApiClient } from './graph-api-client.js';
import { type MetaWebhookSecrets, readMetaWebhook, requireMetaOptions } from './meta-webhook.js';

/** A template approved in WhatsApp Manager, sent when the 24-hour customer-service window is closed. */
export interface WhatsAppTemplate {
  name: string;
  /** Its language code, e.g. `it` or `en_US`. */
  language: string;
}

/** Options of a WhatsApp Cloud API channel (docs/channels.md, "WhatsApp"). */
export interface WhatsAppChannelOptions extends MetaWebhookSecrets {
  /** Default `whatsapp`. */
  name?: string;
  /** The business phone number's id (WhatsApp Manager → API setup). */
  phoneNumberId: string;
  /** A system user's access token with `whatsapp_business_messaging`. */
  accessToken: string;
  /**
   * Sent when the user last wrote more than 24 hours ago (only approved templates may be sent then),
   * once, for the first message since then: it invites the user back. The messages themselves are
   * dead-lettered with an error that says they wait for the user's answer (an admin retries them).
   * Without it such a message is dead-lettered with an error that says to configure one.
   */
  template?: WhatsAppTemplate;
  /** The label of the button that opens the list of options (4–10 options, or longer labels). Default `Options`; at most 20 characters. */
  listButton?: string;
  /** The Graph API root. Default `https://graph.facebook.com` (tests: a local fake). */
  graphRoot?: string;
  /** Default `v21.0`. */
  graphVersion?: string;
  /**
   * Told of each message WhatsApp reports it could not deliver (a `failed` status in the webhook),
   * without personal data. The server is told of them anyway (`ChannelRequest.deliveryFailures`: it
   * logs them and counts them in `treeagent_channel_undelivered_total`).
   */
  onDeliveryFailure?: (failure: WhatsAppDeliveryFailure) => void;
  /** The clock (tests). */
  now?: () => Date;
}

/** WhatsApp's customer-service window. */
const WINDOW_MS = 24 * 60 * 60 * 1000;
/** The longest body of an interactive message (the one with the reply buttons or the list). */
const INTERACTIVE_BODY_LENGTH = 1024;
/** The longest caption of a document (WhatsApp's limit); a longer one follows the file as text. */
const CAPTION_LENGTH = 1024;
/** The longest label of a list message's button (WhatsApp's limit). */
const LIST_BUTTON_LENGTH = 20;
/** Conversations remembered as invited back by the template (the newest ones). */
const INVITED_KEPT = 10_000;

interface WhatsAppMessage {
  from: string;
  id: string;
  timestamp?: string;
  type: string;
  text?: { body: string };
  interactive?: { button_reply?: { id: string; title: string }; list_reply?: { id: string; title: string } };
  button?: { payload?: string; text: string };
  document?: { id: string; mime_type?: string; filename?: string; caption?: string };
  image?: { id: string; mime_type?: string; caption?: string };
  video?: { id: string; mime_type?: string; caption?: string };
  audio?: { id: string; mime_type?: string; voice?: boolean };
  sticker?: { id: string; mime_type?: string };
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: { name?: { formatted_name?: string } }[];
}

/** A message WhatsApp reported it could not deliver, without personal data (`onDeliveryFailure`). */
export type WhatsAppDeliveryFailure = ChannelDeliveryFailure;

/** A shared location as text the agent can read. */
function placeText(location: WhatsAppMessage['location']): string | null {
  if (typeof location?.latitude !== 'number' || typeof location.longitude !== 'number') return null;
  const place = [location.name, location.address].filter(Boolean).join(', ');
  return `(location: ${location.latitude}, ${location.longitude}${place ? ` — ${place}` : ''})`;
}

/** Shared contact cards as text: their names only. */
function contactsText(contacts: NonNullable<WhatsAppMessage['contacts']>): string {
  const names = contacts.map((contact) => contact.name?.formatted_name).filter(Boolean);
  return `(contact card${names.length === 1 ? '' : 's'}${names.length ? `: ${names.join(', ')}` : ''})`;
}

/**
 * WhatsApp through Meta's Cloud API (Meta's webhook: the verify-token handshake, `X-Hub-Signature-256`):
 * text, replies to buttons and lists, documents and images from the user; options as reply buttons
 * (up to 3, 20 characters) or a list (up to 10, 24 characters), a numbered list beyond; documents to
 * the user; and the 24-hour window: outside it a configured template is sent, else the message fails
 * with an error that says what to configure.
 */
export class WhatsAppChannel implements Channel {
  readonly name: string;
  readonly platform = 'whatsapp';
  readonly capabilities: ChannelCapabilities = {
    buttons: { max: 10, labelLength: 24 },
    textLength: 4096,
    files: { receive: true, send: true },
    typing: true,
  };
  readonly #options: WhatsAppChannelOptions;
  readonly #graph: GraphApiClient;
  readonly #now: () => Date;
  readonly #listButton: string;
  /** The conversations the template was sent to, with the time of the user's last message then. */
  readonly #invited = new Map<string, string>();

  constructor(options: WhatsAppChannelOptions) {
    this.name = options.name ?? 'whatsapp';
    requireMetaOptions('WhatsApp', this.name, { ...options }, [
      'phoneNumberId',
      'accessToken',
      'appSecret',
      'verifyToken',
    ]);
    this.#listButton = options.listButton ?? 'Options';
    if (!this.#listButton.trim() || this.#listButton.length > LIST_BUTTON_LENGTH)
      throw new TypeError(
        `WhatsApp channel "${this.name}": listButton must be 1–${LIST_BUTTON_LENGTH} characters (WhatsApp's limit for the list button's label); got ${JSON.stringify(this.#listButton)}.`,
      );
    this.#options = options;
    this.#graph = new GraphApiClient({
      platform: 'WhatsApp',
      accessToken: options.accessToken,
      ...(options.graphRoot ? { root: options.graphRoot } : {}),
      ...(options.graphVersion ? { version: options.graphVersion } : {}),
    });
    this.#now = options.now ?? (() => new Date());
  }

  async receive(request: Request): Promise<ChannelRequest> {
    const read = await readMetaWebhook(request, this.#options);
    if (read.kind !== 'payload') return read;
    // Meta redelivers a webhook until it gets a 200: a body the channel cannot read is answered 200.
    const payload = read.payload;
    if (!isObject(payload) || !Array.isArray(payload.entry ?? []))
      return malformedBody('WhatsApp', 'the body is not an object with an "entry" array', 200);
    const messages: InboundMessage[] = [];
    const deliveryFailures: ChannelDeliveryFailure[] = [];
    for (const entry of (payload.entry ?? []) as unknown[]) {
      const changes = isObject(entry) && Array.isArray(entry.changes) ? (entry.changes as unknown[]) : [];
      for (const change of changes) {
        const value = isObject(change) && isObject(change.value) ? change.value : null;
        // A number of the same app that is not this channel's: its messages are not ours to answer.
        const metadata = isObject(value?.metadata) ? value.metadata : null;
        if (!value || metadata?.phone_number_id !== this.#options.phoneNumberId) continue;
        for (const status of Array.isArray(value.statuses) ? (value.statuses as unknown[]) : [])
          if (isObject(status) && status.status === 'failed')
            deliveryFailures.push(this.#deliveryFailed(status));
        for (const message of Array.isArray(value.messages) ? (value.messages as unknown[]) : []) {
          const read = this.#message(message);
          if (read) messages.push(read);
        }
      }
    }
    return { kind: 'messages', messages, ...(deliveryFailures.length ? { deliveryFailures } : {}) };
  }

  /**
   * A message WhatsApp could not deliver (`statuses[].status: "failed"`), with hashed ids, the error's
   * code and title only: handed to `onDeliveryFailure` when given, and to the server, which logs and
   * counts it.
   */
  #deliveryFailed(status: Record<string, unknown>): ChannelDeliveryFailure {
    const error = Array.isArray(status.errors) && isObject(status.errors[0]) ? status.errors[0] : {};
    const failure: WhatsAppDeliveryFailure = {
      messageId: receiptId(String(status.id ?? '')),
      recipient: receiptId(String(status.recipient_id ?? '')),
      code: typeof error.code === 'number' ? error.code : null,
      title: typeof error.title === 'string' ? error.title : 'unknown error',
    };
    this.#options.onDeliveryFailure?.(failure);
    return failure;
  }

  /** A user's message as a turn, or `null` for one that is not (a reaction, a system message, one without id). */
  #message(raw: unknown): InboundMessage | null {
    if (!isObject(raw) || typeof raw.id !== 'string' || typeof raw.from !== 'string' || !raw.id) return null;
    const message = raw as unknown as WhatsAppMessage;
    if (message.type === 'reaction' || message.type === 'system') return null;
    const choice = message.interactive?.button_reply ?? message.interactive?.list_reply;
    const attachments: InboundAttachment[] = [];
    const media = (
      item: { id?: string; mime_type?: string; filename?: string } | undefined,
      name: string,
      mimeType: string,
    ) => {
      if (item?.id)
        attachments.push(this.#attachment(item.id, item.filename ?? name, item.mime_type ?? mimeType));
    };
    media(message.document, 'document', 'application/octet-stream');
    media(message.image, `image-${message.id}.jpg`, 'image/jpeg');
    media(message.video, `video-${message.id}.mp4`, 'video/mp4');
    media(
      message.audio,
      message.audio?.voice ? `voice-${message.id}.ogg` : `audio-${message.id}.mp3`,
      message.audio?.voice ? 'audio/ogg' : 'audio/mpeg',
    );
    media(message.sticker, `sticker-${message.id}.webp`, 'image/webp');
    const text =
      message.text?.body ??
      message.document?.caption ??
      message.image?.caption ??
      message.video?.caption ??
      message.button?.text ??
      placeText(message.location) ??
      (message.contacts ? contactsText(message.contacts) : null) ??
      (attachments.length || choice
        ? ''
        : `(a ${message.type || 'unknown'} message, which this channel cannot read)`);
    const at = message.timestamp ? new Date(Number(message.timestamp) * 1000) : this.#now();
    return {
      messageId: message.id,
      // The time of the user's last message rides with the conversation: the 24-hour window.
      conversation: {
        channel: this.name,
        conversationId: message.from,
        userId: message.from,
        reply: { lastUserMessageAt: at.toISOString(), lastMessageId: message.id },
      },
      text,
      selectedOption: choice?.title ?? null,
      attachments,
    };
  }

  #attachment(mediaId: string, name: string, mimeType = 'application/octet-stream'): InboundAttachment {
    return {
      name,
      mimeType,
      download: async ({ maxBytes } = {}) => {
        // The media's URL comes with its declared size (file_size).
        const media = (await this.#graph.call('GET', `/${mediaId}`)) as { url: string; file_size?: number };
        refuseDeclaredOver(`WhatsApp media ${mediaId}`, maxBytes, media.file_size);
        return this.#graph.download(media.url, `media ${mediaId}`, maxBytes);
      },
    };
  }

  async send(
    conversation: ChannelConversation,
    message: ChannelSend,
    progress?: ChannelSendProgress,
  ): Promise<void> {
    const signal = progress?.signal;
    if (message.type === 'typing') {
      // WhatsApp's typing indicator rides on the read receipt of the user's last message.
      const messageId = conversation.reply?.lastMessageId;
      if (messageId)
        await this.#graph.call(
          'POST',
          `/${this.#options.phoneNumberId}/messages`,
          {
            messaging_product: 'whatsapp',
            status: 'read',
            message_id: messageId,
            typing_indicator: { type: 'text' },
          },
          signal,
        );
      return;
    }
    const to = conversation.conversationId;
    const lastAt = conversation.reply?.lastUserMessageAt ?? '';
    if (!(this.#now().getTime() - Date.parse(lastAt) < WINDOW_MS))
      return this.#outsideWindow(to, lastAt, signal);
    if (message.type === 'file') {
      // A caption within WhatsApp's limit rides in the document's message; a longer one follows it as text.
      const caption = message.caption ?? '';
      const rides = caption.length <= CAPTION_LENGTH;
      const after = rides ? [] : splitText(caption, this.capabilities.textLength);
      await sendInOrder('WhatsApp', [null, ...after], progress, async (text, stop) => {
        if (text !== null) return this.#send(to, { type: 'text', text: { body: text } }, stop);
        const form = new FormData();
        form.set('messaging_product', 'whatsapp');
        form.set('type', message.file.mimeType);
        form.set('file', new Blob([message.data], { type: message.file.mimeType }), message.file.name);
        const uploaded = (await this.#graph.call(
          'POST',
          `/${this.#options.phoneNumberId}/media`,
          form,
          stop,
        )) as { id: string };
        return this.#send(
          to,
          {
            type: 'document',
            document: {
              id: uploaded.id,
              filename: message.file.name,
              ...(rides && caption ? { caption } : {}),
            },
          },
          stop,
        );
      });
      return;
    }
    const { text, buttons } = textWithOptions(this.capabilities, message);
    // Only the last message carries the buttons, and only its body is held to their 1,024 characters.
    const pieces = splitText(
      text || ' ',
      this.capabilities.textLength,
      buttons.length ? INTERACTIVE_BODY_LENGTH : this.capabilities.textLength,
    );
    const messages = pieces.map((piece, index) =>
      index < pieces.length - 1 || buttons.length === 0
        ? { type: 'text', text: { body: piece } }
        : this.#interactive(piece, buttons),
    );
    await sendInOrder('WhatsApp', messages, progress, (content, stop) => this.#send(to, content, stop));
  }

  /** The message that carries the options: reply buttons when they fit (3, 20 characters), else a list. */
  #interactive(body: string, buttons: string[]): Record<string, unknown> {
    if (buttons.length <= 3 && buttons.every((label) => label.length <= 20))
      return {
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: body },
          action: {
            buttons: buttons.map((title, i) => ({ type: 'reply', reply: { id: `o${i}`, title } })),
          },
        },
      };
    return {
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: body },
        action: {
          button: this.#listButton,
          sections: [{ rows: buttons.map((title, i) => ({ id: `o${i}`, title })) }],
        },
      },
    };
  }

  /**
   * A message after the 24-hour window, when only approved templates may be sent. The configured
   * template goes once, for the first such message since the user's last one (it invites them
   * back); the message itself is not sent: a final error says it waits for the user's answer and
   * an admin can retry it from the dead letters. Without a template, a final error names the fix.
   */
  async #outsideWindow(to: string, lastAt: string, signal: AbortSignal | undefined): Promise<never> {
    const template = this.#options.template;
    if (!template)
      throw new ChannelSendError(
        `the user last wrote more than 24 hours ago, and WhatsApp only lets a business send approved templates then: configure a template (whatsapp "template": { "name", "language" }) approved in WhatsApp Manager`,
        { retryable: false },
      );
    const invited = this.#invited.get(to) === lastAt;
    if (!invited) {
      throwIfStopped('WhatsApp', signal);
      await this.#send(
        to,
        { type: 'template', template: { name: template.name, language: { code: template.language } } },
        signal,
      );
      this.#invited.delete(to);
      this.#invited.set(to, lastAt);
      // Only the newest conversations are remembered: the map never grows without bound.
      if (this.#invited.size > INVITED_KEPT) this.#invited.delete(this.#invited.keys().next().value!);
    }
    throw new ChannelSendError(
      `the user last wrote more than 24 hours ago, so WhatsApp takes only templates: ${invited ? 'template' : 'the template'} "${template.name}" ${invited ? 'was already sent' : 'was sent'} to invite them back, and this message was not sent. It waits for the user's answer: once they write again, an admin can retry it from the dead letters`,
      { retryable: false },
    );
  }

  #send(to: string, message: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    return this.#graph.call(
      'POST',
      `/${this.#options.phoneNumberId}/messages`,
      { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...message },
      signal,
    );
  }
}
