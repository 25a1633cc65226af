import { createHmac, timingSafeEqual } from 'node:crypto';

/** Meta's header with the HMAC-SHA256 of the raw body under the app secret: `sha256=<hex>`. */
export const META_SIGNATURE_HEADER = 'x-hub-signature-256';

/** The `X-Hub-Signature-256` value of `body` (what Meta sends and a test signs with). */
export function signMetaBody(appSecret: string, body: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(body, 'utf8').digest('hex')}`;
}

/** Whether `header` is the signature of `body` (compared in constant time). */
export function metaSignatureMatches(appSecret: string, body: string, header: string | null): boolean {
  if (!header) return false;
  const expected = Buffer.from(signMetaBody(appSecret, body));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
