import { describe, expect } from 'vitest';
import type { HandoffEvent, HandoffOutbox } from '../protocol/handoff-outbox.js';
import { emptySessionRecord, type SessionStore } from '../session/session-store.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A `HandoffOutbox` under test, and how to reopen it on the same storage (a restart, a second process). */
export interface HandoffOutboxFixture {
  outbox: HandoffOutbox;
  reopen?: () => Promise<HandoffOutbox>;
  dispose(): Promise<void>;
}

const T0 = new Date('2026-12-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

function event(id: string, fields: Partial<HandoffEvent> = {}): HandoffEvent {
  return {
    id,
    type: 'handoff.started',
    at: T0.toISOString(),
    sessionId: `session-${id}`,
    queue: 'support',
    reason: 'asked for a person',
    summary: 'Order 123',
    ...fields,
  };
}

/**
 * The behaviour every `HandoffOutbox` shares: events are added once (by id), leased when due (oldest
 * first, each lease counting an attempt and hiding the event until it expires — so concurrent
 * leases never share an event), retried at the time given, dead-lettered, counted, put back in line,
 * and a persistent outbox keeps pending events for another instance (a restart, a second process).
 */
export function describeHandoffOutbox(
  name: string,
  open: () => Promise<HandoffOutboxFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (HandoffOutbox conformance)`, () => {
    const cases = conformanceCases(`HandoffOutbox conformance of ${name}`, options);

    cases.test('adds each event once, leases due events oldest first, hides leased ones', async () => {
      const { outbox, dispose } = await open();
      try {
        await outbox.add([event('a')], at(0));
        await outbox.add([event('b'), event('a', { reason: 'changed' })], at(1));
        expect(await outbox.counts()).toEqual({ pending: 2, dead: 0 });
        const first = await outbox.lease(at(2), 1, 30_000);
        expect(first).toHaveLength(1);
        expect(first[0]).toMatchObject({ attempts: 1, status: 'pending', lastError: null });
        // The event as added the first time: a second add of the same id changed nothing.
        expect(first[0]!.event).toEqual(event('a'));
        expect((await outbox.lease(at(2), 10, 30_000)).map((item) => item.event.id)).toEqual(['b']);
        expect(await outbox.lease(at(3), 10, 30_000)).toEqual([]);
        // The lease expired (the process died mid-attempt): it comes back, one more attempt counted.
        const again = await outbox.lease(at(40), 10, 30_000);
        expect(again.map((item) => [item.event.id, item.attempts])).toEqual([
          ['a', 2],
          ['b', 2],
        ]);
        await outbox.delivered('a');
        expect(await outbox.counts()).toEqual({ pending: 1, dead: 0 });
        await outbox.delivered('never-added');
      } finally {
        await dispose();
      }
    });

    cases.test('a failed attempt is retried at the time given, or dead-lettered and put back', async () => {
      const { outbox, dispose } = await open();
      try {
        await outbox.add([event('r'), event('d', { type: 'handoff.ended', outcome: 'closed' })], at(0));
        await outbox.lease(at(0), 10, 30_000);
        await outbox.failed('r', 'HTTP 503', at(10));
        await outbox.failed('d', 'HTTP 404', null);
        expect(await outbox.lease(at(9), 10, 30_000)).toEqual([]);
        const retried = await outbox.lease(at(10), 10, 30_000);
        expect(retried.map((item) => [item.event.id, item.attempts, item.lastError])).toEqual([
          ['r', 2, 'HTTP 503'],
        ]);
        expect(await outbox.counts()).toEqual({ pending: 1, dead: 1 });
        const dead = await outbox.deadLetters();
        expect(dead.map((item) => [item.event.id, item.status, item.attempts, item.lastError])).toEqual([
          ['d', 'dead', 1, 'HTTP 404'],
        ]);
        expect(dead[0]!.event).toEqual(event('d', { type: 'handoff.ended', outcome: 'closed' }));
        // Adding a dead event's id again does not revive it: retry does.
        await outbox.add([event('d')], at(20));
        expect(await outbox.counts()).toEqual({ pending: 1, dead: 1 });
        expect(await outbox.retry('d', at(30))).toBe(true);
        expect(await outbox.retry('r', at(30))).toBe(false);
        expect(await outbox.retry('none', at(30))).toBe(false);
        const revived = await outbox.lease(at(30), 10, 30_000);
        expect(revived.map((item) => [item.event.id, item.attempts])).toEqual([['d', 1]]);
        await outbox.failed('none', 'lost', null);
      } finally {
        await dispose();
      }
    });

    cases.test('lists and deletes the deliveries of given sessions, pending and dead alike', async () => {
      const { outbox, dispose } = await open();
      try {
        await outbox.add([event('p1', { sessionId: 'erased' }), event('k1', { sessionId: 'kept' })], at(0));
        await outbox.add([event('d1', { sessionId: 'erased', type: 'handoff.ended' })], at(1));
        await outbox.add([event('o1', { sessionId: 'other-erased' })], at(2));
        await outbox.lease(at(2), 10, 30_000);
        await outbox.failed('d1', 'HTTP 404', null);
        const listed = await outbox.sessionDeliveries(['erased', 'other-erased']);
        expect(listed.map((item) => [item.event.id, item.status])).toEqual([
          ['p1', 'pending'],
          ['d1', 'dead'],
          ['o1', 'pending'],
        ]);
        expect(listed[1]).toMatchObject({ lastError: 'HTTP 404', event: { sessionId: 'erased' } });
        expect(await outbox.sessionDeliveries([])).toEqual([]);
        expect(await outbox.deleteSessions(['erased', 'other-erased'])).toBe(3);
        expect(await outbox.sessionDeliveries(['erased', 'other-erased'])).toEqual([]);
        // A dead letter of an erased session cannot be put back in line: nothing of it is sent again.
        expect(await outbox.retry('d1', at(3))).toBe(false);
        expect(await outbox.deadLetters()).toEqual([]);
        expect(await outbox.counts()).toEqual({ pending: 1, dead: 0 });
        expect((await outbox.lease(at(100), 10, 30_000)).map((item) => item.event.id)).toEqual(['k1']);
        expect(await outbox.deleteSessions(['erased'])).toBe(0);
        await outbox.purgeDeleted?.();
      } finally {
        await dispose();
      }
    });

    cases.test('concurrent leases never hand out the same event twice', async () => {
      const { outbox, dispose, reopen } = await open();
      try {
        const events = Array.from({ length: 30 }, (_, index) => event(`e${String(index).padStart(2, '0')}`));
        await outbox.add(events, at(0));
        const other = reopen ? await reopen() : outbox;
        const leased = (
          await Promise.all(
            Array.from({ length: 6 }, (_, index) => (index % 2 ? other : outbox).lease(at(1), 7, 60_000)),
          )
        ).flat();
        const ids = leased.map((item) => item.event.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.sort()).toEqual(events.map((item) => item.id));
      } finally {
        await dispose();
      }
    });

    cases.test('a persistent outbox keeps pending events for another instance (restart)', async () => {
      const fixture = await open();
      try {
        if (!fixture.reopen)
          throw new Error(`${name}: give the fixture reopen(), or skip this test with a reason.`);
        await fixture.outbox.add([event('kept')], at(0));
        await fixture.outbox.lease(at(0), 10, 5000);
        const other = await fixture.reopen();
        expect(await other.counts()).toEqual({ pending: 1, dead: 0 });
        expect(await other.lease(at(1), 10, 5000)).toEqual([]);
        const resumed = await other.lease(at(6), 10, 5000);
        expect(resumed.map((item) => [item.event, item.attempts])).toEqual([[event('kept'), 2]]);
      } finally {
        await fixture.dispose();
      }
    });

    cases.done();
  });
}

/**
 * Checks that `store` writes a commit's `handoffEvents` to `outbox` (its `handoffOutbox()`) in the
 * commit's own transaction: a committed transition has its event, a commit refused for a version
 * conflict leaves none, and an event id already there is not added twice.
 */
export async function expectEventsInCommit(store: SessionStore, outbox: HandoffOutbox): Promise<void> {
  const record = emptySessionRecord('outbox-session', T0.toISOString());
  await store.commit({
    record: { ...record, version: 1, turn: 1 },
    history: [],
    expectedVersion: 0,
    handoffEvents: [event('committed')],
  });
  expect(await outbox.counts()).toEqual({ pending: 1, dead: 0 });
  await expect(
    store.commit({
      record: { ...record, version: 2, turn: 2 },
      history: [],
      expectedVersion: 0,
      handoffEvents: [event('refused')],
    }),
  ).rejects.toMatchObject({ code: 'SESSION_CONFLICT' });
  await store.commit({
    record: { ...record, version: 2, turn: 2 },
    history: [],
    expectedVersion: 1,
    handoffEvents: [event('committed')],
  });
  // The store stamps a committed event due at the commit's wall-clock time, so lease after now
  // (a fixed date here made this check fail once the clock passed it).
  const leased = await outbox.lease(new Date(Date.now() + 60_000), 10, 1000);
  expect(leased.map((item) => item.event.id)).toEqual(['committed']);
}
