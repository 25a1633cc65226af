import type { ExpiryCutoff, SessionTokens } from './session-tokens.js';

/** When sessions expire, and how often expired ones are deleted. */
export interface SessionExpiryOptions {
  /** A session not used for this long expires. Default 7 days. */
  idleTimeoutMs?: number;
  /**
   * A session expires this long after its creation, however active: the retention of conversation
   * data (history, state, files, turn facts), which the sweep deletes. Default 30 days.
   */
  absoluteTimeoutMs?: number;
  /** How often expired sessions are deleted (history, state, files, token). Default 60 000; 0 turns the sweep off. */
  sweepIntervalMs?: number;
}

export type ResolvedExpiry = Required<SessionExpiryOptions>;

const DAY = 24 * 60 * 60 * 1000;

export function resolveExpiry(options: SessionExpiryOptions = {}): ResolvedExpiry {
  return {
    idleTimeoutMs: options.idleTimeoutMs ?? 7 * DAY,
    absoluteTimeoutMs: options.absoluteTimeoutMs ?? 30 * DAY,
    sweepIntervalMs: options.sweepIntervalMs ?? 60_000,
  };
}

export function expiryCutoff(expiry: ResolvedExpiry, now: Date): ExpiryCutoff {
  return {
    idleBefore: new Date(now.getTime() - expiry.idleTimeoutMs),
    createdBefore: new Date(now.getTime() - expiry.absoluteTimeoutMs),
  };
}

/** Uses are recorded at most this often per session (one write a minute, not one per request). */
const TOUCH_EVERY_MS = 60_000;

/**
 * Whether a session tracked by `tokens` has expired; records the use when it has not (idle expiry
 * counts from the last use). Stores without `info` never expire sessions.
 */
export async function isExpired(
  tokens: SessionTokens,
  sessionId: string,
  expiry: ResolvedExpiry,
  now: Date,
): Promise<boolean> {
  const info = await tokens.info?.(sessionId);
  if (!info) return false;
  const cutoff = expiryCutoff(expiry, now);
  if (info.lastUsedAt < cutoff.idleBefore || info.createdAt < cutoff.createdBefore) return true;
  if (now.getTime() - info.lastUsedAt.getTime() >= TOUCH_EVERY_MS) await tokens.touch?.(sessionId, now);
  return false;
}

/**
 * Deletes expired sessions: claims them from `tokens` in batches (atomically, so sweepers in
 * several processes share the work without doing any session twice) and deletes each one's data.
 * Returns how many were deleted.
 */
export async function sweepExpired(
  tokens: SessionTokens,
  deleteSession: (sessionId: string) => Promise<void>,
  expiry: ResolvedExpiry,
  now: Date,
  batch = 100,
): Promise<number> {
  if (!tokens.claimExpired) return 0;
  let deleted = 0;
  for (;;) {
    const ids = await tokens.claimExpired(expiryCutoff(expiry, now), batch);
    for (const id of ids) {
      await deleteSession(id);
      deleted++;
    }
    if (ids.length < batch) return deleted;
  }
}
