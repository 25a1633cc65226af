import { describe, expect, it } from 'vitest';
import { ShutdownAbort, TurnTracker } from './turn-tracker.js';

describe('TurnTracker', () => {
  it('counts turns in flight and refuses new ones once draining', async () => {
    const tracker = new TurnTracker();
    const lease = tracker.begin()!;
    expect(tracker.inFlight).toBe(1);
    const drained = tracker.drain({ timeoutMs: 1000, abortGraceMs: 10 });
    expect(tracker.begin()).toBeNull();
    lease.end();
    expect(await drained).toEqual({ finished: 1, aborted: 0, unsettled: 0 });
    expect(lease.signal.aborted).toBe(false);
  });

  it('aborts turns still running after the timeout, and reports those that never settle', async () => {
    const tracker = new TurnTracker();
    const settles = tracker.begin()!;
    const hangs = tracker.begin()!;
    settles.signal.addEventListener('abort', () => settles.end());
    const result = await tracker.drain({ timeoutMs: 10, abortGraceMs: 20 });
    expect(result).toEqual({ finished: 0, aborted: 2, unsettled: 1 });
    expect(hangs.signal.reason).toBeInstanceOf(ShutdownAbort);
    expect(tracker.inFlight).toBe(1);
  });
});
