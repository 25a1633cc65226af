import type { Context, MiddlewareHandler } from 'hono';
import { SESSION_TOKEN_HEADER } from '../auth/session-access.js';
import { clientAddress } from './client-address.js';
import { FixedWindows, rateLimited } from './fixed-windows.js';

declare module 'hono' {
  interface ContextVariableMap {
    /** Set by `limitAuthFailures`: claims a failure slot before a slow credential check (`claimAuthAttempt`). */
    authAttempt: () => AuthAttempt;
  }
}

/** A credential check counted as failed until it says otherwise. */
export interface AuthAttempt {
  /** The credential was right: the attempt no longer counts as a failure. */
  succeeded(): void;
}

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
 * failed authentications within a window, its next requests are refused with 429 `RATE_LIMITED`
 * before any credential is checked (so guessing API keys or session tokens stays slow, and a right
 * guess is refused like a wrong one until the window ends).
 *
 * A failed authentication is an answer 401 (no credential, or a wrong, unknown or expired one), or
 * a 403 to a request that presented a session token (`X-Session-Token`: another session's token is
 * 403). Other 403s refuse a caller who did authenticate (an operator on an admin route, an action
 * from another origin, a host or widget origin not allowed): they are not guesses, and counting them
 * would let one operator's page loads lock out everyone behind the same address.
 *
 * A request's failure is counted when its answer is known, so requests sent at once all pass the
 * check before the first fails. That costs nothing against random tokens, but a password check is
 * slow (scrypt) and worth guessing: a route that checks one claims its slot first
 * (`claimAuthAttempt`), counted as a failure until the password is right, so at most `max` guesses
 * per window are ever checked, however many arrive together.
 */
export function limitAuthFailures(
  options: RateLimitOptions,
  now: () => number = Date.now,
): MiddlewareHandler {
  const failures = new FixedWindows(options, now);
  const keyOf = options.key ?? clientAddress;
  const refused = (retryAfter: number) =>
    rateLimited(
      `Too many failed authentications from this client: at most ${options.max} per ${options.windowMs} ms.`,
      retryAfter,
    );
  return async (c, next) => {
    const key = keyOf(c);
    const retryAfter = failures.exceeded(key);
    if (retryAfter !== null) throw refused(retryAfter);
    let claimed = false;
    c.set('authAttempt', () => {
      const over = failures.add(key);
      if (over !== null) {
        failures.remove(key);
        throw refused(over);
      }
      claimed = true;
      let settled = false;
      return {
        succeeded: () => {
          if (!settled) failures.remove(key);
          settled = true;
        },
      };
    });
    await next();
    if (!claimed && failedAuthentication(c)) failures.add(key);
  };
}

/** Whether the answer to `c` refused its credential (a wrong session token is 403: `checkSessionToken`). */
function failedAuthentication(c: Context): boolean {
  if (c.res.status === 401) return true;
  return c.res.status === 403 && c.req.header(SESSION_TOKEN_HEADER) !== undefined;
}

/**
 * Claims a failed-authentication slot before a slow credential check (a password): counted as a
 * failure until `succeeded()`, refused with 429 when the client has none left. Without
 * `limitAuthFailures` in front (the limit turned off), a claim counts nothing.
 */
export function claimAuthAttempt(c: Context): AuthAttempt {
  const claim = c.get('authAttempt') as (() => AuthAttempt) | undefined;
  return claim ? claim() : { succeeded: () => {} };
}
