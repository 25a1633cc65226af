import { describe, expect, it } from 'vitest';
import type { HandoffState } from '../protocol/handoff.js';
import type { HistoryEntry } from '../protocol/history-entry.js';
import { handoffEventId, handoffEventsOf } from './handoff-events.js';

const state = (since: string, fields: Partial<HandoffState> = {}): HandoffState => ({
  reason: 'asked for a person',
  queue: 'support',
  summary: 'Order 1',
  message: null,
  returnOption: null,
  since,
  turn: 2,
  nodeId: 1,
  operator: null,
  claimedAt: null,
  ...fields,
});
const row = (handoff: HistoryEntry['handoff'], at: string): HistoryEntry => ({
  role: 'system',
  content: '',
  turn: 2,
  at,
  handoff,
});
const anna = { id: 'anna', name: 'Anna' };

describe('handoffEventsOf', () => {
  it('a start row gives handoff.started about the new handoff, an end row handoff.ended about the old one', () => {
    const before = state('2026-12-01T10:00:00.000Z', { queue: 'vip', reason: 'old' });
    const after = state('2026-12-01T11:00:00.000Z');
    const events = handoffEventsOf('s1', before, after, [
      row(
        { type: 'end', outcome: 'user-returned', operator: null, nodeTarget: null },
        '2026-12-01T11:00:00.000Z',
      ),
      row({ type: 'start', queue: 'support', reason: 'asked for a person', nodeId: 1 }, after.since),
    ]);
    expect(events).toEqual([
      {
        id: handoffEventId('s1', before.since, 'handoff.ended'),
        type: 'handoff.ended',
        at: '2026-12-01T11:00:00.000Z',
        sessionId: 's1',
        queue: 'vip',
        reason: 'old',
        summary: 'Order 1',
        outcome: 'user-returned',
        operator: null,
      },
      {
        id: handoffEventId('s1', after.since, 'handoff.started'),
        type: 'handoff.started',
        at: after.since,
        sessionId: 's1',
        queue: 'support',
        reason: 'asked for a person',
        summary: 'Order 1',
      },
    ]);
  });

  it('claims, releases and replies make no event; ids are stable and distinct per transition', () => {
    const current = state('2026-12-01T10:00:00.000Z');
    expect(
      handoffEventsOf('s1', current, { ...current, operator: anna }, [
        row({ type: 'claim', operator: anna }, current.since),
      ]),
    ).toEqual([]);
    expect(handoffEventId('s1', current.since, 'handoff.started')).toBe(
      handoffEventId('s1', current.since, 'handoff.started'),
    );
    expect(handoffEventId('s1', current.since, 'handoff.started')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const ids = new Set([
      handoffEventId('s1', current.since, 'handoff.started'),
      handoffEventId('s1', current.since, 'handoff.ended'),
      handoffEventId('s2', current.since, 'handoff.started'),
      handoffEventId('s1', '2026-12-01T10:00:00.001Z', 'handoff.started'),
    ]);
    expect(ids.size).toBe(4);
  });
});
