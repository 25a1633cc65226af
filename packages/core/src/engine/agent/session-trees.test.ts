import { describe, expect, test } from 'vitest';
import { defineTree } from '../../tree/define-tree.js';
import type { Tree } from '../../tree/tree.js';
import { TreeAgent } from './tree-agent.js';

const shop = (answer: string): Tree =>
  defineTree({
    name: 'shop',
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        name: 'shipping',
        chunks: ['how long does shipping take'],
        emit: { message: { type: 'static', content: answer } },
      },
    ],
  });

describe('TreeAgent sessionTrees', () => {
  test("a session runs on the tree sessionTrees gives it; the others on the agent's tree", async () => {
    const v1 = shop('two days');
    const v2 = shop('one day');
    const pinned = new Map<string, Tree>([['early', v1]]);
    const asked: string[] = [];
    const agent = new TreeAgent({
      tree: v2,
      sessionTrees: {
        treeFor: async (sessionId) => {
          asked.push(sessionId);
          return pinned.get(sessionId) ?? null;
        },
      },
    });
    const answer = async (sessionId: string) =>
      (await agent.send(sessionId, 'how long does shipping take')).messages[0]?.content;
    expect(await answer('early')).toBe('two days');
    expect(await answer('late')).toBe('one day');
    expect(await answer('early')).toBe('two days');
    expect(asked).toEqual(['early', 'late', 'early']);
    expect(agent.loadedTrees()).toEqual([v1.contentHash]);
  });

  test('at most maxLoadedTrees other trees stay loaded, the least recently used unloaded first', async () => {
    const trees = ['a', 'b', 'c'].map((answer) => shop(answer));
    const agent = new TreeAgent({
      tree: shop('current'),
      maxLoadedTrees: 2,
      sessionTrees: { treeFor: async (sessionId) => trees[Number(sessionId)] ?? null },
    });
    for (const session of ['0', '1', '0', '2']) await agent.send(session, 'how long does shipping take');
    // 1 was used least recently when 2 came: it is the one unloaded.
    expect(agent.loadedTrees()).toEqual([trees[0]!.contentHash, trees[2]!.contentHash]);
    expect((await agent.send('1', 'how long does shipping take')).messages[0]?.content).toBe('b');
  });
});
