import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../errors/api-error.js';

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

function defaultKey(c: Context): string {
  const address = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming
    ?.socket?.remoteAddress;
  return address ? `ip:${address}` : 'anonymous';
}

/**
 * A fixed-window rate limit in process memory: over `max` requests in a window the request is
 * refused with 429 `RATE_LIMITED` and `Retry-After`. Several processes each count their own.
 */
export function rateLimit(options: RateLimitOptions, now: () => number = Date.now): MiddlewareHandler {
  const windows = new Map<string, { start: number; count: number }>();
  const keyOf = options.key ?? defaultKey;
  let lastSweep = now();
  return async (c, next) => {
    const time = now();
    if (time - lastSweep > options.windowMs) {
      for (const [key, window] of windows) if (time - window.start >= options.windowMs) windows.delete(key);
      lastSweep = time;
    }
    const key = keyOf(c);
    let window = windows.get(key);
    if (!window || time - window.start >= options.windowMs) {
      window = { start: time, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count > options.max) {
      const retryAfter = Math.max(1, Math.ceil((window.start + options.windowMs - time) / 1000));
      throw new ApiError(
        429,
        'RATE_LIMITED',
        `Too many requests: at most ${options.max} per ${options.windowMs} ms. Retry in ${retryAfter} s.`,
        { headers: { 'Retry-After': String(retryAfter) }, details: { retryAfterSeconds: retryAfter } },
      );
    }
    await next();
  };
}
