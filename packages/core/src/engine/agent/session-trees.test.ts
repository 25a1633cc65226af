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

  test('a tree is unloaded as soon as no session uses it: its sessions deleted or moved to another tree', async () => {
    const [a, b] = ['a', 'b'].map((answer) => shop(answer));
    const pinned = new Map<string, Tree>([
      ['on a', a!],
      ['also on a', a!],
      ['on b', b!],
    ]);
    const forgotten: string[][] = [];
    const agent = new TreeAgent({
      tree: shop('current'),
      sessionTrees: {
        treeFor: async (sessionId) => pinned.get(sessionId) ?? null,
        forget: async (sessionIds) => {
          forgotten.push([...sessionIds]);
        },
      },
    });
    for (const session of ['on a', 'also on a', 'on b'])
      await agent.send(session, 'how long does shipping take');
    expect(agent.loadedTrees()).toEqual([a!.contentHash, b!.contentHash]);
    await agent.deleteSession('on a');
    // Another session still runs on a: it stays.
    expect(agent.loadedTrees()).toEqual([a!.contentHash, b!.contentHash]);
    await agent.deleteSessions(['also on a']);
    expect(agent.loadedTrees()).toEqual([b!.contentHash]);
    // The session on b moves to the agent's tree (its version could not be loaded any more, say).
    pinned.delete('on b');
    await agent.send('on b', 'how long does shipping take');
    expect(agent.loadedTrees()).toEqual([]);
    expect(agent.loadedTreeBytes()).toBe(0);
    // The session trees were told, so they forget the deleted sessions' versions.
    expect(forgotten).toEqual([['on a'], ['also on a']]);
  });

  test('maxLoadedTreeBytes bounds the estimated memory of the other trees, the least recently used unloaded first', async () => {
    const trees = ['a', 'b', 'c'].map((answer) => shop(answer));
    const probe = new TreeAgent({
      tree: shop('current'),
      sessionTrees: { treeFor: async () => trees[0]! },
    });
    await probe.send('probe', 'how long does shipping take');
    const oneTree = probe.loadedTreeBytes();
    expect(oneTree).toBeGreaterThan(0);
    const agent = new TreeAgent({
      tree: shop('current'),
      maxLoadedTreeBytes: 2 * oneTree,
      sessionTrees: { treeFor: async (sessionId) => trees[Number(sessionId)] ?? null },
    });
    for (const session of ['0', '1', '0', '2']) await agent.send(session, 'how long does shipping take');
    // Three trees do not fit in the bytes of two: 1, used least recently, is unloaded (the count allows 4).
    expect(agent.loadedTrees()).toEqual([trees[0]!.contentHash, trees[2]!.contentHash]);
    expect(agent.loadedTreeBytes()).toBeLessThanOrEqual(2 * oneTree);
    // A bound below one tree still serves the tree in use: the one used last stays.
    const tight = new TreeAgent({
      tree: shop('current'),
      maxLoadedTreeBytes: 1,
      sessionTrees: { treeFor: async (sessionId) => trees[Number(sessionId)] ?? null },
    });
    for (const session of ['0', '1']) await tight.send(session, 'how long does shipping take');
    expect(tight.loadedTrees()).toEqual([trees[1]!.contentHash]);
    expect((await tight.send('0', 'how long does shipping take')).messages[0]?.content).toBe('a');
  });

  test("sessionTrees gets the session's user id from send, else null; an empty one is refused", async () => {
    const asked: [string, string | null][] = [];
    const agent = new TreeAgent({
      tree: shop('current'),
      sessionTrees: {
        treeFor: async (sessionId, session) => {
          asked.push([sessionId, session?.userId ?? null]);
          return null;
        },
      },
    });
    await agent.send('s1', 'hello', { userId: 'crm:4711' });
    await agent.send('s2', 'hello');
    expect(asked).toEqual([
      ['s1', 'crm:4711'],
      ['s2', null],
    ]);
    await expect(agent.send('s3', 'hello', { userId: '' })).rejects.toThrow(
      /userId must be a non-empty string/,
    );
  });
});
