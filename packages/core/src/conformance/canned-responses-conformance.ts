import { describe, expect } from 'vitest';
import type { CannedResponse, CannedResponses } from '../handoff/canned-responses.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A canned responses store under test, and how to open another instance on the same storage. */
export interface CannedResponsesFixture {
  canned: CannedResponses;
  /** Another instance on the same storage (a second process); absent for memory. */
  reopen?: () => Promise<CannedResponses>;
  dispose(): Promise<void>;
}

const AT = new Date('2026-12-01T10:00:00.000Z');

function response(id: string, shortcut: string, team: string | null, text = `text of ${id}`): CannedResponse {
  return { id, shortcut, team, text, updatedAt: AT };
}

/**
 * The behaviour every `CannedResponses` shares: responses are saved, listed by shortcut then team,
 * replaced by id and removed; a shortcut is unique within its team (the same one in another team,
 * or for every team, is another response); a persistent store is seen by another instance.
 */
export function describeCannedResponses(
  name: string,
  open: () => Promise<CannedResponsesFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (CannedResponses conformance)`, () => {
    const cases = conformanceCases(`canned responses conformance of ${name}`, options);

    cases.test('responses are saved, listed by shortcut then team, replaced by id and removed', async () => {
      const { canned, reopen, dispose } = await open();
      try {
        expect(await canned.list()).toEqual([]);
        await canned.save(response('r2', 'refund', 'sales', 'Hello {{name}}, your order {{state.order}}'));
        await canned.save(response('r1', 'refund', null));
        await canned.save(response('r3', 'hello', 'support'));
        const other = reopen ? await reopen() : canned;
        expect((await other.list()).map((item) => item.id)).toEqual(['r3', 'r1', 'r2']);
        expect((await other.list())[2]).toEqual(
          response('r2', 'refund', 'sales', 'Hello {{name}}, your order {{state.order}}'),
        );
        const later = new Date(AT.getTime() + 1000);
        await canned.save({ ...response('r3', 'hi', 'support', 'Hi!'), updatedAt: later });
        expect((await other.list()).find((item) => item.id === 'r3')).toEqual({
          ...response('r3', 'hi', 'support', 'Hi!'),
          updatedAt: later,
        });
        expect(await canned.remove('r1')).toBe(true);
        expect(await canned.remove('r1')).toBe(false);
        expect((await other.list()).map((item) => item.id)).toEqual(['r3', 'r2']);
      } finally {
        await dispose();
      }
    });

    cases.test('a shortcut is unique within its team, and the first one stays', async () => {
      const { canned, dispose } = await open();
      try {
        await canned.save(response('a', 'refund', 'sales', 'first'));
        const taken = await canned.save(response('b', 'refund', 'sales', 'second')).catch((error) => error);
        expect(taken).toMatchObject({
          name: 'DuplicateShortcutError',
          message: expect.stringMatching(/"\/refund" is already used in team "sales"/),
        });
        await canned.save(response('c', 'refund', null));
        await expect(canned.save(response('d', 'refund', null))).rejects.toThrow(/for every team/);
        await canned.save(response('e', 'refund', 'support'));
        expect((await canned.list()).map((item) => [item.id, item.text])).toEqual([
          ['c', 'text of c'],
          ['a', 'first'],
          ['e', 'text of e'],
        ]);
      } finally {
        await dispose();
      }
    });

    cases.done();
  });
}
