import type { HistoryEntry } from '@treeagent/core/client';
import { describe, expect, it } from 'vitest';
import { restoreHistory } from './restore-history';
import { waitsForUser } from './turn-model';

describe('restoreHistory', () => {
  it("rebuilds each turn with its answers' options, sources and whether they wait for the user", () => {
    const sources = [{ title: 'Returns', url: 'https://shop.example/returns', content: 'Within 30 days.' }];
    const history: HistoryEntry[] = [
      { role: 'user', content: 'returns?', turn: 1, at: '2026-12-07T10:00:00.000Z' },
      {
        role: 'assistant',
        content: 'Within 30 days.',
        turn: 1,
        at: '2026-12-07T10:00:01.000Z',
        nodeId: 3,
        options: ['More'],
        sources,
      },
      { role: 'user', content: 'thanks', turn: 2, at: '2026-12-07T10:01:00.000Z' },
      {
        role: 'assistant',
        content: 'Your order number?',
        turn: 2,
        at: '2026-12-07T10:01:01.000Z',
        nodeId: 4,
        waitInteraction: true,
      },
    ];
    const turns = restoreHistory(history);
    expect(turns.map((turn) => turn.user.text)).toEqual(['returns?', 'thanks']);
    expect(turns[0]!.messages[0]!.message).toMatchObject({
      content: 'Within 30 days.',
      options: ['More'],
      sources,
    });
    expect(turns[1]!.messages[0]!.message?.sources).toEqual([]);
    // The last answer waits for the user's: the composer says so after a reload too.
    expect(waitsForUser(turns[0])).toBe(false);
    expect(waitsForUser(turns[1])).toBe(true);
  });
});
