import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../errors/api-error.js';
import { verifyUserSignature } from './widget-identity.js';
import type { WidgetServerOptions } from './widget-options.js';

/** The header with the signature of the user id a cross-origin session is created for. */
export const USER_SIGNATURE_HEADER = 'X-User-Signature';

const SESSION_PATH = /^\/api\/v1\/sessions(?:\/|$)/;
const ALLOWED_HEADERS = ['Content-Type', 'Accept', 'X-Session-Token', USER_SIGNATURE_HEADER].join(', ');

/**
 * The widget's access to the session routes from the sites of `origins`: CORS (preflight
 * included) for them, 403 `ORIGIN_NOT_ALLOWED` for any other origin; and for a session created from
 * another origin for a `userId`, the user's signature checked (401 `IDENTITY_REFUSED` when it does
 * not match). Requests without `Origin`, or from the server's own origin, pass unchanged — but for
 * one: on a deployment without `apiKeys` and with an identity secret, a session for a `userId` asked
 * that way needs the user's signature too (else a `curl` without an `Origin` would borrow any user's
 * id: nothing else vouches for it there; with `apiKeys`, the key of the backend does). On a server
 * with `apiKeys`, the widget's requests (which carry no key) are refused with 403
 * `WIDGET_NOT_ALLOWED` unless `allowWithoutApiKey` (then `widgetSkipsApiKey` exempts them).
 */
export function widgetAccess(options: WidgetServerOptions, apiKeys = false): MiddlewareHandler {
  if (options.identitySecret !== undefined && options.identitySecret.length < 32)
    throw new TypeError(
      `The widget's identity secret has ${options.identitySecret.length} characters: use at least 32 random ones (openssl rand -hex 32).`,
    );
  const origins = new Set(options.origins.map(normalizeOrigin));
  return async (c, next) => {
    const origin = crossOrigin(c);
    if (!origin) {
      if (!apiKeys && options.identitySecret !== undefined && createsSession(c))
        await checkIdentity(c.req.raw, options.identitySecret, {});
      return next();
    }
    const cors = {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Expose-Headers': 'Retry-After',
      Vary: 'Origin',
    };
    const preflight = () =>
      c.body(null, 204, {
        ...cors,
        'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': '600',
      });
    if (!origins.has(normalizeOrigin(origin))) {
      // The refusal is readable by the site that made the request (its preflight passes, its
      // request gets the 403 with CORS), so that the widget's `error` event says why instead of a
      // network failure that retrying never mends. Nothing but the refusal is ever answered to it.
      if (c.req.method === 'OPTIONS') return preflight();
      throw new ApiError(
        403,
        'ORIGIN_NOT_ALLOWED',
        `The widget is not allowed on ${origin}: add it to the deployment's widget origins (treeagent serve --widget-origin ${origin}, or the server option widget.origins).`,
        { headers: cors },
      );
    }
    if (c.req.method === 'OPTIONS') return preflight();
    if (apiKeys && !options.allowWithoutApiKey && !c.req.header('authorization')) {
      throw new ApiError(
        403,
        'WIDGET_NOT_ALLOWED',
        `This deployment requires API keys, and the widget on ${origin} has none (a key in a web page would be public): allow the widget to create and use sessions without a key with treeagent serve --widget-without-api-key (or the server option widget.allowWithoutApiKey). Its sessions stay private to their token; the other API routes still need a key.`,
        { headers: cors },
      );
    }
    if (createsSession(c)) await checkIdentity(c.req.raw, options.identitySecret, cors);
    try {
      await next();
    } finally {
      for (const [name, value] of Object.entries(cors)) c.res.headers.set(name, value);
    }
  };
}

/**
 * Whether the API key guard lets `c` pass without a key: a request of the widget (from one of the
 * listed origins, to the session routes) on a deployment that allows it (`allowWithoutApiKey`).
 */
export function widgetSkipsApiKey(options: WidgetServerOptions | undefined): (c: Context) => boolean {
  if (!options?.allowWithoutApiKey) return () => false;
  const origins = new Set(options.origins.map(normalizeOrigin));
  return (c) => {
    const origin = crossOrigin(c);
    return origin !== null && origins.has(normalizeOrigin(origin));
  };
}

/** Whether `c` asks for a new session (`POST /api/v1/sessions`). */
function createsSession(c: Context): boolean {
  return c.req.method === 'POST' && c.req.path.replace(/\/$/, '') === '/api/v1/sessions';
}

/** The `Origin` of a request to the session routes from another site, or `null`. */
function crossOrigin(c: Context): string | null {
  const origin = c.req.header('origin');
  if (!origin || !SESSION_PATH.test(c.req.path) || origin === new URL(c.req.url).origin) return null;
  return origin;
}

async function checkIdentity(
  request: Request,
  secret: string | undefined,
  headers: Record<string, string>,
): Promise<void> {
  let userId: unknown;
  try {
    userId = ((await request.clone().json()) as { userId?: unknown } | null)?.userId;
  } catch {
    return; // No JSON body: an anonymous session (the route says what is wrong with a bad body).
  }
  if (typeof userId !== 'string') return;
  if (!secret) {
    throw new ApiError(
      401,
      'IDENTITY_REFUSED',
      'This deployment has no widget identity secret, so identify() cannot be verified: set one (treeagent serve --widget-secret-file, or the server option widget.identitySecret) and sign user ids with it on your backend.',
      { headers },
    );
  }
  const signature = request.headers.get(USER_SIGNATURE_HEADER) ?? '';
  if (!verifyUserSignature(userId, signature, secret)) {
    throw new ApiError(
      401,
      'IDENTITY_REFUSED',
      `The signature of user id "${userId}" does not match: compute it on your backend as the hex HMAC-SHA256 of the user id with the deployment's widget secret (docs/widget.md), and pass it to identify({ userId, signature }).`,
      { headers },
    );
  }
}

/** `https://Shop.example.com:443/` → `https://shop.example.com`. */
function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin;
  }
}
