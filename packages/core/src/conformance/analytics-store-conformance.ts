import { describe, expect } from 'vitest';
import type { AnalyticsStore } from '../analytics/analytics-store.js';
import { emptySessionRecord, type SessionRecord, type SessionStore } from '../session/session-store.js';
import { ANALYTICS_EXPECTED, ANALYTICS_FIXTURE } from './analytics-fixture.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A fresh, empty session store that keeps turn facts, and its analytics (with the given clock). */
export type AnalyticsStoreFactory = () => Promise<{
  store: SessionStore;
  analytics: (now: () => Date) => AnalyticsStore;
  dispose?: () => Promise<void>;
}>;

const NOW = () => new Date('2026-11-03T12:00:00.000Z');

/** Writes the fixture the way the engine does: each turn's fact in its commit; the failed turn's with `recordFacts`. */
async function writeFixture(store: SessionStore): Promise<void> {
  for (const conversation of ANALYTICS_FIXTURE) {
    if (conversation.failed) {
      await store.recordFacts!(conversation.facts);
      continue;
    }
    let record: SessionRecord = emptySessionRecord(conversation.sessionId, conversation.facts[0]!.at);
    for (const fact of conversation.facts) {
      const next = { ...record, version: record.version + 1, turn: fact.turn, updatedAt: fact.at };
      await store.commit({
        record: next,
        history: [{ role: 'user', content: fact.message, turn: fact.turn, at: fact.at }],
        expectedVersion: record.version,
        facts: [fact],
      });
      record = next;
    }
  }
}

/**
 * The analytics conformance suite: every store that keeps turn facts (SQLite, PostgreSQL) runs it
 * on the same generated conversations, so each report figure is checked against a known answer and
 * both stores give the same numbers.
 */
