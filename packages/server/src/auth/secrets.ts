import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new random secret (256 bits, base64url): session tokens. */
export function createSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 of a secret, hex-encoded: what stores keep instead of the secret itself. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/**
 * Whether `secret` hashes to `expectedHash`, compared in constant time (both sides are 32-byte
 * digests, so the comparison time depends on neither the secret nor its length).
 */
export function secretMatches(secret: string, expectedHash: string): boolean {
  const expected = Buffer.from(expectedHash, 'hex');
  const actual = createHash('sha256').update(secret, 'utf8').digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
