import { describe, expect } from 'vitest';
import type { CallbackRequest, CallbackRequests } from '../handoff/callback-requests.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A callback request store under test, and how to open another instance on the same storage. */
export interface CallbackRequestsFixture {
  callbacks: CallbackRequests;
  /** Another instance on the same storage (a second process); absent for memory. */
  reopen?: () => Promise<CallbackRequests>;
  dispose(): Promise<void>;
}

const AT = Date.parse('2026-12-01T20:00:00.000Z');

function request(id: string, sessionId: string, team: string, minutes: number): CallbackRequest {
  return {
    id,
    sessionId,
    team,
    contact: id.endsWith('m')
      ? { kind: 'email', value: 'ada@example.com' }
      : { kind: 'phone', value: '+39 333 1234567' },
    window: { date: '2026-12-02', from: '09:00', to: '11:30' },
    status: 'open',
    createdAt: new Date(AT + minutes * 60_000),
    doneAt: null,
    doneBy: null,
  };
}

/**
 * The behaviour every `CallbackRequests` shares: a request is kept with its contact and window, one
 * open per session; listed oldest first by status and team; marked done once, by whom; exported and
 * deleted per session; a persistent store is seen by another instance.
 */
export function describeCallbackRequests(
  name: string,
  open: () => Promise<CallbackRequestsFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (CallbackRequests conformance)`, () => {
    const cases = conformanceCases(`callback requests conformance of ${name}`, options);

    cases.test(
      'requests are kept one open per session, listed by status and team, done once, and deleted per session',
      async () => {
        const { callbacks, reopen, dispose } = await open();
        try {
          const a = request('c1', 's1', 'support', 2);
          const b = request('c2m', 's2', 'sales', 1);
          const c = request('c3', 's3', 'support', 3);
          expect(await callbacks.add(a)).toBe(true);
          expect(await callbacks.add(b)).toBe(true);
          expect(await callbacks.add(c)).toBe(true);
          expect(await callbacks.add(request('c4', 's1', 'support', 4))).toBe(false);
          const other = reopen ? await reopen() : callbacks;
          expect(await other.list()).toEqual([b, a, c]);
          expect(await other.list({ teams: ['support'] })).toEqual([a, c]);
          expect(await other.get('c2m')).toEqual(b);
          expect(await other.get('nope')).toBeNull();
          const doneAt = new Date(AT + 60 * 60_000);
          expect(await callbacks.done('c1', 'bruno', doneAt)).toBe(true);
          expect(await callbacks.done('c1', 'carla', doneAt)).toBe(false);
          expect(await callbacks.done('nope', 'carla', doneAt)).toBe(false);
          expect(await other.list({ status: 'open' })).toEqual([b, c]);
          expect(await other.list({ status: 'done' })).toEqual([
            { ...a, status: 'done', doneAt, doneBy: 'bruno' },
          ]);
          // Once done, the session may ask again.
          const again = request('c5', 's1', 'support', 5);
          expect(await callbacks.add(again)).toBe(true);
          expect((await other.sessionRequests(['s1', 's2'])).map((item) => item.id)).toEqual([
            'c2m',
            'c1',
            'c5',
          ]);
          expect(await callbacks.deleteSessions(['s1', 's2'])).toBe(3);
          expect(await other.sessionRequests(['s1', 's2'])).toEqual([]);
          expect((await other.list()).map((item) => item.id)).toEqual(['c3']);
        } finally {
          await dispose();
        }
      },
    );

    cases.done();
  });
}
