import { Activity } from '@microsoft/agents-activity';
import {
  type AuthConfiguration,
  authorizeJWT,
  ConnectorClient,
  HttpError,
  MsalTokenProvider,
} from '@microsoft/agents-hosting';
import type { ChannelConversation } from '@treeagent/core/adapter';
import {
  type AttachmentDownloadOptions,
  type Channel,
  type ChannelCapabilities,
  type ChannelReceiveContext,
  type ChannelRequest,
  type ChannelSend,
  ChannelSendError,
  type ChannelSendProgress,
  type InboundAttachment,
  type InboundMessage,
  readBodyWithin,
  splitText,
  textWithOptions,
} from '@treeagent/core/adapter';
import { isObject, malformedBody } from '../malformed-body.js';
import { receiptId } from '../receipt-id.js';
import { sendInOrder } from '../send-in-order.js';
import { optionOf, optionsCard, type TeamsActivity, type TeamsAttachment, textOf } from './teams-activity.js';
import {
  acceptedFile,
  FILE_INFO_CARD,
  type FileConsentValue,
  fileConsentCard,
} from './teams-file-consent.js';

/** What the channel needs of a token provider: the Agents SDK's `MsalTokenProvider` is one. */
export interface TeamsTokenProvider {
  getAccessToken(authConfig: AuthConfiguration, scope: string): Promise<string>;
}

/** Options of a Microsoft Teams channel (docs/channels.md, "Microsoft Teams"). */
export interface TeamsChannelOptions {
  /** The channel's name in the configuration: the webhook (messaging endpoint) is `/channels/<name>/webhook`. Default `teams`. */
  name?: string;
  /** The Azure Bot's Microsoft App ID (its Entra app registration's client id). */
  appId: string;
  /** A client secret of that app registration. */
  appPassword: string;
  /** The Entra tenant of the app registration (single-tenant bots). */
  tenantId: string;
  /** Entra's root for the signing keys and tokens. Default `https://login.microsoftonline.com` (tests: a local fake). */
  authority?: string;
  /** Gets the token replies are sent with. Default: the Agents SDK's `MsalTokenProvider` (client credentials). */
  tokenProvider?: TeamsTokenProvider;
}

/** The scope of the Bot Connector's tokens. */
const BOT_SCOPE = 'https://api.botframework.com/.default';

/**
 * Microsoft Teams through the Microsoft 365 Agents SDK (`@microsoft/agents-hosting`): each activity's
 * JWT is validated by the SDK's `authorizeJWT` (signature against the tenant's published keys,
 * audience the app id, issuer, expiry), and its `serviceurl` claim must be the activity's service URL;
 * messages, files from personal chats and inline images from the user; options as an Adaptive Card of
 * Action.Submit buttons (a press comes back as the option); replies and typing through the
 * activity's service URL with the SDK's `ConnectorClient`; images to the user inline, other files
 * through a file consent card (uploaded to the user's OneDrive when they accept).
 */
export class TeamsChannel implements Channel {
  readonly name: string;
  readonly platform = 'teams';
  readonly capabilities: ChannelCapabilities = {
    // Teams shows at most 6 actions on an Adaptive Card.
    buttons: { max: 6, labelLength: 50 },
    // A Teams message is at most about 28 KB with its markup.
    textLength: 8000,
    // Images go inline; other files through a file consent card (the user accepts, the bot uploads).
    files: { receive: true, send: true },
    typing: true,
  };
  readonly #auth: AuthConfiguration;
  readonly #tokens: TeamsTokenProvider;
  readonly #authorize: ReturnType<typeof authorizeJWT>;
  /** Signs the file consent cards' context (the app's client secret: never sent). */
  readonly #consentSecret: string;

  constructor(options: TeamsChannelOptions) {
    this.name = options.name ?? 'teams';
    for (const key of ['appId', 'appPassword', 'tenantId'] as const)
      if (!options[key])
        throw new TypeError(
          `Teams channel "${this.name}": ${key} is missing (the Azure Bot's Configuration page: Microsoft App ID, App Tenant ID; a client secret of its app registration).`,
        );
    const connection: AuthConfiguration = {
      clientId: options.appId,
      clientSecret: options.appPassword,
      tenantId: options.tenantId,
      authority: (options.authority ?? 'https://login.microsoftonline.com').replace(/\/$/, ''),
      validateIssuer: true,
    };
    this.#auth = { ...connection, connections: new Map([['serviceConnection', connection]]) };
    this.#authorize = authorizeJWT(this.#auth);
    this.#tokens = options.tokenProvider ?? new MsalTokenProvider();
    this.#consentSecret = options.appPassword;
  }

