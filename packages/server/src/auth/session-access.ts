import type { MiddlewareHandler } from 'hono';
import { ApiError, notFound } from '../errors/api-error.js';
import { secretMatches } from './secrets.js';
import { isExpired, type ResolvedExpiry } from './session-expiry.js';
import type { SessionTokens } from './session-tokens.js';

/** Header that carries a session's token. */
export const SESSION_TOKEN_HEADER = 'x-session-token';

/** Ids the server generates (UUIDs) and accepts: letters, digits, `-` and `_`, at most 128. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * Checks that the caller may use `sessionId`: the session exists (created by `POST /sessions`)
 * and `token` is its token. Unknown session: 404; no token: 401; another session's token: 403.
 */
export async function checkSessionAccess(
  tokens: SessionTokens,
  sessionId: string,
  token: string | undefined,
  expired: () => Promise<boolean> = async () => false,
): Promise<void> {
  const hash = SESSION_ID.test(sessionId) ? await tokens.find(sessionId) : null;
  if (hash === null) {
    throw notFound(`There is no session "${sessionId}". Create one with POST /api/v1/sessions.`);
  }
  checkSessionToken(hash, token);
  if (await expired()) {
    throw notFound(
      `The session "${sessionId}" has expired (idle or too old) and its data is being deleted. Create a new one with POST /api/v1/sessions.`,
    );
  }
}

/** Checks a presented session token against the session's token hash: 401 when absent, 403 when wrong. */
export function checkSessionToken(hash: string, token: string | undefined): void {
  if (!token) {
    throw new ApiError(
      401,
      'UNAUTHORIZED',
      'This session requires its token: send the header "X-Session-Token" with the token returned by POST /api/v1/sessions.',
    );
  }
  if (!secretMatches(token, hash)) {
    throw new ApiError(403, 'FORBIDDEN', 'The session token does not belong to this session.');
  }
}

/**
 * The guard of a `session` route area: the request's session (route parameter `id`) exists, has not
 * expired, and the request carries its token.
 */
export function requireSessionToken(services: {
  tokens: SessionTokens;
  expiry: ResolvedExpiry;
}): MiddlewareHandler {
  return async (c, next) => {
    const sessionId = c.req.param('id')!;
    await checkSessionAccess(services.tokens, sessionId, c.req.header(SESSION_TOKEN_HEADER), () =>
      isExpired(services.tokens, sessionId, services.expiry, new Date()),
    );
    await next();
  };
}
