import { describe, expect } from 'vitest';
import type { SatisfactionRating, SatisfactionRatings } from '../handoff/satisfaction.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A ratings store under test, and how to open another instance on the same storage. */
export interface SatisfactionRatingsFixture {
  ratings: SatisfactionRatings;
  /** Another instance on the same storage (a second process); absent for memory. */
  reopen?: () => Promise<SatisfactionRatings>;
  dispose(): Promise<void>;
}

const AT = Date.parse('2026-12-01T10:00:00.000Z');

function rating(sessionId: string, value: SatisfactionRating['rating'], minutes: number): SatisfactionRating {
  return {
    sessionId,
    rating: value,
    comment: value < 3 ? 'Too slow' : null,
    operatorId: value === 5 ? null : 'bruno',
    team: 'support',
    treeVersion: 'v2',
    at: new Date(AT + minutes * 60_000),
  };
}

/**
 * The behaviour every `SatisfactionRatings` shares: a session's rating is kept with its operator,
 * team and tree version, once (a second one changes nothing); listed oldest first, from a date;
 * forgotten with the session; a persistent store is seen by another instance.
 */
export function describeSatisfactionRatings(
  name: string,
  open: () => Promise<SatisfactionRatingsFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (SatisfactionRatings conformance)`, () => {
    const cases = conformanceCases(`satisfaction ratings conformance of ${name}`, options);

    cases.test(
      'a rating is kept once per session, listed oldest first from a date, and forgotten',
      async () => {
        const { ratings, reopen, dispose } = await open();
        try {
          expect(await ratings.add(rating('s2', 2, 5))).toBe(true);
          expect(await ratings.add(rating('s1', 5, 1))).toBe(true);
          expect(await ratings.add({ ...rating('s1', 1, 9), comment: 'changed my mind' })).toBe(false);
          const other = reopen ? await reopen() : ratings;
          expect(await other.list()).toEqual([rating('s1', 5, 1), rating('s2', 2, 5)]);
          expect(await other.list(new Date(AT + 2 * 60_000))).toEqual([rating('s2', 2, 5)]);
          expect(await ratings.forget('s2')).toBe(true);
          expect(await ratings.forget('s2')).toBe(false);
          expect((await other.list()).map((item) => item.sessionId)).toEqual(['s1']);
        } finally {
          await dispose();
        }
      },
    );

    cases.test(
      'a comment is added once to a rating that has none (a channel user writes it after the rating)',
      async () => {
        const { ratings, reopen, dispose } = await open();
        try {
          if (!ratings.comment) return;
          expect(await ratings.add(rating('s5', 5, 1))).toBe(true);
          expect(await ratings.add(rating('s1', 1, 2))).toBe(true);
          expect(await ratings.comment('s5', 'Quick')).toBe(true);
          expect(await ratings.comment('s5', 'Changed')).toBe(false);
          expect(await ratings.comment('s1', 'Another')).toBe(false);
          expect(await ratings.comment('nobody', 'Hello')).toBe(false);
          const other = reopen ? await reopen() : ratings;
          expect((await other.list()).map((item) => [item.sessionId, item.comment])).toEqual([
            ['s5', 'Quick'],
            ['s1', 'Too slow'],
          ]);
        } finally {
          await dispose();
        }
      },
    );

    cases.done();
  });
}
