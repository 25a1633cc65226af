import type { Channel, ChannelStore } from '@treeagent/core/adapter';
import type { ServerChannel } from './route-channel.js';

/** How the server delivers to messaging channels: where the outbox lives, retries, rate limits. */
export interface ChannelDeliveryOptions {
  /**
   * Where channel identities and the outbox live. Default: the session store's own
   * (`sessionStore.channelStore()`: SQLite, PostgreSQL and memory have one), shared by every process
   * on it.
   */
  store?: ChannelStore;
  /** Attempts per message, the first included; then it is dead-lettered (logged, counted, retried by an admin). Default 8. */
  maxAttempts?: number;
  /** Delay before the first retry; it doubles each time (with jitter), up to 5 minutes. Default 1000 ms. */
  retryDelayMs?: number;
  /**
   * How long a send may wait for the platform: when it has taken no message of the send for this long
   * (an answer in several messages counts from the last one taken), the send is aborted and retried
   * from the first message not taken. Default 15 000 ms.
   */
  timeoutMs?: number;
  /** How often the delivery loop looks for due messages. Default 1000 ms. */
  pollMs?: number;
  /**
   * Most sends per second on one channel (every conversation of it together), by channel name or
   * one number for all. Default 20 (Telegram's documented bulk limit is about 30 per second).
   */
  sendsPerSecond?: number | Record<string, number>;
  /** Largest webhook request body, in bytes. Default 1 MiB. */
  maxBodyBytes?: number;
  /** How the inbox of incoming messages runs their turns (docs/channels.md, "The inbox"). */
  inbox?: ChannelInboxOptions;
}

/** The inbox of incoming messages: retries of a turn that failed, leases, and how long a webhook waits. */
export interface ChannelInboxOptions {
  /** Attempts at a message's turn, the first included; then it is given up (kept as failed, listed for admins). Default 5. */
  maxAttempts?: number;
  /** Delay before the first retry of a turn; it doubles each time (with jitter), up to 5 minutes. Default `retryDelayMs`. */
  retryDelayMs?: number;
  /**
   * How long a process holds a message before it must renew its hold (it renews it every third of
   * this while the turn runs); a process that died gives its messages up after this long. Default
   * 30 000 ms.
   */
  leaseMs?: number;
  /**
   * How long the webhook of a platform that waits for the turn (all but Slack) waits before it
   * answers 200 anyway (the message is in the inbox either way). Default 10 000 ms.
   */
  waitMs?: number;
  /** Most turns one process runs at once, each of another conversation. Default 8. */
  concurrency?: number;
}

/**
 * The channels of a server with the delivery settings of its messaging channels (option `channels`
 * of `createApp`, docs/channels.md).
 */
export interface ChannelsOptions extends ChannelDeliveryOptions {
  /**
   * The channels: messaging channels (`Channel`: each answers its platform's webhook at
   * `/channels/<name>/webhook`) and route channels (`webChat()`, `openAiCompatible()`).
   */
  channels: readonly ServerChannel[];
  /**
   * Whether the default route channels — the web chat and the OpenAI-compatible endpoint — are
   * added to `channels`. Default: `true` when `channels` names no route channel (a list of
   * messaging channels, as before route channels existed), `false` when it names one. `false` with
   * only messaging channels: a server with no web chat and no `/v1` endpoint.
   */
  defaults?: boolean;
}

/**
 * Option `channels` of `createApp`: the exact list of channels (`[webChat(), telegram]`), or the
 * list with delivery settings (`ChannelsOptions`). Omitted: the web chat and the OpenAI-compatible
 * endpoint.
 */
export type ChannelsOption = readonly ServerChannel[] | ChannelsOptions;

/** The messaging channels of a server with their delivery settings: what the channel service runs. */
export interface MessagingChannels extends ChannelDeliveryOptions {
  channels: readonly Channel[];
}
