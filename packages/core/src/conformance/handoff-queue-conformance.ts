import { describe, expect } from 'vitest';
import type { HandoffQueue, QueueEntry } from '../handoff/handoff-queue.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A `HandoffQueue` under test, and how to reopen it (a restart, a second process). */
export interface HandoffQueueFixture {
  queue: HandoffQueue;
  reopen?: () => Promise<HandoffQueue>;
  dispose(): Promise<void>;
}

function entry(sessionId: string, since: string, fields: Partial<QueueEntry> = {}): QueueEntry {
  return {
    sessionId,
    status: 'waiting',
    queue: 'support',
    reason: 'asked for a person',
    summary: null,
    since,
    operator: null,
    claimedAt: null,
    lastUserMessageAt: null,
    closedAt: null,
    outcome: null,
    notes: [],
    ...fields,
  };
}

const note = (text: string) => ({
  at: '2026-12-01T10:00:00.000Z',
  operator: { id: 'anna', name: 'Anna' },
  text,
});

/**
 * The behaviour every `HandoffQueue` shares: entries are put, read, listed (open oldest first,
 * closed most recent first, by queue and status), the open ones counted by queue and status
 * (`tallyOpen`), notes are appended and survive a `put` without notes, and a persistent queue is
 * seen by another instance.
 */
export function describeHandoffQueue(
  name: string,
  open: () => Promise<HandoffQueueFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (HandoffQueue conformance)`, () => {
    const cases = conformanceCases(`HandoffQueue conformance of ${name}`, options);

    cases.test(
      'lists open entries oldest first and closed ones most recent first, by queue and status',
      async () => {
        const { queue, dispose } = await open();
        try {
          await queue.put(entry('b', '2026-12-01T10:05:00.000Z'));
          await queue.put(entry('a', '2026-12-01T10:00:00.000Z', { queue: 'vip' }));
          await queue.put(
            entry('c', '2026-12-01T10:02:00.000Z', {
              status: 'claimed',
              operator: { id: 'anna', name: 'Anna' },
            }),
          );
          await queue.put(
            entry('x', '2026-12-01T09:00:00.000Z', {
              status: 'closed',
              closedAt: '2026-12-01T09:30:00.000Z',
            }),
          );
          await queue.put(
            entry('y', '2026-12-01T09:10:00.000Z', {
              status: 'closed',
              closedAt: '2026-12-01T09:40:00.000Z',
            }),
          );
          expect((await queue.list()).map((item) => item.sessionId)).toEqual(['a', 'c', 'b']);
          expect((await queue.list({ queue: 'support' })).map((item) => item.sessionId)).toEqual(['c', 'b']);
          expect((await queue.list({ limit: 1 })).map((item) => item.sessionId)).toEqual(['a']);
          expect((await queue.list({ status: 'closed' })).map((item) => item.sessionId)).toEqual(['y', 'x']);
          expect((await queue.list({ status: 'waiting' })).map((item) => item.sessionId)).toEqual(['a', 'b']);
          expect((await queue.list({ status: 'claimed' })).map((item) => item.sessionId)).toEqual(['c']);
          expect(
            (await queue.list({ status: 'waiting', queue: 'support', limit: 5 })).map(
              (item) => item.sessionId,
            ),
          ).toEqual(['b']);
          expect(await queue.get('c')).toEqual(
            entry('c', '2026-12-01T10:02:00.000Z', {
              status: 'claimed',
              operator: { id: 'anna', name: 'Anna' },
            }),
          );
          expect(await queue.get('none')).toBeNull();
          await queue.delete('c');
          expect(await queue.get('c')).toBeNull();
        } finally {
          await dispose();
        }
      },
    );

    cases.test(
      'counts the open entries by queue and status, past what list returns',
      async () => {
        const { queue, dispose } = await open();
        try {
          if (!queue.tallyOpen)
            throw new Error(`${name}: implement tallyOpen(), or skip this test with a reason.`);
          expect(await queue.tallyOpen()).toEqual([]);
          // More open entries than list() returns at most (1,000), put at once.
          const minute = (index: number) => new Date(Date.UTC(2026, 11, 1, 8) + index * 60_000).toISOString();
          const many = Array.from({ length: 1005 }, (_, index) => entry(`w${index}`, minute(index + 10)));
          for (let start = 0; start < many.length; start += 100)
            await Promise.all(many.slice(start, start + 100).map((item) => queue.put(item)));
          await queue.put(
            entry('c1', minute(5), { status: 'claimed', operator: { id: 'anna', name: 'Anna' } }),
          );
          await queue.put(entry('v1', minute(3), { queue: 'vip' }));
          await queue.put(entry('v2', minute(1), { queue: 'vip' }));
          // Ordered by code unit (as JavaScript sorts strings), not by a locale: 'Sales' before 'support'.
          await queue.put(entry('s1', minute(4), { queue: 'Sales' }));
          await queue.put(entry('gone', minute(0), { status: 'closed', closedAt: minute(2) }));
          expect(await queue.tallyOpen()).toEqual([
            { queue: 'Sales', status: 'waiting', count: 1, oldestSince: minute(4) },
            { queue: 'support', status: 'claimed', count: 1, oldestSince: minute(5) },
            { queue: 'support', status: 'waiting', count: 1005, oldestSince: minute(10) },
            { queue: 'vip', status: 'waiting', count: 2, oldestSince: minute(1) },
          ]);
          await queue.delete('v2');
          await queue.put(entry('w0', minute(10), { status: 'closed', closedAt: minute(20) }));
          expect(
            (await queue.tallyOpen()).map((tally) => [tally.queue, tally.count, tally.oldestSince]),
          ).toEqual([
            ['Sales', 1, minute(4)],
            ['support', 1, minute(5)],
            ['support', 1004, minute(11)],
            ['vip', 1, minute(3)],
          ]);
        } finally {
          await dispose();
        }
      },
      60_000,
    );

    cases.test(
      'notes are appended, kept by a put without notes, and concurrent notes are all kept',
      async () => {
        const { queue, dispose } = await open();
        try {
          await queue.put(entry('s', '2026-12-01T10:00:00.000Z'));
          await Promise.all(Array.from({ length: 8 }, (_, i) => queue.addNote('s', note(`note ${i}`))));
          await queue.put(entry('s', '2026-12-01T10:00:00.000Z', { status: 'claimed' }));
          const kept = await queue.get('s');
          expect(kept?.status).toBe('claimed');
          expect(kept?.notes.map((item) => item.text).sort()).toEqual(
            Array.from({ length: 8 }, (_, i) => `note ${i}`),
          );
          await queue.addNote('none', note('lost'));
          expect(await queue.get('none')).toBeNull();
        } finally {
          await dispose();
        }
      },
    );

    cases.test(
      'a persistent queue is seen by another instance on the same storage (restart, second process)',
      async () => {
        const fixture = await open();
        try {
          if (!fixture.reopen)
            throw new Error(`${name}: give the fixture reopen(), or skip this test with a reason.`);
          await fixture.queue.put(entry('kept', '2026-12-01T10:00:00.000Z'));
          await fixture.queue.addNote('kept', note('hello'));
          const other = await fixture.reopen();
          expect((await other.get('kept'))?.notes.map((item) => item.text)).toEqual(['hello']);
          expect((await other.list()).map((item) => item.sessionId)).toEqual(['kept']);
        } finally {
          await fixture.dispose();
        }
      },
    );

    cases.done();
  });
}
