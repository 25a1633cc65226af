import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt cost of new hashes: N=2^15, r=8, p=1 (32 MiB, tens of milliseconds per login). */
const COST = { N: 32768, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const PREFIX = 'scrypt';

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N, r, p, maxmem: 256 * N * r }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/**
 * The hash of an operator's password, to put in the operators file (`passwordHash`):
 * `scrypt$<N>$<r>$<p>$<salt>$<key>` (base64url), with a random 128-bit salt. The password itself
 * is never stored.
 *
 * @example
 * const passwordHash = await hashOperatorPassword('correct horse battery staple');
 */
export async function hashOperatorPassword(password: string): Promise<string> {
  if (password.length < 12) {
    throw new Error('An operator password needs at least 12 characters; choose a longer one.');
  }
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST.N, COST.r, COST.p);
  return [PREFIX, COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `hash` has the shape `hashOperatorPassword` writes (checked when the operators are loaded). */
export function isOperatorPasswordHash(hash: string): boolean {
  const parts = hash.split('$');
  if (parts.length !== 6 || parts[0] !== PREFIX) return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  return (
    Number.isInteger(N) &&
    N >= 1024 &&
    N <= 1_048_576 &&
    (N & (N - 1)) === 0 &&
    Number.isInteger(r) &&
    r >= 1 &&
    r <= 32 &&
    Number.isInteger(p) &&
    p >= 1 &&
    p <= 16 &&
    Buffer.from(parts[4]!, 'base64url').length >= 16 &&
    Buffer.from(parts[5]!, 'base64url').length === KEY_LENGTH
  );
}

/** Whether `password` matches `hash` (compared in constant time); `false` for a malformed hash. */
export async function verifyOperatorPassword(password: string, hash: string): Promise<boolean> {
  if (!isOperatorPasswordHash(hash)) return false;
  const [, N, r, p, salt, key] = hash.split('$') as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64url');
  const actual = await derive(password, Buffer.from(salt, 'base64url'), Number(N), Number(r), Number(p));
  return timingSafeEqual(expected, actual);
}

/**
 * A hash no password matches, verified against when the login names no operator, so that an unknown
 * login takes as long as a wrong password (the response time does not reveal which logins exist).
 */
export const DECOY_PASSWORD_HASH = `${PREFIX}$${COST.N}$${COST.r}$${COST.p}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH).toString('base64url')}`;
