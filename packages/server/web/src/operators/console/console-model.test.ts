import type { HistoryEntry, StoredTurnFact } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import type { HandoffSummary } from '../../../../src/api-types';
import {
  factOf,
  formatWait,
  holderText,
  panelHead,
  queueStatusText,
  replyRequest,
  speakerOf,
  transcriptRows,
  withTyping,
} from './console-model';

const item = (more: Partial<HandoffSummary>) =>
  ({ status: 'waiting', operator: null, closedAt: null, ...more }) as HandoffSummary;
const entry = (turn: number, more: Partial<HistoryEntry> = {}) =>
  ({ role: 'user', content: 'hi', turn, at: '2026-01-01T00:00:00Z', ...more }) as HistoryEntry;
const fact = (turn: number, status = 'answered') =>
  ({ turn, status, nodeId: 3, decisions: [] }) as unknown as StoredTurnFact;

describe('the operator console model', () => {
  it('says how long a session has waited, in seconds, minutes, then hours and padded minutes', () => {
    expect(formatWait(-500)).toBe('0 s');
    expect(formatWait(42_000)).toBe('42 s');
    expect(formatWait(3 * 60_000 + 59_000)).toBe('3 min');
    expect(formatWait(65 * 60_000)).toBe('1 h 05 min');
    expect(formatWait(125 * 60_000)).toBe('2 h 05 min');
  });

  it('heads a conversation with the wait that fits its state: still waiting, waited before the claim, or closed', () => {
    const since = '2026-12-07T10:00:00.000Z';
    const now = Date.parse('2026-12-07T10:20:00.000Z');
    const base = { queue: 'billing', since, claimedAt: '2026-12-07T10:03:00.000Z' };
    expect(panelHead(item({ ...base }), 'session-0123456789', now)).toBe(
      'Queue <strong>billing</strong> · waiting 20 min · session <code>session-0123</code>',
    );
    expect(panelHead(item({ ...base, status: 'claimed' }), 'session-0123456789', now)).toBe(
      'Queue <strong>billing</strong> · waited 3 min · session <code>session-0123</code>',
    );
    expect(panelHead(item({ ...base, status: 'closed' }), 'session-0123456789', now)).toBe(
      'Queue <strong>billing</strong> · closed · session <code>session-0123</code>',
    );
  });

  it("says a queue item's state, 'you' for the operator looking", () => {
    const time = (iso: string) => `at ${iso.slice(11, 16)}`;
    expect(queueStatusText(item({}), 'anna', time)).toBe('Waiting');
    const bruno = { id: 'bruno', name: 'Bruno' } as HandoffSummary['operator'];
    expect(queueStatusText(item({ status: 'claimed', operator: bruno }), 'anna', time)).toBe(
      'Claimed by Bruno',
    );
    expect(queueStatusText(item({ status: 'claimed', operator: bruno }), 'bruno', time)).toBe(
      'Claimed by you',
    );
    expect(queueStatusText(item({ status: 'closed', closedAt: '2026-01-01T10:30:00Z' }), 'anna', time)).toBe(
      'Closed at 10:30',
    );
    expect(holderText(false, null, false)).toBe('Closed: the assistant has this session.');
    expect(holderText(true, null, false)).toBe('Waiting');
    expect(holderText(true, { id: 'b', name: 'Bruno' }, false)).toBe('Claimed by Bruno');
    expect(holderText(true, { id: 'b', name: 'Bruno' }, true)).toBe('Claimed by you');
  });

  it('builds a reply: trimmed text, options split on commas without blanks, files only when there are some', () => {
    expect(replyRequest('  hello ', ' yes, ,no ,', [])).toEqual({ content: 'hello', options: ['yes', 'no'] });
    expect(replyRequest('', '', ['f1'])).toEqual({ content: '', attachments: ['f1'] });
    expect(replyRequest('ok', '  ', [])).toEqual({ content: 'ok' });
  });

  it("puts a turn's facts after its last row only, the latest facts of the turn", () => {
    const history = [entry(1), entry(1, { role: 'assistant' }), entry(2), entry(3)];
    const facts = [fact(1, 'no-match'), fact(1), fact(3)];
    const rows = transcriptRows(history, facts);
    expect(rows.map((row) => row.fact?.status ?? null)).toEqual([null, 'answered', null, 'answered']);
    expect(transcriptRows(history, null).every((row) => row.fact === undefined)).toBe(true);
    expect(factOf(facts, 2)).toBeUndefined();
  });

  it('names who wrote a row: the user, the operator by name, or the assistant with its node', () => {
    const label = (id: number) => `node ${id}`;
    expect(speakerOf(entry(1), label)).toEqual({ who: 'User', kind: 'user' });
    expect(speakerOf(entry(1, { role: 'assistant', operator: { id: 'b', name: 'Bruno' } }), label)).toEqual({
      who: 'Bruno',
      kind: 'operator',
    });
    expect(speakerOf(entry(1, { role: 'assistant', nodeId: 4 }), label)).toEqual({
      who: 'Assistant · node 4',
      kind: 'agent',
    });
    expect(speakerOf(entry(1, { role: 'assistant', nodeId: 4 }), null)).toEqual({
      who: 'Assistant',
      kind: 'agent',
    });
  });

  it('adds and removes a typing session, returning the same set when nothing changes', () => {
    const none: ReadonlySet<string> = new Set();
    const one = withTyping(none, 's1', true);
    expect([...one]).toEqual(['s1']);
    expect(withTyping(one, 's1', true)).toBe(one);
    expect(withTyping(one, 's2', false)).toBe(one);
    expect([...withTyping(one, 's1', false)]).toEqual([]);
  });
});
