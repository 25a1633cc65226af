import { isValidSlackRequest, webApi } from '@slack/bolt';
import type { ChannelConversation } from '@treeagent/core/adapter';
import {
  type Channel,
  type ChannelCapabilities,
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
import { isObject, malformedBody } from '../malformed-body.js';
import { receiptId } from '../receipt-id.js';
import { sendInOrder } from '../send-in-order.js';
import {
  isDirectMessage,
  isSlackBlockActions,
  isSlackMessageEvent,
  type SlackBlockActions,
  type SlackEventsBody,
  type SlackFile,
  type SlackMessageEvent,
  slackChannelOf,
  slackConversationId,
} from './slack-payload.js';

/** Slack's headers of a signed request. */
export const SLACK_SIGNATURE_HEADER = 'x-slack-signature';
export const SLACK_TIMESTAMP_HEADER = 'x-slack-request-timestamp';

/** Options of a Slack channel (docs/channels.md, "Slack"). */
export interface SlackChannelOptions {
  /** The channel's name in the configuration: the webhook is `/channels/<name>/webhook`. Default `slack`. */
  name?: string;
  /** The app's bot token (`xoxb-…`, OAuth & Permissions). */
  botToken: string;
  /** The app's signing secret (Basic Information → App Credentials): every request is signed with it. */
  signingSecret: string;
  /** The Web API's root, ending in `/`. Default `https://slack.com/api/` (tests: a local fake). */
  apiUrl?: string;
  /** The clock of the signature's 5-minute window (tests). */
  now?: () => Date;
}

/** The id prefix of the option buttons' actions (the index follows). */
const OPTION_ACTION = 'treeagent-option-';

/**
 * Slack through its Events API: requests verified with Bolt's signing-secret check (its 5-minute
 * replay window), the `url_verification` handshake, mentions of the app in channels (each thread is a
 * conversation, answered in the thread) and direct messages; options as Block Kit buttons, read back
 * from the interactivity payload; files both ways (`files.uploadV2`). The server answers each request
 * at once and runs the turn after (Slack wants its 200 within 3 seconds); a retry
 * (`X-Slack-Retry-Num`) carries the same message id, so the receipt keeps it to one turn.
 */
export class SlackChannel implements Channel {
  readonly name: string;
  readonly platform = 'slack';
  readonly capabilities: ChannelCapabilities = {
    // An actions block holds up to 25 elements; a button's text is at most 75 characters.
    buttons: { max: 25, labelLength: 75 },
    // A section block's text is at most 3,000 characters.
    textLength: 3000,
    files: { receive: true, send: true },
    // Bots have no typing indicator in the Events API.
    typing: false,
  };
  /** Bolt's Web API client (`@slack/web-api`), without its own retries: the outbox retries. */
  readonly client: InstanceType<typeof webApi.WebClient>;
  readonly #options: SlackChannelOptions;
  readonly #now: () => Date;

  constructor(options: SlackChannelOptions) {
    this.name = options.name ?? 'slack';
    if (!/^xox[bp]-/.test(options.botToken ?? ''))
      throw new TypeError(
        `Slack channel "${this.name}": botToken must be the app's bot token ("xoxb-…", OAuth & Permissions in the app's settings).`,
      );
    if (!options.signingSecret)
      throw new TypeError(
        `Slack channel "${this.name}": signingSecret is missing (Basic Information → App Credentials → Signing Secret).`,
      );
    this.#options = options;
    this.#now = options.now ?? (() => new Date());
    this.client = new webApi.WebClient(options.botToken, {
      ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      logLevel: webApi.LogLevel.ERROR,
    });
  }

  async receive(request: Request): Promise<ChannelRequest> {
    if (request.method !== 'POST')
      return { kind: 'rejected', reason: `Slack posts its requests; got ${request.method}` };
    const body = await request.text();
    const signature = request.headers.get(SLACK_SIGNATURE_HEADER);
    const timestamp = Number(request.headers.get(SLACK_TIMESTAMP_HEADER));
    if (!signature || !Number.isFinite(timestamp))
      return {
        kind: 'rejected',
        reason: `missing ${SLACK_SIGNATURE_HEADER} or ${SLACK_TIMESTAMP_HEADER} header`,
      };
    const valid = isValidSlackRequest({
      signingSecret: this.#options.signingSecret,
      body,
      headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp },
      nowMilliseconds: this.#now().getTime(),
    });
    if (!valid)
      return {
        kind: 'rejected',
        reason: `wrong ${SLACK_SIGNATURE_HEADER}, or a ${SLACK_TIMESTAMP_HEADER} more than 5 minutes old (a replay)`,
      };
    const acknowledgeWith = new Response(null, { status: 200 });
    if ((request.headers.get('content-type') ?? '').includes('application/x-www-form-urlencoded')) {
      const payload = parseJson<SlackBlockActions>(new URLSearchParams(body).get('payload'));
      if (!isSlackBlockActions(payload)) return malformed('the interactivity request has no button payload');
      const choice = this.#choice(payload);
      if (choice) this.#settleButtons(payload, choice.selectedOption!);
      return { kind: 'messages', messages: choice ? [choice] : [], acknowledgeWith };
    }
    const events = parseJson<SlackEventsBody>(body);
    if (!events || typeof events.type !== 'string')
      return malformed('the body is not a JSON object with a "type"');
    if (events.type === 'url_verification')
      return { kind: 'answer', response: Response.json({ challenge: String(events.challenge ?? '') }) };
    const event: unknown = events.type === 'event_callback' ? events.event : undefined;
    // Only the events the channel reads are checked: an app may subscribe to others (they run nothing).
    if (!isObject(event) || (event.type !== 'message' && event.type !== 'app_mention'))
      return { kind: 'messages', messages: [], acknowledgeWith };
    if (!isSlackMessageEvent(event))
      return malformed(`the ${event.type} event has not the fields of a message (channel, ts, user, text…)`);
    const message = this.#message(event);
    return { kind: 'messages', messages: message ? [message] : [], acknowledgeWith };
  }

  /** A mention of the app, or a direct message to it; `null` for anything else (the app's own messages, edits, joins). */
  #message(event: SlackMessageEvent): InboundMessage | null {
    if (!event.user || event.bot_id) return null;
    if (event.subtype && event.subtype !== 'file_share') return null;
    const direct = isDirectMessage(event.channel, event.channel_type);
    if (event.type === 'message' && !direct) return null;
    if (event.type !== 'message' && event.type !== 'app_mention') return null;
    // A channel's conversation is the thread the mention starts (or is in); a direct message is one.
    const threadTs = event.thread_ts ?? (direct ? null : event.ts);
    const conversationId = slackConversationId(event.channel, direct ? null : threadTs);
    return {
      // The same for a retry and for the `message` and `app_mention` events of one message.
      messageId: receiptId(event.channel, event.ts),
      conversation: { channel: this.name, conversationId, userId: event.user, threadId: threadTs },
      text: (event.text ?? '').replace(/^\s*<@[A-Z0-9]+>\s*/, ''),
      selectedOption: null,
      attachments: (event.files ?? []).map((file) => this.#attachment(file)),
    };
  }

  /** A press of one of the option buttons the channel sent. */
  #choice(payload: SlackBlockActions): InboundMessage | null {
    const action = payload.actions?.find((item) => item.action_id.startsWith(OPTION_ACTION));
    const channelId = payload.channel?.id;
    if (payload.type !== 'block_actions' || !action?.value || !channelId) return null;
    const direct = isDirectMessage(channelId, payload.channel?.name === 'directmessage' ? 'im' : undefined);
    const threadTs =
      payload.message?.thread_ts ??
      payload.container?.thread_ts ??
      (direct ? null : (payload.message?.ts ?? null));
    return {
      messageId: receiptId(channelId, 'action', action.action_ts),
      conversation: {
        channel: this.name,
        conversationId: slackConversationId(channelId, direct ? null : threadTs),
        userId: payload.user.id,
        threadId: threadTs,
      },
      text: '',
      selectedOption: action.value,
      attachments: [],
    };
  }

  /**
   * Replaces the pressed message's buttons with the choice, so an old button cannot be pressed
   * again. Only a courtesy: the choice runs whether or not Slack takes the update.
   */
  #settleButtons(payload: SlackBlockActions, option: string): void {
    const channel = payload.channel?.id;
    const ts = payload.message?.ts;
    if (!channel || !ts) return;
    const text = payload.message?.text ?? '';
    void this.client.chat
      .update({
        channel,
        ts,
        text,
        blocks: [
          ...(text ? [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text } }] : []),
          {
            type: 'context' as const,
            elements: [{ type: 'mrkdwn' as const, text: `→ ${escapeText(option)}` }],
          },
        ],
      })
      .catch(() => {});
  }

  #attachment(file: SlackFile): InboundAttachment {
    return {
      name: file.name ?? `file-${file.id}`,
      mimeType: file.mimetype ?? 'application/octet-stream',
      download: async ({ maxBytes } = {}) => {
        const what = `Slack file ${file.id}`;
        refuseDeclaredOver(what, maxBytes, file.size);
        const url = file.url_private_download ?? file.url_private;
        if (!url) throw new Error(`Slack gave no download URL for file ${file.id}.`);
        const response = await fetch(url, {
          headers: { Authorization: `Bearer ${this.#options.botToken}` },
          redirect: 'error',
        });
        if (!response.ok) throw new Error(`Slack answered HTTP ${response.status} for file ${file.id}.`);
        return readBodyWithin(response, maxBytes, what);
      },
    };
  }

  async send(
    conversation: ChannelConversation,
    message: ChannelSend,
    progress?: ChannelSendProgress,
  ): Promise<void> {
    if (message.type === 'typing') return;
    const channel = slackChannelOf(conversation.conversationId);
    const thread = conversation.threadId ? { thread_ts: conversation.threadId } : {};
    // The Web API client takes no abort signal: a send stops between its messages.
    try {
      if (message.type === 'file') {
        // The caption is the upload's comment: one platform message.
        await sendInOrder('Slack', [message], progress, (file) =>
          this.client.filesUploadV2({
            channel_id: channel,
            ...thread,
            file: Buffer.from(file.data),
            filename: file.file.name,
            ...(file.caption ? { initial_comment: file.caption } : {}),
          }),
        );
        return;
      }
      const { text, buttons } = textWithOptions(this.capabilities, message);
      const pieces = splitText(escapeText(text), this.capabilities.textLength);
      const messages = pieces.map((piece, index) => ({
        channel,
        ...thread,
        text: piece,
        ...(index === pieces.length - 1 && buttons.length ? { blocks: optionBlocks(piece, buttons) } : {}),
      }));
      await sendInOrder('Slack', messages, progress, (post) => this.client.chat.postMessage(post));
    } catch (error) {
      throw sendError(error);
    }
  }
}

