import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnalyticsStore } from '@treeagent/core/adapter';
import type { TurnFact } from '@treeagent/core/analytics';
import { SqliteSessionStore } from '@treeagent/sqlite';
import { describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../../core/src/test-support/cleanups-after-each.js';
import { resolveExpiry } from '../auth/session-expiry.js';
import { createSession, postMessage, testAgent, testApp } from '../test-support/fixtures.js';
import { PURGE_BATCH, purgeExpiredFacts } from './fact-retention.js';

const DAY = 24 * 60 * 60 * 1000;
const cleanups = cleanupsAfterEach();

function sqliteStore() {
  const dir = mkdtempSync(join(tmpdir(), 'treeagent-retention-'));
  const store = new SqliteSessionStore(join(dir, 'treeagent.db'));
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}

/** A failed first turn's fact (no session holds it) at `at`. */
function orphanFact(sessionId: string, at: Date): TurnFact {
  return {
    sessionId,
    turn: 1,
    at: at.toISOString(),
    treeVersion: 'v1',
    status: 'error',
    errorCode: 'CALLBACK',
    nodeId: null,
    agentId: 2,
    bestSimilarity: null,
    minMargin: null,
    lowMarginNodeId: null,
    lowMarginChildId: null,
    lowMarginRunnerUpId: null,
    failCounter: 0,
    latencyMs: 5,
    inputTokens: null,
    outputTokens: null,
    message: 'old',
    decisions: [],
  };
}

describe('retention of conversations and their turn facts (sessions.absoluteTimeoutMs)', () => {
  it('the sweep deletes expired sessions with their facts, and facts older than the retention, on a fake clock', async () => {
    const sessionStore = sqliteStore();
    const { app } = testApp({
      agent: testAgent({ sessionStore }),
      sessions: { absoluteTimeoutMs: 30 * DAY, idleTimeoutMs: 60 * DAY, sweepIntervalMs: 0 },
    });
    const analytics = sessionStore.analytics();
    const now = new Date();
    await sessionStore.recordFacts([
      orphanFact('gone-40d', new Date(now.getTime() - 40 * DAY)),
      orphanFact('kept-10d', new Date(now.getTime() - 10 * DAY)),
    ]);
    const session = await createSession(app);
    expect((await postMessage(app, session, { message: 'hello' })).status).toBe(200);

    // Today: the 40-day-old fact is past the retention; the 10-day-old one and today's turn are not.
    expect(await app.sweepExpiredSessions(now)).toBe(0);
    expect(await analytics.turns('gone-40d')).toEqual([]);
    expect(await analytics.turns('kept-10d')).toHaveLength(1);
    expect(await analytics.turns(session.sessionId)).toHaveLength(1);

    // 31 days later: the session is past its absolute timeout — it goes with its facts; so does the
    // 10-day-old fact (now 41 days old).
    const later = new Date(now.getTime() + 31 * DAY);
    expect(await app.sweepExpiredSessions(later)).toBe(1);
    expect(await sessionStore.load(session.sessionId)).toBeNull();
    expect(await analytics.turns(session.sessionId)).toEqual([]);
    expect(await analytics.turns('kept-10d')).toEqual([]);
  });

  it('the background sweep purges old facts by itself', async () => {
    const sessionStore = sqliteStore();
    const { app } = testApp({
      agent: testAgent({ sessionStore }),
      sessions: { absoluteTimeoutMs: DAY, sweepIntervalMs: 40 },
    });
    cleanups.push(() => app.shutdown().then(() => {}));
    await sessionStore.recordFacts([orphanFact('old', new Date(Date.now() - 2 * DAY))]);
    const analytics = sessionStore.analytics();
    for (let waited = 0; waited < 3000 && (await analytics.turns('old')).length > 0; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await analytics.turns('old')).toEqual([]);
  });

  it('purges in batches until a batch comes back short (a recording mock store)', async () => {
    const calls: [string, number | undefined][] = [];
    let left = 2 * PURGE_BATCH + 7;
    const store = {
      purgeFacts: async (before: string, limit?: number) => {
        calls.push([before, limit]);
        const purged = Math.min(left, limit ?? left);
        left -= purged;
        return purged;
      },
    } as unknown as AnalyticsStore;
    const now = new Date('2026-12-01T00:00:00.000Z');
    expect(await purgeExpiredFacts(store, resolveExpiry({ absoluteTimeoutMs: 30 * DAY }), now)).toBe(
      2 * PURGE_BATCH + 7,
    );
    expect(calls).toEqual([
      ['2026-11-01T00:00:00.000Z', PURGE_BATCH],
      ['2026-11-01T00:00:00.000Z', PURGE_BATCH],
      ['2026-11-01T00:00:00.000Z', PURGE_BATCH],
    ]);
    expect(await purgeExpiredFacts(null, resolveExpiry(), now)).toBe(0);
  });
});
