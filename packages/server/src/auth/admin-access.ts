import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors/api-error.js';
import { bearerToken } from './api-keys.js';
import { hashSecret, secretMatches } from './secrets.js';

/**
 * The one gate of the operator and admin functions — analytics, conversation review, labelling,
 * personal data export and deletion (docs/analytics.md, docs/security.md): `Authorization: Bearer
 * <admin key>` with one of `adminKeys`. A session token never opens it (it is not even read), nor
 * does an ordinary API key (403). Without admin keys configured every call is 403 and says how to
 * configure one. Keys are compared hashed, in constant time, every key each time.
 */
export function requireAdmin(adminKeys: readonly string[]): MiddlewareHandler {
  const hashes = adminKeys.map(hashSecret);
  return async (c, next) => {
    if (hashes.length === 0) {
      throw new ApiError(
        403,
        'FORBIDDEN',
        'Analytics, review and personal data requests need an admin key, and this server has none: start it with adminKeys (treeagent dev --admin-key <key>, or TREEAGENT_ADMIN_KEY).',
      );
    }
    const presented = bearerToken(c.req.header('authorization'));
    if (presented === null) {
      throw new ApiError(
        401,
        'UNAUTHORIZED',
        'This is an admin function: send "Authorization: Bearer <admin key>". A session token does not give access.',
        { headers: { 'WWW-Authenticate': 'Bearer realm="admin"' } },
      );
    }
    let valid = false;
    for (const hash of hashes) valid = secretMatches(presented, hash) || valid;
    if (!valid) {
      throw new ApiError(
        403,
        'FORBIDDEN',
        'This key is not an admin key: analytics and review need one of the adminKeys.',
      );
    }
    await next();
  };
}
