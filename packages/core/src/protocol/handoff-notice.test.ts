import { describe, expect, it } from 'vitest';
import type { HandoffTransition } from './handoff.js';
import { handoffNotice } from './handoff-notice.js';

describe('handoffNotice', () => {
  const bruno = { id: 'op-1', name: 'Bruno' };

  it('names the notice of each transition with its values, never the operator id', () => {
    const cases: [HandoffTransition, ReturnType<typeof handoffNotice>][] = [
      [
        { type: 'start', queue: 'billing', reason: 'asked', nodeId: 3 },
        { key: 'started', values: { reason: 'asked' } },
      ],
      [
        { type: 'claim', operator: bruno },
        { key: 'joined', values: { name: 'Bruno' } },
      ],
      [
        { type: 'release', operator: bruno },
        { key: 'left', values: { name: 'Bruno' } },
      ],
      [
        { type: 'end', outcome: 'user-returned', operator: null, nodeTarget: null },
        { key: 'userReturned', values: {} },
      ],
      [
        { type: 'end', outcome: 'closed', operator: bruno, nodeTarget: null },
        { key: 'closed', values: { name: 'Bruno' } },
      ],
      [
        { type: 'end', outcome: 'handed-back', operator: bruno, nodeTarget: 4 },
        { key: 'handedBack', values: { name: 'Bruno' } },
      ],
    ];
    for (const [transition, notice] of cases)
      expect(handoffNotice(transition, 'an operator')).toEqual(notice);
  });

  it("falls back to the caller's words for an operator nobody recorded", () => {
    expect(handoffNotice({ type: 'end', outcome: 'handed-back', operator: null }, 'un operatore')).toEqual({
      key: 'handedBack',
      values: { name: 'un operatore' },
    });
  });
});
