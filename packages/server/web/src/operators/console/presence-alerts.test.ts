import { describe, expect, it } from 'vitest';
import type { HandoffSummary } from '../../../../src/api-types';
import { newWaiting } from './presence-alerts';

function waiting(sessionId: string, since: string, queue = 'support'): HandoffSummary {
  return {
    sessionId,
    status: 'waiting',
    queue,
    reason: 'asked for a person',
    summary: null,
    since,
    waitingMs: 0,
    operator: null,
    claimedAt: null,
    lastUserMessageAt: null,
    closedAt: null,
    outcome: null,
    lastMessages: [],
    noteCount: 0,
    channel: null,
  };
}

describe('the console alerts on new waiting conversations', () => {
  it("alerts once per handoff: a session handed off again is new again, the same one is not; only the operator's teams", () => {
    const first = waiting('s-1', '2026-12-07T10:00:00.000Z');
    let { fresh, known } = newWaiting([first], [], new Set());
    expect(fresh).toEqual([first]);
    ({ fresh, known } = newWaiting([first], [], known));
    expect(fresh).toEqual([]);
    // Handed back to the agent, then handed off again: a new handoff of the same session.
    ({ fresh, known } = newWaiting([], [], known));
    const again = waiting('s-1', '2026-12-07T11:30:00.000Z');
    ({ fresh, known } = newWaiting([again], [], known));
    expect(fresh).toEqual([again]);

    const sales = waiting('s-2', '2026-12-07T12:00:00.000Z', 'sales');
    expect(newWaiting([sales], ['support'], known).fresh).toEqual([]);
    expect(newWaiting([sales, { ...again, status: 'claimed' }], ['sales'], new Set()).fresh).toEqual([sales]);
  });
});
