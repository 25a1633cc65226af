import { describe, expect, it } from 'vitest';
import type { CannedResponseView } from '../../../../src/api-types';
import {
  cannedMatches,
  fillCanned,
  insertCanned,
  moveSelection,
  selectedIndex,
  typedShortcut,
} from './canned-model';

const at = '2026-12-01T10:00:00.000Z';
const responses: CannedResponseView[] = [
  { id: '1', shortcut: 'refund', team: null, text: 'Generic refund', updatedAt: at },
  { id: '2', shortcut: 'refund', team: 'support', text: 'Support refund for {{name}}', updatedAt: at },
  { id: '3', shortcut: 'resolved', team: null, text: 'Resolved', updatedAt: at },
  { id: '4', shortcut: 'price', team: 'sales', text: 'Prices', updatedAt: at },
];

describe('canned responses in the reply box', () => {
  it('finds the /shortcut typed at the end of the reply, not one inside a word or a path', () => {
    expect(typedShortcut('/re')).toEqual({ start: 0, prefix: 're' });
    expect(typedShortcut('Hello /Re')).toEqual({ start: 6, prefix: 're' });
    expect(typedShortcut('see a/b')).toBeNull();
    expect(typedShortcut('/re and more')).toBeNull();
  });

  it("offers the team's and every team's responses by prefix, the team's own when both share a shortcut", () => {
    expect(cannedMatches('/re', responses, 'support').map((item) => item.id)).toEqual(['2', '3']);
    expect(cannedMatches('/re', responses, 'sales').map((item) => item.id)).toEqual(['1', '3']);
    expect(cannedMatches('/p', responses, 'support')).toEqual([]);
    expect(cannedMatches('no slash', responses, 'sales')).toEqual([]);
  });

  it('fills {{name}} and {{state.<field>}}, leaving what the session lacks as written', () => {
    const state = { name: 'Ada', order: { number: 'A-17' }, count: 3 };
    expect(fillCanned('Hi {{name}}, order {{ state.order.number }} ({{state.count}})', state)).toBe(
      'Hi Ada, order A-17 (3)',
    );
    expect(fillCanned('Order {{state.missing}} for {{name}}', {})).toBe(
      'Order {{state.missing}} for {{name}}',
    );
    expect(insertCanned('Thanks! /ref', responses[1]!, state)).toBe('Thanks! Support refund for Ada');
  });
});

describe('the highlighted canned suggestion', () => {
  const matches = cannedMatches('/re', responses, 'support');

  it('moves with the arrows and wraps', () => {
    const down = moveSelection(null, '/re', matches, 1);
    expect(selectedIndex(down, '/re', matches)).toBe(1);
    expect(selectedIndex(moveSelection(down, '/re', matches, 1), '/re', matches)).toBe(0);
    expect(selectedIndex(moveSelection(null, '/re', matches, -1), '/re', matches)).toBe(matches.length - 1);
  });

  it('stays on the same response when the list changes under it (responses loaded late)', () => {
    const resolved = { reply: '/re', id: '3' };
    const more: CannedResponseView[] = [
      ...responses,
      { id: '5', shortcut: 'reach', team: null, text: 'Reach us', updatedAt: at },
    ];
    const later = cannedMatches('/re', more, 'support');
    expect(later[selectedIndex(resolved, '/re', later)]!.shortcut).toBe('resolved');
  });

  it('starts again at the first match when the reply changes', () => {
    expect(selectedIndex({ reply: '/re', id: '3' }, '/res', cannedMatches('/res', responses, null))).toBe(0);
  });
});
