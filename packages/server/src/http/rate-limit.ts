import type { Context, MiddlewareHandler } from 'hono';
import { clientAddress } from './client-address.js';
import { FixedWindows, rateLimited } from './fixed-windows.js';

export interface RateLimitOptions {
  /** Length of a window in milliseconds. */
  windowMs: number;
  /** Requests a key may make per window. */
  max: number;
  /**
   * Whom a request counts against. Default: the client's address from the Node socket (never from
   * headers a client could forge), else one shared key. Behind a proxy, pass a key that reads the
   * proxy's header, or the API key.
   */
  key?: (c: Context) => string;
}

/**
 * A fixed-window rate limit in process memory: over `max` requests in a window the request is
 * refused with 429 `RATE_LIMITED` and `Retry-After`. Several processes each count their own.
 */
export function rateLimit(options: RateLimitOptions, now: () => number = Date.now): MiddlewareHandler {
  const windows = new FixedWindows(options, now);
  const keyOf = options.key ?? clientAddress;
  return async (c, next) => {
    const retryAfter = windows.add(keyOf(c));
    if (retryAfter !== null) {
      throw rateLimited(`Too many requests: at most ${options.max} per ${options.windowMs} ms.`, retryAfter);
    }
    await next();
  };
}

/**
 * Limits failed authentication per client: once a client (by default its socket address) had `max`
 * requests answered 401 or 403 within a window, its next requests are refused with 429
 * `RATE_LIMITED` before any credential is checked (so guessing API keys or session tokens stays
 * slow, and a right guess is refused like a wrong one until the window ends).
 */
export function limitAuthFailures(
  options: RateLimitOptions,
  now: () => number = Date.now,
): MiddlewareHandler {
  const failures = new FixedWindows(options, now);
  const keyOf = options.key ?? clientAddress;
  return async (c, next) => {
    const key = keyOf(c);
    const retryAfter = failures.exceeded(key);
    if (retryAfter !== null) {
      throw rateLimited(
        `Too many failed authentications from this client: at most ${options.max} per ${options.windowMs} ms.`,
        retryAfter,
      );
    }
    await next();
    if (c.res.status === 401 || c.res.status === 403) failures.add(key);
  };
}
