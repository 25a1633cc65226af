import { describe, expect } from 'vitest';
import type { BusEvent, EventBus } from '../handoff/event-bus.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** An `EventBus` under test, and a second one on the same storage (another server process). */
export interface EventBusFixture {
  bus: EventBus;
  /** Another instance on the same storage (a second server process); absent for an in-process bus. */
  reopen?: () => Promise<EventBus>;
  dispose(): Promise<void>;
}

/** Waits (polling, no fixed sleep) until `condition` holds; fails naming `what` after `timeoutMs`. */
async function until(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const SESSION: BusEvent = { kind: 'session', sessionId: 's1' };
const QUEUE: BusEvent = { kind: 'queue' };
const TYPING: BusEvent = {
  kind: 'typing',
  sessionId: 's1',
  operator: { id: 'anna', name: 'Anna' },
  typing: true,
};
const USER_TYPING: BusEvent = { kind: 'user-typing', sessionId: 's1', typing: false };

/**
 * The behaviour every `EventBus` shares: a process hears its own events, whole and in the order
 * they were published; an unsubscribed listener hears nothing more; one listener's failure does not
 * keep the event from the others; and a bus across processes carries events between two instances.
 */
export function describeEventBus(
  name: string,
  open: () => Promise<EventBusFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (EventBus conformance)`, () => {
    const cases = conformanceCases(`EventBus conformance of ${name}`, options);

    cases.test('a subscriber hears its own process’s events, whole and in order', async () => {
      const { bus, dispose } = await open();
      try {
        const heard: BusEvent[] = [];
        const unsubscribe = bus.subscribe((event) => heard.push(event));
        for (const event of [SESSION, QUEUE, TYPING, USER_TYPING]) await bus.publish(event);
        await until(() => heard.length >= 4, 'the four events published');
        expect(heard.filter((event) => event.kind !== 'resync')).toEqual([
          SESSION,
          QUEUE,
          TYPING,
          USER_TYPING,
        ]);
        unsubscribe();
      } finally {
        await dispose();
      }
    });

    cases.test(
      'an unsubscribed listener hears nothing more, and a listener that throws does not stop the others',
      async () => {
        const { bus, dispose } = await open();
        try {
          const kept: BusEvent[] = [];
          const dropped: BusEvent[] = [];
          bus.subscribe(() => {
            throw new Error('a failing listener');
          });
          const unsubscribe = bus.subscribe((event) => dropped.push(event));
          bus.subscribe((event) => kept.push(event));
          await bus.publish(SESSION);
          await until(() => kept.length >= 1 && dropped.length >= 1, 'the first event');
          unsubscribe();
          await bus.publish(QUEUE);
          await until(() => kept.length >= 2, 'the second event');
          expect(kept.filter((event) => event.kind !== 'resync')).toEqual([SESSION, QUEUE]);
          expect(dropped.filter((event) => event.kind !== 'resync')).toEqual([SESSION]);
        } finally {
          await dispose();
        }
      },
    );

    cases.test('an event published by one instance is heard by another on the same storage', async () => {
      const fixture = await open();
      try {
        if (!fixture.reopen)
          throw new Error(`${name}: give the fixture reopen(), or skip this test with a reason.`);
        const other = await fixture.reopen();
        const heardHere: BusEvent[] = [];
        const heardThere: BusEvent[] = [];
        fixture.bus.subscribe((event) => heardHere.push(event));
        other.subscribe((event) => heardThere.push(event));
        // A bus across processes may need a moment to listen: publish until the other side hears one.
        const probe: BusEvent = { kind: 'session', sessionId: 'probe' };
        await until(() => {
          void fixture.bus.publish(probe);
          return heardThere.some((event) => event.kind === 'session' && event.sessionId === 'probe');
        }, 'the second instance to hear the first');
        await other.publish(QUEUE);
        await until(() => heardHere.some((event) => event.kind === 'queue'), 'the first to hear the second');
        await fixture.bus.publish(TYPING);
        await until(
          () => heardThere.some((event) => event.kind === 'typing'),
          'the typing event on the second',
        );
        expect(heardThere.find((event) => event.kind === 'typing')).toEqual(TYPING);
      } finally {
        await fixture.dispose();
      }
    });

    cases.done();
  });
}
