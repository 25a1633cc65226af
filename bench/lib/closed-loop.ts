import { newSession, say } from '../../packages/cli/src/test-support/cluster.js';
import { quantile } from './stats.js';

/** What a closed-loop run through the HTTP API measured. */
export interface LoopResult {
  /** Turns answered in the measured seconds. */
  turns: number;
  /** Turns answered in all, the warm-up's included (what the store received). */
  allTurns: number;
  turnsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers other than 200, and requests that got no answer. */
  errors: number;
}

/**
 * `clients` sequential clients, one session each, sending `message(client, i)` to
 * `POST /api/v1/sessions/:id/messages` at `url` as fast as the answers come: a warm-up (not counted),
 * then `seconds` measured. The load generator runs in this process and shares the cores.
 */
export async function closedLoop(
  url: string,
  options: {
    clients: number;
    seconds: number;
    warmupSeconds: number;
    message: (client: number, i: number) => string;
  },
): Promise<LoopResult> {
  const sessions = await Promise.all(Array.from({ length: options.clients }, () => newSession(url)));
  const latencies: number[] = [];
  let errors = 0;
  let allTurns = 0;
  let measuring = false;
  const start = Date.now();
  const warm = start + options.warmupSeconds * 1000;
  const end = warm + options.seconds * 1000;
  await Promise.all(
    sessions.map(async (session, c) => {
      for (let i = 0; Date.now() < end; i++) {
        const sent = performance.now();
        const ok = await say(url, session, options.message(c, i)).then(
          (result) => result.status === 200,
          () => false,
        );
        if (ok) allTurns++;
        measuring = Date.now() >= warm;
        if (!measuring) continue;
        if (ok) latencies.push(performance.now() - sent);
        else errors++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    turns: latencies.length,
    allTurns,
    turnsPerSecond: latencies.length / options.seconds,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    errors,
  };
}
