import type { AnalyticsStore } from '@treeagent/core/adapter';
import type { ResolvedExpiry } from '../auth/session-expiry.js';

/** Facts deleted per statement by the retention sweep, so no write waits long for it. */
export const PURGE_BATCH = 5000;

/**
 * The retention of turn facts (docs/privacy.md): deletes the facts of turns older than the absolute
 * session timeout (`sessions.absoluteTimeoutMs`, default 30 days) — the same retention as the
 * conversations the session sweep deletes, for the facts no session holds any more (a failed first
 * turn, sessions the server's tokens do not track). In batches of `PURGE_BATCH`; returns how many.
 */
export async function purgeExpiredFacts(
  store: AnalyticsStore | null,
  expiry: ResolvedExpiry,
  now: Date,
): Promise<number> {
  if (!store) return 0;
  const before = new Date(now.getTime() - expiry.absoluteTimeoutMs).toISOString();
  let purged = 0;
  for (;;) {
    const batch = await store.purgeFacts(before, PURGE_BATCH);
    purged += batch;
    if (batch < PURGE_BATCH) return purged;
  }
}
