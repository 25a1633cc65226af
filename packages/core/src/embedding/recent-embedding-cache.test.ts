import { describe, expect, test } from 'vitest';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { defineTree } from '../tree/define-tree.js';
import { InMemoryEmbeddingCache } from './embedding-cache.js';
import { HashedEmbedder } from './hashed-embedder.js';
import { RecentEmbeddingCache } from './recent-embedding-cache.js';

const v = (x: number) => Float32Array.of(x, 1 - x);

describe('RecentEmbeddingCache', () => {
  test('keeps the most recently used vectors, at most capacity', async () => {
    const cache = new RecentEmbeddingCache(new InMemoryEmbeddingCache(), 2);
    await cache.setMany('m', [
      { text: 'a', vector: v(0.1) },
      { text: 'b', vector: v(0.2) },
    ]);
    await cache.getMany('m', ['a']); // a is now more recent than b
    await cache.setMany('m', [{ text: 'c', vector: v(0.3) }]);
    expect(cache.size).toBe(2);
    const [a, b, c] = await cache.getMany('m', ['a', 'b', 'c']);
    expect(a).toEqual(v(0.1));
    expect(b).toBeUndefined();
    expect(c).toEqual(v(0.3));
  });

  test('reads through to the backing cache and never writes to it', async () => {
    const backing = new InMemoryEmbeddingCache();
    await backing.setMany('m', [{ text: 'chunk', vector: v(0.5) }]);
    const cache = new RecentEmbeddingCache(backing);
    await cache.setMany('m', [{ text: 'message', vector: v(0.7) }]);
    expect(backing.size).toBe(1);
    expect(await cache.getMany('m', ['chunk', 'message', 'other'])).toEqual([v(0.5), v(0.7), undefined]);
    expect(await cache.getMany('n', ['chunk'])).toEqual([undefined]);
  });

  test('refuses a capacity that is not a whole number', () => {
    expect(() => new RecentEmbeddingCache(new InMemoryEmbeddingCache(), -1)).toThrow(/capacity/);
  });
});

describe("a turn's message embedding", () => {
  const tree = defineTree({
    name: 'recent',
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      {
        id: 3,
        type: 'emit',
        parent: 2,
        chunks: ['orari di apertura'],
        emit: { message: { type: 'static', content: '9-18' } },
      },
    ],
  });

  test("is not written to the agent's embedding cache by default", async () => {
    const embeddingCache = new InMemoryEmbeddingCache();
    const agent = new TreeAgent({ tree, embedder: new HashedEmbedder(), embeddingCache });
    await agent.ready();
    const chunks = embeddingCache.size;
    await agent.send('s', 'a che ora aprite?');
    await agent.send('s', 'orari di apertura');
    expect(embeddingCache.size).toBe(chunks);
  });

  test("is written to it with messageEmbeddings: 'embedding-cache'", async () => {
    const embeddingCache = new InMemoryEmbeddingCache();
    const agent = new TreeAgent({
      tree,
      embedder: new HashedEmbedder(),
      embeddingCache,
      messageEmbeddings: 'embedding-cache',
    });
    await agent.ready();
    const chunks = embeddingCache.size;
    await agent.send('s', 'a che ora aprite?');
    expect(embeddingCache.size).toBe(chunks + 1);
  });

  test('an unknown messageEmbeddings value is refused with the allowed ones', () => {
    expect(() => new TreeAgent({ tree, messageEmbeddings: 'disk' as unknown as 'memory' })).toThrow(
      /messageEmbeddings must be 'memory' or 'embedding-cache'/,
    );
  });
});