  async receive(request: Request, context?: ChannelReceiveContext): Promise<ChannelRequest> {
    if (request.method !== 'POST')
      return { kind: 'rejected', reason: `Azure Bot Service posts activities; got ${request.method}` };
    const claims = await this.#verify(request.headers.get('authorization'));
    if (typeof claims === 'string') return { kind: 'rejected', reason: claims };
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      // Authenticated, so the Bot Connector's: it does not redeliver a 4xx.
      return malformedBody('Teams', 'the body is not JSON', 400);
    }
    // The Bot Connector does not redeliver an activity refused with a 4xx: a body that is not one is a 400.
    if (!isObject(body) || typeof body.type !== 'string')
      return malformedBody('Teams', 'the body is not an activity (an object with a "type")', 400);
    const activity = body as unknown as TeamsActivity;
    // The token names the service it was issued for: a reply never goes (with our token) elsewhere.
    // Azure Bot Service puts the claim in every token it signs for a bot; one without it is refused.
    if (typeof claims.serviceurl !== 'string')
      return {
        kind: 'rejected',
        reason:
          'the bearer token has no serviceurl claim, so the activity’s serviceUrl cannot be checked (Azure Bot Service always sends one)',
      };
    if (sameUrl(claims.serviceurl) !== sameUrl(activity.serviceUrl ?? ''))
      return {
        kind: 'rejected',
        reason: 'the activity’s serviceUrl is not the one its token was issued for',
      };
    if (activity.type === 'invoke' && activity.name === 'fileConsent/invoke')
      return this.#fileConsent(activity, context);
    const message = this.#message(activity);
    return { kind: 'messages', messages: message ? [message] : [] };
  }

  /**
   * The user's answer to a file consent card: on accept, the file's bytes are uploaded to the
   * user's OneDrive (`uploadUrl`, one PUT with its `Content-Range`) and a file info card is sent;
   * Teams is answered 200 then, or 500 when the upload failed (Teams shows the user an error). A
   * decline sends nothing.
   */
  async #fileConsent(
    activity: TeamsActivity,
    context: ChannelReceiveContext | undefined,
  ): Promise<ChannelRequest> {
    const answer = (status: number, message?: string) => ({
      kind: 'answer' as const,
      response: message ? Response.json({ error: { message } }, { status }) : new Response(null, { status }),
    });
    const value = (activity.value ?? {}) as FileConsentValue;
    const conversationId = activity.conversation?.id ?? '';
    const accepted = acceptedFile(value, conversationId, this.#consentSecret);
    if (typeof accepted === 'string') return { kind: 'rejected', reason: accepted };
    if (value.action !== 'accept') return answer(200);
    if (!context)
      return answer(500, 'this server lends the Teams channel no file store: the file cannot be uploaded');
    try {
      const data = await context.readFile(accepted.fileId);
      const upload = await fetch(accepted.uploadUrl, {
        method: 'PUT',
        headers: { 'Content-Range': `bytes 0-${data.length - 1}/${data.length}` },
        body: data,
      });
      if (!upload.ok) return answer(500, `OneDrive answered HTTP ${upload.status} to the upload`);
      await this.#post(activity.serviceUrl!, conversationId, [
        {
          channelId: 'msteams',
          type: 'message',
          conversation: { id: conversationId },
          attachments: [
            {
              contentType: FILE_INFO_CARD,
              contentUrl: accepted.contentUrl,
              name: accepted.name,
              content: { uniqueId: accepted.uniqueId, fileType: accepted.fileType },
            },
          ],
        },
      ]);
    } catch (error) {
      return answer(500, `the file could not be sent: ${(error as Error)?.message ?? String(error)}`);
    }
    return answer(200);
  }

  /** The token's claims, or why it is refused (the Agents SDK's validation). */
  async #verify(authorization: string | null): Promise<Record<string, unknown> | string> {
    if (!authorization) return 'no Authorization header (Azure Bot Service sends a bearer token)';
    const incoming: { method: string; headers: Record<string, string>; user?: Record<string, unknown> } = {
      method: 'POST',
      headers: { authorization },
    };
    let refusal: string | null = null;
    let passed = false;
    const response = {
      status: () => response,
      setHeader: () => response,
      send: (body?: unknown) => {
        refusal = String((body as Record<string, unknown> | undefined)?.['jwt-auth-error'] ?? 'refused');
        return response;
      },
      end: () => response,
      headersSent: false,
      writableEnded: false,
    };
    await this.#authorize(incoming as never, response as never, () => {
      passed = true;
    });
    if (!passed || !incoming.user) return `the bearer token is not valid: ${refusal ?? 'refused'}`;
    return incoming.user;
  }

  #message(activity: TeamsActivity): InboundMessage | null {
    if (activity.type !== 'message' || !activity.id || !activity.conversation?.id || !activity.from?.id)
      return null;
    if (!activity.serviceUrl) return null;
    const selectedOption = optionOf(activity.value);
    return {
      messageId: receiptId(activity.conversation.id, activity.id),
      conversation: {
        channel: this.name,
        // A channel thread has its own id (`…;messageid=…`): each thread is a conversation.
        conversationId: activity.conversation.id,
        userId: activity.from.id,
        reply: {
          serviceUrl: activity.serviceUrl,
          ...(activity.recipient?.id ? { botId: activity.recipient.id } : {}),
        },
      },
      text: selectedOption ? '' : textOf(activity),
      selectedOption,
      attachments: (activity.attachments ?? []).flatMap((item) => this.#attachment(item)),
    };
  }

  #attachment(attachment: TeamsAttachment): InboundAttachment[] {
    const name = attachment.name ?? 'file';
    // A file in a personal chat: a pre-authenticated download URL.
    if (attachment.contentType === 'application/vnd.microsoft.teams.file.download.info') {
      const url = attachment.content?.downloadUrl;
      if (!url) return [];
      return [{ name, mimeType: mimeTypeOf(name), download: (options) => download(url, null, options) }];
    }
    // An inline image: its URL wants the bot's token.
    if (attachment.contentType.startsWith('image/') && attachment.contentUrl) {
      const url = attachment.contentUrl;
      return [
        {
          name: attachment.name ?? `image.${attachment.contentType.split('/')[1] ?? 'png'}`,
          mimeType: attachment.contentType,
          download: async (options) =>
            download(url, await this.#tokens.getAccessToken(this.#auth, BOT_SCOPE), options),
        },
      ];
    }
    // Teams' HTML copy of the text, cards: nothing to store.
    return [];
  }

  async send(
    conversation: ChannelConversation,
    message: ChannelSend,
    progress?: ChannelSendProgress,
  ): Promise<void> {
    const serviceUrl = conversation.reply?.serviceUrl;
    if (!serviceUrl)
      throw new ChannelSendError(
        'the conversation has no service URL (it did not come from a Teams activity): nothing can be sent',
        { retryable: false },
      );
    const activities = this.#activities(conversation, message);
    try {
      await this.#post(serviceUrl, conversation.conversationId, activities, progress);
    } catch (error) {
      throw sendError(error);
    }
  }

  /**
   * Sends activities to a conversation through the Bot Connector of `serviceUrl`, in order
   * (`progress`: the ones an earlier attempt delivered are skipped; the SDK's client takes no abort
   * signal, so a send stops between activities).
   */
  async #post(
    serviceUrl: string,
    conversationId: string,
    activities: Record<string, unknown>[],
    progress?: ChannelSendProgress,
  ): Promise<void> {
    const client = await ConnectorClient.createClientWithAuth(
      serviceUrl,
      this.#auth,
      this.#tokens as never,
      BOT_SCOPE,
    );
    await sendInOrder('Teams', activities, progress, (activity) =>
      client.sendToConversation(conversationId, Activity.fromObject(activity)),
    );
  }

  /** The activities of one send. */
  #activities(conversation: ChannelConversation, message: ChannelSend): Record<string, unknown>[] {
    const base = {
      channelId: 'msteams',
      conversation: { id: conversation.conversationId },
      ...(conversation.reply?.botId ? { from: { id: conversation.reply.botId } } : {}),
      recipient: { id: conversation.userId },
    };
    switch (message.type) {
      case 'typing':
        return [{ ...base, type: 'typing' }];
      case 'notice':
        return [{ ...base, type: 'message', text: message.text }];
      case 'file': {
        // Other files: a consent card; the upload follows the user's accept (#fileConsent).
        if (!message.file.mimeType.startsWith('image/')) {
          const description = message.caption || message.file.name;
          const card = fileConsentCard(
            message.file,
            message.data.length,
            conversation.conversationId,
            this.#consentSecret,
            description,
          );
          return [{ ...base, type: 'message', attachments: [card] }];
        }
        const contentUrl = `data:${message.file.mimeType};base64,${Buffer.from(message.data).toString('base64')}`;
        return [
          {
            ...base,
            type: 'message',
            ...(message.caption ? { text: message.caption } : {}),
            attachments: [{ contentType: message.file.mimeType, contentUrl, name: message.file.name }],
          },
        ];
      }
      case 'text': {
        const { text, buttons } = textWithOptions(this.capabilities, message);
        const pieces = splitText(text, this.capabilities.textLength);
        return pieces.map((piece, index) =>
          index === pieces.length - 1 && buttons.length
            ? { ...base, type: 'message', attachments: [optionsCard(piece, buttons)] }
            : { ...base, type: 'message', text: piece },
        );
      }
    }
  }
}

async function download(
  url: string,
  token: string | null,
  { maxBytes }: AttachmentDownloadOptions = {},
): Promise<Uint8Array> {
  const response = await fetch(url, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
  if (!response.ok) throw new Error(`Teams answered HTTP ${response.status} for an attachment.`);
  return readBodyWithin(response, maxBytes, 'a Teams attachment');
}

function sameUrl(url: string): string {
  return url.replace(/\/+$/, '').toLowerCase();
}

const MIME_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  txt: 'text/plain',
  csv: 'text/csv',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Teams gives a file's type as its extension. */
function mimeTypeOf(name: string): string {
  return MIME_TYPES[name.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** The SDK's errors as the outbox reads them: 429 after its `Retry-After`, 5xx and network errors retried, other statuses final. */
function sendError(error: unknown): ChannelSendError {
  if (error instanceof ChannelSendError) return error;
  if (error instanceof HttpError) {
    const headers = error.response?.headers as Headers | undefined;
    return ChannelSendError.ofStatus('Teams', error.status, headers?.get?.('retry-after') ?? null);
  }
  return new ChannelSendError(`Teams could not be reached: ${(error as Error)?.message ?? String(error)}`, {
    retryable: true,
    cause: error,
  });
}
