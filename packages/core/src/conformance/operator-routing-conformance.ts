import { describe, expect } from 'vitest';
import type { OperatorRouting } from '../handoff/operator-routing.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** An operator routing store under test, and how to open another instance on the same storage. */
export interface OperatorRoutingFixture {
  routing: OperatorRouting;
  /** Another instance on the same storage (a second process); absent for memory. */
  reopen?: () => Promise<OperatorRouting>;
  dispose(): Promise<void>;
}

const AT = new Date('2026-12-01T10:00:00.000Z');

/**
 * The behaviour every `OperatorRouting` shares: presence is set, replaced and listed by id; a
 * team's round robin goes through its candidates in id order and wraps, each team apart; concurrent
 * turns of one rotation never give the same operator twice in a row; a persistent store is seen by
 * another instance.
 */
export function describeOperatorRouting(
  name: string,
  open: () => Promise<OperatorRoutingFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (OperatorRouting conformance)`, () => {
    const cases = conformanceCases(`operator routing conformance of ${name}`, options);

    cases.test('presence is set, replaced and listed by operator id', async () => {
      const { routing, reopen, dispose } = await open();
      try {
        await routing.setPresence({ operatorId: 'carla', name: 'Carla', teams: [], status: 'away', at: AT });
        await routing.setPresence({
          operatorId: 'bruno',
          name: 'Bruno',
          teams: ['sales'],
          status: 'online',
          at: AT,
        });
        const later = new Date(AT.getTime() + 1000);
        await routing.setPresence({
          operatorId: 'carla',
          name: 'Carla V.',
          teams: ['support', 'b2b'],
          status: 'online',
          at: later,
        });
        const expected = [
          { operatorId: 'bruno', name: 'Bruno', teams: ['sales'], status: 'online', at: AT },
          { operatorId: 'carla', name: 'Carla V.', teams: ['support', 'b2b'], status: 'online', at: later },
        ];
        expect(await routing.presence()).toEqual(expected);
        if (reopen) expect(await (await reopen()).presence()).toEqual(expected);
      } finally {
        await dispose();
      }
    });

    cases.test(
      'a round robin goes through the candidates in id order and wraps, each team apart',
      async () => {
        const { routing, reopen, dispose } = await open();
        try {
          expect(await routing.nextInRotation('sales', [])).toBeNull();
          expect(await routing.nextInRotation('sales', ['carla', 'bruno'])).toBe('bruno');
          expect(await routing.nextInRotation('sales', ['carla', 'bruno'])).toBe('carla');
          expect(await routing.nextInRotation('support', ['carla', 'bruno'])).toBe('bruno');
          expect(await routing.nextInRotation('sales', ['carla', 'bruno'])).toBe('bruno');
          // A candidate who left is skipped; one who joined takes their place in the order.
          expect(await routing.nextInRotation('sales', ['anna', 'carla'])).toBe('carla');
          const other = reopen ? await reopen() : routing;
          expect(await other.nextInRotation('sales', ['anna', 'carla'])).toBe('anna');
        } finally {
          await dispose();
        }
      },
    );

    cases.test(
      'concurrent turns of one rotation are serialised: each operator gets every other one',
      async () => {
        const { routing, reopen, dispose } = await open();
        try {
          const other = reopen ? await reopen() : routing;
          const picks = await Promise.all(
            Array.from({ length: 10 }, (_, index) =>
              (index % 2 ? other : routing).nextInRotation('busy', ['anna', 'bruno']),
            ),
          );
          expect(picks.filter((id) => id === 'anna')).toHaveLength(5);
          expect(picks.filter((id) => id === 'bruno')).toHaveLength(5);
        } finally {
          await dispose();
        }
      },
    );
  });
}