/** The text as a section, and the options as buttons whose value is the option. */
function optionBlocks(text: string, options: readonly string[]) {
  return [
    ...(text ? [{ type: 'section' as const, text: { type: 'mrkdwn' as const, text } }] : []),
    {
      type: 'actions' as const,
      block_id: 'treeagent-options',
      elements: options.map((option, index) => ({
        type: 'button' as const,
        action_id: `${OPTION_ACTION}${index}`,
        text: { type: 'plain_text' as const, text: option, emoji: true },
        value: option,
      })),
    },
  ];
}

/** Slack reads `&`, `<` and `>` as markup: the agent's text is escaped as Slack asks. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A signed request whose body is not what Slack sends: answered 200 with what was wrong, since
 * Slack sends again anything but a 2xx (and turns the app's events off when too many fail).
 */
function malformed(detail: string): ChannelRequest {
  return malformedBody('Slack', detail, 200);
}

function parseJson<T>(text: string | null): T | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as T) : null;
  } catch {
    return null;
  }
}

/** The Web API client's errors as the outbox reads them: 429 after its `Retry-After`, 5xx and network errors retried, refusals final. */
function sendError(error: unknown): ChannelSendError {
  if (error instanceof ChannelSendError) return error;
  const coded = error as {
    code?: string;
    retryAfter?: number;
    statusCode?: number;
    data?: { error?: string };
  };
  switch (coded?.code) {
    case webApi.ErrorCode.RateLimitedError:
      return ChannelSendError.ofStatus('Slack', 429, coded.retryAfter);
    case webApi.ErrorCode.HTTPError:
      return ChannelSendError.ofStatus('Slack', coded.statusCode ?? 500, null);
    case webApi.ErrorCode.PlatformError: {
      const reason = coded.data?.error ?? 'unknown_error';
      const transient = [
        'ratelimited',
        'internal_error',
        'fatal_error',
        'service_unavailable',
        'request_timeout',
      ];
      return new ChannelSendError(`Slack refused the call: ${reason}`, {
        retryable: transient.includes(reason),
        cause: error,
      });
    }
    default:
      return new ChannelSendError(
        `Slack could not be reached: ${(error as Error)?.message ?? String(error)}`,
        {
          retryable: true,
          cause: error,
        },
      );
  }
}
