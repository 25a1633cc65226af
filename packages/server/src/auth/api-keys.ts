import type { Context, MiddlewareHandler } from 'hono';
import { ApiError } from '../errors/api-error.js';
import { hashSecret, secretMatches } from './secrets.js';

/** The API key of a request: the token of `Authorization: Bearer <key>`, or `null`. */
export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match ? match[1]! : null;
}

/**
 * Requires `Authorization: Bearer <key>` with one of `keys`. Keys are kept hashed and every key
 * is compared (in constant time), so the response time does not reveal which key came close.
 * A request `exempt` says needs no key passes (the widget's, when the deployment allows it).
 */
export function requireApiKey(
  keys: readonly string[],
  exempt: (c: Context) => boolean = () => false,
): MiddlewareHandler {
  const hashes = keys.map(hashSecret);
  return async (c, next) => {
    if (exempt(c)) return next();
    const presented = bearerToken(c.req.header('authorization'));
    if (presented === null) {
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        'This server requires an API key: send the header "Authorization: Bearer <key>".',
        { headers: { 'WWW-Authenticate': 'Bearer' } },
      );
    }
    let valid = false;
    for (const hash of hashes) valid = secretMatches(presented, hash) || valid;
    if (!valid) {
      throw new ApiError(401, 'UNAUTHORIZED', 'The API key is not valid.', {
        headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      });
    }
    await next();
  };
}
