import type { ChannelConversation } from '@treeagent/core/adapter';
import {
  type Channel,
  type ChannelCapabilities,
  type ChannelRequest,
  type ChannelSend,
  ChannelSendError,
  type InboundAttachment,
  type InboundMessage,
  optionsFor,
  splitText,
} from '@treeagent/core/adapter';
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
   * Sent instead of a message when the user last wrote more than 24 hours ago (only approved
   * templates may be sent then). Without it such a message is dead-lettered with an error that says so.
   */
  template?: WhatsAppTemplate;
  /** The Graph API root. Default `https://graph.facebook.com` (tests: a local fake). */
  graphRoot?: string;
  /** Default `v21.0`. */
  graphVersion?: string;
  /** The clock (tests). */
  now?: () => Date;
}

/** WhatsApp's customer-service window. */
const WINDOW_MS = 24 * 60 * 60 * 1000;

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

  constructor(options: WhatsAppChannelOptions) {
    this.name = options.name ?? 'whatsapp';
    requireMetaOptions('WhatsApp', this.name, { ...options }, [
      'phoneNumberId',
      'accessToken',
      'appSecret',
      'verifyToken',
    ]);
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
    const payload = read.payload as {
      entry?: { changes?: { value?: { messages?: WhatsAppMessage[] } }[] }[];
    };
    const messages = (payload.entry ?? [])
      .flatMap((entry) => entry.changes ?? [])
      .flatMap((change) => change.value?.messages ?? [])
      .map((message) => this.#message(message));
    return { kind: 'messages', messages };
  }

  #message(message: WhatsAppMessage): InboundMessage {
    const choice = message.interactive?.button_reply ?? message.interactive?.list_reply;
    const attachments: InboundAttachment[] = [];
    if (message.document)
      attachments.push(
        this.#attachment(
          message.document.id,
          message.document.filename ?? 'document',
          message.document.mime_type,
        ),
      );
    if (message.image)
      attachments.push(
        this.#attachment(message.image.id, `image-${message.id}.jpg`, message.image.mime_type),
      );
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
      text:
        message.text?.body ??
        message.document?.caption ??
        message.image?.caption ??
        message.button?.text ??
        '',
      selectedOption: choice?.title ?? null,
      attachments,
    };
  }

  #attachment(mediaId: string, name: string, mimeType = 'application/octet-stream'): InboundAttachment {
    return {
      name,
      mimeType,
      download: async () => {
        const media = (await this.#graph.call('GET', `/${mediaId}`)) as { url: string };
        return this.#graph.download(media.url, `media ${mediaId}`);
      },
    };
  }

  async send(conversation: ChannelConversation, message: ChannelSend): Promise<void> {
    if (message.type === 'typing') {
      // WhatsApp's typing indicator rides on the read receipt of the user's last message.
      const messageId = conversation.reply?.lastMessageId;
      if (messageId)
        await this.#graph.call('POST', `/${this.#options.phoneNumberId}/messages`, {
          messaging_product: 'whatsapp',
          status: 'read',
          message_id: messageId,
          typing_indicator: { type: 'text' },
        });
      return;
    }
    const to = conversation.conversationId;
    const last = conversation.reply?.lastUserMessageAt
      ? Date.parse(conversation.reply.lastUserMessageAt)
      : Number.NaN;
    if (!(this.#now().getTime() - last < WINDOW_MS)) {
      const template = this.#options.template;
      if (!template)
        throw new ChannelSendError(
          `the user last wrote more than 24 hours ago, and WhatsApp only lets a business send approved templates then: configure a template (whatsapp "template": { "name", "language" }) approved in WhatsApp Manager`,
          { retryable: false },
        );
      await this.#send(to, {
        type: 'template',
        template: { name: template.name, language: { code: template.language } },
      });
      return;
    }
    if (message.type === 'file') {
      const form = new FormData();
      form.set('messaging_product', 'whatsapp');
      form.set('type', message.file.mimeType);
      form.set('file', new Blob([message.data], { type: message.file.mimeType }), message.file.name);
      const uploaded = (await this.#graph.call('POST', `/${this.#options.phoneNumberId}/media`, form)) as {
        id: string;
      };
      await this.#send(to, {
        type: 'document',
        document: {
          id: uploaded.id,
          filename: message.file.name,
          ...(message.caption ? { caption: message.caption } : {}),
        },
      });
      return;
    }
    const body =
      message.type === 'text' && message.operatorName
        ? `${message.operatorName}: ${message.text}`
        : message.text;
    const options = message.type === 'text' ? message.options : [];
    const { text, buttons } = optionsFor(this.capabilities, body, options);
    const pieces = splitText(text || ' ', buttons.length ? 1024 : this.capabilities.textLength);
    for (const [index, piece] of pieces.entries()) {
      const last = index === pieces.length - 1;
      if (!last || buttons.length === 0) await this.#send(to, { type: 'text', text: { body: piece } });
      else if (buttons.length <= 3 && buttons.every((label) => label.length <= 20))
        await this.#send(to, {
          type: 'interactive',
          interactive: {
            type: 'button',
            body: { text: piece },
            action: {
              buttons: buttons.map((title, i) => ({ type: 'reply', reply: { id: `o${i}`, title } })),
            },
          },
        });
      else
        await this.#send(to, {
          type: 'interactive',
          interactive: {
            type: 'list',
            body: { text: piece },
            action: {
              button: 'Options',
              sections: [{ rows: buttons.map((title, i) => ({ id: `o${i}`, title })) }],
            },
          },
        });
    }
  }

  #send(to: string, message: Record<string, unknown>): Promise<unknown> {
    return this.#graph.call('POST', `/${this.#options.phoneNumberId}/messages`, {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to,
      ...message,
    });
  }
}
