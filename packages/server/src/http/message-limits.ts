import type { Context } from 'hono';
import { clientAddress } from './client-address.js';
import { FixedWindows, rateLimited } from './fixed-windows.js';
import type { RateLimitOptions } from './rate-limit.js';

/**
 * How many user messages a client may send (option `messageLimit` of `createApp`): per session
 * (a JSON-API session or an OpenAI conversation) and per client address. `false` turns one off.
 */
export interface MessageLimitOptions {
  /** Default 30 messages per session per minute. */
  perSession?: Omit<RateLimitOptions, 'key'> | false;
  /** Default 120 messages per client address per minute (all its sessions together). */
  perAddress?: Omit<RateLimitOptions, 'key'> | false;
}

/** Default `messageLimit.perSession`: 30 messages per session per minute. */
export const DEFAULT_SESSION_MESSAGE_LIMIT = { windowMs: 60_000, max: 30 } as const;
/** Default `messageLimit.perAddress`: 120 messages per client address per minute. */
export const DEFAULT_ADDRESS_MESSAGE_LIMIT = { windowMs: 60_000, max: 120 } as const;

/**
 * The counters behind `messageLimit`: each message (JSON API or OpenAI endpoint) counts once against
 * its client address and once against its session; over either, 429 `RATE_LIMITED` with
 * `Retry-After`, before the message is read or stored. Per process, in memory.
 */
export class MessageLimits {
  readonly #session: { windows: FixedWindows; max: number; windowMs: number } | null;
  readonly #address: { windows: FixedWindows; max: number; windowMs: number } | null;

  constructor(options: MessageLimitOptions = {}, now: () => number = Date.now) {
    const make = (limit: Omit<RateLimitOptions, 'key'> | false) =>
      limit === false ? null : { windows: new FixedWindows(limit, now), ...limit };
    this.#session = make(options.perSession ?? DEFAULT_SESSION_MESSAGE_LIMIT);
    this.#address = make(options.perAddress ?? DEFAULT_ADDRESS_MESSAGE_LIMIT);
  }

  /**
   * Counts a message from the request's client address (or from `address`, a channel's key for its
   * user); throws 429 when it is over its limit.
   */
  countAddress(from: Context | string): void {
    if (!this.#address) return;
    const { windows, max, windowMs } = this.#address;
    const retryAfter = windows.add(typeof from === 'string' ? from : clientAddress(from));
    if (retryAfter !== null)
      throw rateLimited(
        `Too many messages from this client address: at most ${max} per ${describeWindow(windowMs)}.`,
        retryAfter,
        { key: 'tooManyMessages', values: { max, seconds: windowMs / 1000, retryAfter } },
      );
  }

  /** Counts a message to `sessionId`; throws 429 when the session is over its limit. */
  countSession(sessionId: string): void {
    if (!this.#session) return;
    const { windows, max, windowMs } = this.#session;
    const retryAfter = windows.add(sessionId);
    if (retryAfter !== null)
      throw rateLimited(
        `Too many messages in this session: at most ${max} per ${describeWindow(windowMs)}.`,
        retryAfter,
        { key: 'tooManyMessages', values: { max, seconds: windowMs / 1000, retryAfter } },
      );
  }
}

function describeWindow(windowMs: number): string {
  if (windowMs === 60_000) return 'minute';
  if (windowMs % 1000 === 0) return `${windowMs / 1000} s`;
  return `${windowMs} ms`;
}