export function describeAnalyticsStore(
  name: string,
  factory: AnalyticsStoreFactory,
  options: ConformanceOptions = {},
): void {
  const cases = conformanceCases(`AnalyticsStore conformance of ${name}`, options);
  const withFixture =
    (body: (analytics: AnalyticsStore, store: SessionStore) => Promise<void>) => async () => {
      const { store, analytics, dispose } = await factory();
      try {
        await writeFixture(store);
        await body(analytics(NOW), store);
      } finally {
        await dispose?.();
      }
    };
  const expected = ANALYTICS_EXPECTED;

  describe(`AnalyticsStore conformance: ${name}`, () => {
    cases.test(
      'every report figure over the fixture is the known answer',
      withFixture(async (analytics) => {
        const report = await analytics.report(expected.filter);
        expect(report.filter).toEqual({ ...expected.filter, treeVersion: null, lowMargin: 0.05 });
        expect(report.totals).toEqual({
          ...expected.totals,
          containmentRate: expect.closeTo(expected.totals.containmentRate, 10),
          noMatchRate: expect.closeTo(expected.totals.noMatchRate, 10),
          fallbackRate: expect.closeTo(expected.totals.fallbackRate, 10),
          errorRate: expect.closeTo(expected.totals.errorRate, 10),
          lowMarginRate: expect.closeTo(expected.totals.lowMarginRate, 10),
        });
        expect(report.perDay).toEqual(expected.perDay);
        expect(report.perNode).toEqual(expected.perNode);
        expect(report.perAgent).toEqual(expected.perAgent);
        expect(report.lowMargin).toEqual(expected.lowMargin);
        expect(report.latency).toEqual(expected.latency);
        expect(report.versions).toEqual(expected.versions);
      }),
    );

    cases.test(
      'the tree version and the date range filter every figure',
      withFixture(async (analytics) => {
        const v2 = await analytics.report({ ...expected.filter, treeVersion: 'v2' });
        expect(v2.totals).toMatchObject(expected.v2);
        expect(v2.versions).toEqual(expected.versions);
        const firstDay = await analytics.report({ from: '2026-11-01', to: '2026-11-01' });
        expect(firstDay.totals).toMatchObject({
          conversations: 2,
          turns: 4,
          noMatch: 1,
          contained: 1,
          abandoned: 1,
        });
        expect(firstDay.perDay.map((day) => day.day)).toEqual(['2026-11-01']);
        const none = await analytics.report({ from: '2026-10-01', to: '2026-10-31' });
        expect(none.totals).toMatchObject({ conversations: 0, turns: 0, containmentRate: 0 });
        expect(none.latency).toEqual({ p50: 0, p90: 0, p95: 0, p99: 0, mean: 0, max: 0 });
      }),
    );

    cases.test(
      'the default range is the last 30 days up to today (the clock)',
      withFixture(async (analytics) => {
        const report = await analytics.report();
        expect(report.filter).toMatchObject({ from: '2026-10-05', to: '2026-11-03' });
        expect(report.totals.turns).toBe(10);
      }),
    );

    cases.test(
      'a malformed range is refused with how to fix it',
      withFixture(async (analytics) => {
        await expect(analytics.report({ from: '3 novembre' })).rejects.toThrow(/YYYY-MM-DD/);
        await expect(analytics.report({ from: '2026-11-03', to: '2026-11-01' })).rejects.toThrow(/swap/);
      }),
    );

    cases.test(
      'unmatched messages: no match and fallbacks without an error, most frequent first',
      withFixture(async (analytics) => {
        expect(await analytics.unmatched(expected.filter)).toEqual(expected.unmatched);
        expect(await analytics.unmatched({ ...expected.filter, limit: 1 })).toHaveLength(1);
      }),
    );

    cases.test(
      'conversation review: search by text, node and status, newest first, paged',
      withFixture(async (analytics) => {
        const all = await analytics.conversations(expected.filter);
        expect(all.map((c) => c.sessionId)).toEqual(['s6', 's5', 's4', 's3', 's2', 's1']);
        expect(all.find((c) => c.sessionId === 's2')).toMatchObject({
          turns: 2,
          noMatch: 1,
          lastStatus: 'no-match',
          firstMessage: 'orari',
          firstAt: '2026-11-01T10:02:00.000Z',
          lastAt: '2026-11-01T10:03:00.000Z',
        });
        const luna = await analytics.conversations({ ...expected.filter, text: 'LUNA' });
        expect(luna.map((c) => c.sessionId)).toEqual(['s6', 's3']);
        expect(
          (await analytics.conversations({ ...expected.filter, nodeId: 7 })).map((c) => c.sessionId),
        ).toEqual(['s4']);
        expect(
          (await analytics.conversations({ ...expected.filter, status: 'error' })).map((c) => c.sessionId),
        ).toEqual(['s5']);
        expect((await analytics.conversations({ ...expected.filter, text: '100%' })).length).toBe(0);
        const page = await analytics.conversations({ ...expected.filter, limit: 2, offset: 2 });
        expect(page.map((c) => c.sessionId)).toEqual(['s4', 's3']);
      }),
    );

    cases.test(
      "a transcript's facts come back whole, by turn",
      withFixture(async (analytics) => {
        const facts = await analytics.turns('s1');
        const written = ANALYTICS_FIXTURE[0]!.facts;
        expect(facts).toEqual(written.map((fact) => ({ ...fact, label: null })));
      }),
    );

    cases.test(
      'labels: set, changed, listed oldest first, removed; an unknown turn is refused',
      withFixture(async (analytics) => {
        expect(await analytics.label('s2', 2, 'parking', '2026-11-04T09:00:00.000Z')).toBe(true);
        expect(await analytics.label('s3', 1, 'none', '2026-11-04T09:01:00.000Z')).toBe(true);
        expect(await analytics.label('s9', 1, 'none', '2026-11-04T09:02:00.000Z')).toBe(false);
        expect(await analytics.labels()).toEqual([
          {
            sessionId: 's2',
            turn: 2,
            message: 'dove posso parcheggiare?',
            label: 'parking',
            labelledAt: '2026-11-04T09:00:00.000Z',
          },
          {
            sessionId: 's3',
            turn: 1,
            message: 'quanto costa la luna',
            label: 'none',
            labelledAt: '2026-11-04T09:01:00.000Z',
          },
        ]);
        expect((await analytics.turns('s2'))[1]!.label).toBe('parking');
        expect(await analytics.label('s2', 2, null, '2026-11-04T09:03:00.000Z')).toBe(true);
        expect((await analytics.labels()).map((l) => l.sessionId)).toEqual(['s3']);
      }),
    );

    cases.test(
      'a refused commit writes no fact; deleting a session deletes its facts',
      withFixture(async (analytics, store) => {
        const stale = { ...emptySessionRecord('s1', '2026-11-03T11:00:00.000Z'), version: 1, turn: 3 };
        const fact = { ...ANALYTICS_FIXTURE[0]!.facts[0]!, turn: 3, message: 'perso' };
        await expect(
          store.commit({ record: stale, history: [], expectedVersion: 0, facts: [fact] }),
        ).rejects.toThrow();
        expect((await analytics.turns('s1')).map((f) => f.turn)).toEqual([1, 2]);
        await store.delete('s4');
        expect(await analytics.turns('s4')).toEqual([]);
        expect((await analytics.report(expected.filter)).totals.handedOff).toBe(0);
      }),
    );

    cases.test(
      'a failed turn and its retry (same turn number) both keep their fact',
      withFixture(async (analytics, store) => {
        const failed = {
          ...ANALYTICS_FIXTURE[0]!.facts[1]!,
          turn: 3,
          at: '2026-11-01T10:05:00.000Z',
          status: 'error' as const,
          errorCode: 'TIMEOUT',
        };
        await store.recordFacts!([failed]);
        const record = { ...emptySessionRecord('s1', '2026-11-01T10:00:00.000Z'), version: 3, turn: 3 };
        const retry = {
          ...failed,
          at: '2026-11-01T10:06:00.000Z',
          status: 'answered' as const,
          errorCode: null,
        };
        await store.commit({ record, history: [], expectedVersion: 2, facts: [retry] });
        expect((await analytics.turns('s1')).map((fact) => [fact.turn, fact.status])).toEqual([
          [1, 'answered'],
          [2, 'answered'],
          [3, 'error'],
          [3, 'answered'],
        ]);
        const report = await analytics.report(expected.filter);
        expect(report.totals).toMatchObject({ turns: 12, error: 2, contained: 2 });
      }),
    );

    cases.test(
      "deleteSessions (a user's data on request) deletes the sessions' facts with them, a failed turn's too",
      withFixture(async (analytics, store) => {
        const failed = ANALYTICS_FIXTURE.find((conversation) => conversation.failed)!.sessionId;
        expect((await analytics.turns('s1')).length).toBeGreaterThan(0);
        expect((await analytics.turns(failed)).length).toBeGreaterThan(0);
        await store.deleteSessions!(['s1', failed]);
        expect(await analytics.turns('s1')).toEqual([]);
        expect(await analytics.turns(failed)).toEqual([]);
        expect(await store.load('s1')).toBeNull();
        expect((await analytics.turns('s2')).length).toBeGreaterThan(0);
      }),
    );

    cases.test(
      'retention: facts older than the cutoff are purged',
      withFixture(async (analytics) => {
        expect(await analytics.purgeFacts('2026-11-02T00:00:00.000Z')).toBe(4);
        const report = await analytics.report(expected.filter);
        expect(report.totals).toMatchObject({ turns: 6, conversations: 4 });
      }),
    );

    cases.test(
      'retention in batches: purgeFacts with a limit deletes at most that many, then the rest',
      withFixture(async (analytics) => {
        expect(await analytics.purgeFacts('2026-11-02T00:00:00.000Z', 3)).toBe(3);
        expect(await analytics.purgeFacts('2026-11-02T00:00:00.000Z', 3)).toBe(1);
        expect(await analytics.purgeFacts('2026-11-02T00:00:00.000Z', 3)).toBe(0);
        expect((await analytics.report(expected.filter)).totals.turns).toBe(6);
      }),
    );
  });
}
