import { isObject } from '../malformed-body.js';

/**
 * The parts of Slack's requests the channel reads: Events API callbacks
 * (https://docs.slack.dev/apis/events-api/) and interactivity payloads of buttons
 * (https://docs.slack.dev/reference/interaction-payloads/block_actions-payload).
 */

/** A file shared in a message. */
export interface SlackFile {
  id: string;
  name?: string;
  mimetype?: string;
  /** Bytes, as Slack declares them. */
  size?: number;
  url_private_download?: string;
  url_private?: string;
}

/** An `app_mention` or `message` event. */
export interface SlackMessageEvent {
  type: string;
  subtype?: string;
  channel: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  text?: string;
  ts: string;
  thread_ts?: string;
  files?: SlackFile[];
}

/** The JSON body of an Events API request. */
export interface SlackEventsBody {
  type: 'url_verification' | 'event_callback' | string;
  challenge?: string;
  event_id?: string;
  event?: SlackMessageEvent;
}

/** The `payload` field of an interactivity request for a button press. */
export interface SlackBlockActions {
  type: 'block_actions' | string;
  user: { id: string };
  channel?: { id: string; name?: string };
  container?: { message_ts?: string; thread_ts?: string };
  message?: { ts: string; thread_ts?: string; text?: string };
  actions?: { action_id: string; value?: string; action_ts: string }[];
}

/** Whether `value` has the fields of a message event the channel reads, with their types. */
export function isSlackMessageEvent(value: unknown): value is SlackMessageEvent {
  if (!isObject(value)) return false;
  const strings = ['type', 'channel', 'ts'].every((key) => typeof value[key] === 'string');
  const optional = ['subtype', 'channel_type', 'user', 'bot_id', 'text', 'thread_ts'].every(
    (key) => value[key] === undefined || typeof value[key] === 'string',
  );
  const files =
    value.files === undefined ||
    (Array.isArray(value.files) &&
      value.files.every((file) => isObject(file) && typeof file.id === 'string'));
  return strings && optional && files;
}

/** Whether `value` has the fields of a button press the channel reads, with their types. */
export function isSlackBlockActions(value: unknown): value is SlackBlockActions {
  if (!isObject(value) || typeof value.type !== 'string') return false;
  if (!isObject(value.user) || typeof value.user.id !== 'string') return false;
  if (value.channel !== undefined && !(isObject(value.channel) && typeof value.channel.id === 'string'))
    return false;
  for (const key of ['container', 'message'] as const)
    if (value[key] !== undefined && !isObject(value[key])) return false;
  return (
    value.actions === undefined ||
    (Array.isArray(value.actions) &&
      value.actions.every(
        (action) =>
          isObject(action) && typeof action.action_id === 'string' && typeof action.action_ts === 'string',
      ))
  );
}

/** Whether a Slack channel id is a direct message with the app (`D…`). */
export function isDirectMessage(channelId: string, channelType?: string): boolean {
  return channelType === 'im' || channelId.startsWith('D');
}

/**
 * The session key of a Slack conversation: a direct message is one conversation; in a channel each
 * thread is one (the mention that starts it is its first message). Slack's channel ids hold no ":".
 */
export function slackConversationId(channelId: string, threadTs: string | null): string {
  return threadTs ? `${channelId}:${threadTs}` : channelId;
}

/** The Slack channel id of a conversation id made by `slackConversationId`. */
export function slackChannelOf(conversationId: string): string {
  return conversationId.split(':')[0]!;
}
