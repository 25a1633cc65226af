import type { AnalyticsStore } from '@treeagent/core/adapter';
import { purgeExpiredFacts } from '../analytics/fact-retention.js';
import type { Services } from '../services.js';
import { sweepExpired } from './session-expiry.js';

/** The expiry sweep of `createApp`: run now (`sweep`), or stop the background one. */
export interface SessionSweeper {
  /** Deletes the expired sessions and the turn facts past the retention; resolves to the sessions deleted. */
  sweep(now?: Date): Promise<number>;
  stop(): void;
}

/**
 * One sweep, one retention (sessions.absoluteTimeoutMs): expired sessions with their history, files,
 * turn facts and handoff queue entry, then the turn facts older than the retention that no session
 * holds (docs/privacy.md). Runs every `sweepIntervalMs` in the background when there is something to sweep.
 */
export function startSessionSweeper(
  services: Services,
  analytics: AnalyticsStore | undefined,
): SessionSweeper {
  const facts =
    analytics ?? (services.agent.sessionStore as { analytics?: () => AnalyticsStore }).analytics?.() ?? null;
  const sweep = async (now: Date = new Date()) => {
    const deleted = await sweepExpired(
      services.tokens,
      async (id) => {
        await services.agent.deleteSession(id);
        await services.handoffs.forget(id);
        await services.channels?.forget([id]);
        services.streams.endSession(id, 'session expired');
      },
      services.expiry,
      now,
    );
    await purgeExpiredFacts(facts, services.expiry, now);
    return deleted;
  };
  // One sweep at a time: a tick while the last one runs does nothing.
  let sweeping = false;
  const timer =
    services.expiry.sweepIntervalMs > 0 && (services.tokens.claimExpired || facts)
      ? setInterval(() => {
          if (sweeping) return;
          sweeping = true;
          sweep()
            .catch((error) =>
              services.logger.error('Deleting expired sessions failed; the next sweep retries', error),
            )
            .finally(() => {
              sweeping = false;
            });
        }, services.expiry.sweepIntervalMs)
      : null;
  timer?.unref?.();
  return {
    sweep,
    stop: () => {
      if (timer) clearInterval(timer);
    },
  };
}
