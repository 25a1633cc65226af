import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The signature of a user id for the widget's `identify()`: HMAC-SHA256 of the id with the
 * deployment's widget secret, in hex. A site's backend computes it (never the browser: the secret
 * would be public) and hands it to the page with the user id.
 *
 * @example
 * const signature = signUserId(user.id, process.env.TREEAGENT_WIDGET_SECRET!);
 * // in the page: TreeAgentWidget.identify({ userId: user.id, signature })
 */
export function signUserId(userId: string, secret: string): string {
  return createHmac('sha256', secret).update(userId, 'utf8').digest('hex');
}

/** Whether `signature` is the signature of `userId` with `secret` (compared in constant time). */
export function verifyUserSignature(userId: string, signature: string, secret: string): boolean {
  const expected = Buffer.from(signUserId(userId, secret), 'hex');
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, 'hex') : null;
  return given !== null && given.length === expected.length && timingSafeEqual(given, expected);
}
