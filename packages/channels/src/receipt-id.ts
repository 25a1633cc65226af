import { createHash } from 'node:crypto';

/**
 * The receipt id of a platform update made of the platform's ids (a conversation and a message in
 * it): stable on every redelivery, and a hash, so the conversation's id never shows in receipts or
 * in the server's logs.
 */
export function receiptId(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, 32);
}
