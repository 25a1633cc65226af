import type { HistoryEntry } from '@treeagent/core';
import { describe, expect, it } from 'vitest';
import { payloadsOfHandoffEntries } from './channel-payloads.js';

const bruno = { id: 'op-1', name: 'Bruno Bianchi' };
const at = '2026-12-06T10:00:00.000Z';
/** As the engine records them: the `content` of a transition is English. */
const claimed: HistoryEntry = {
  role: 'system',
  content: 'Bruno Bianchi joined the conversation.',
  turn: 2,
  at,
  handoff: { type: 'claim', operator: bruno },
};
const handedBack: HistoryEntry = {
  role: 'system',
  content: 'Bruno Bianchi handed the conversation back to the assistant.',
  turn: 2,
  at,
  handoff: { type: 'end', outcome: 'handed-back', operator: bruno, nodeTarget: null },
};

describe('the handoff notices a channel sends', () => {
  it("are in the session's language, not the English the engine records", () => {
    expect(payloadsOfHandoffEntries([claimed, handedBack], 'it')).toEqual([
      {
        type: 'notice',
        notice: 'operator-joined',
        operatorName: 'Bruno Bianchi',
        text: 'Bruno Bianchi è entrato nella conversazione.',
      },
      {
        type: 'notice',
        notice: 'handed-back',
        operatorName: 'Bruno Bianchi',
        text: "Bruno Bianchi ha restituito la conversazione all'assistente.",
      },
    ]);
  });

  it('are English by default, and the operator’s login id never leaves the server', () => {
    const payloads = payloadsOfHandoffEntries([claimed]);
    expect(payloads[0]).toMatchObject({ text: 'Bruno Bianchi joined the conversation.' });
    expect(JSON.stringify(payloads)).not.toContain('op-1');
  });
});
