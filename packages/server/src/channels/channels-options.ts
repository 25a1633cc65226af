import type { Channel, ChannelStore } from '@treeagent/core/adapter';

/** Messaging channels on the server (option `channels` of `createApp`, docs/channels.md). */
export interface ChannelsOptions {
  /** The channels; each answers its platform's webhook at `/channels/<name>/webhook`. */
  channels: Channel[];
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
  /** How long one send may take. Default 15 000 ms. */
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
}
