import { beforeAll, describe, expect, it } from 'vitest';
import { ExploreConstraints } from '../context/explore-strategy.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import type { Tree } from '../tree/tree.js';
import { ChunkIndex } from './chunk-index.js';
import { bestChunkIn, buildChunkMask } from './chunk-mask.js';

/**
 * Chunk order (depth-first, a node's own chunks first):
 *   0 agent-own (2:0)   1 alpha ('a', en)   2 beta (7, it)   3 gamma (11:0, en)   4 delta (20:0, no extra)
 */
function maskTree(): Tree {
  return defineTree({
    nodes: [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, chunks: ['agent-own'] },
      {
        id: 10,
        type: 'empty',
        parent: 2,
        chunks: [
          { id: 'a', text: 'alpha', extra: { lang: 'en' } },
          { id: 7, text: 'beta', extra: { lang: 'it' } },
        ],
      },
      {
        id: 11,
        type: 'emit',
        parent: 10,
        chunks: [{ text: 'gamma', extra: { lang: 'en' } }],
        emit: { message: { type: 'static', content: 'gamma' } },
      },
      {
        id: 20,
        type: 'emit',
        parent: 2,
        chunks: ['delta'],
        emit: { message: { type: 'static', content: 'delta' } },
      },
    ],
  });
}

const onlyEnglish = { must: [{ key: 'lang', match: { value: 'en' } }] };

describe('buildChunkMask', () => {
  let tree: Tree;
  let index: ChunkIndex;
  const mask = (setup: (constraints: ExploreConstraints) => void) => {
    const constraints = new ExploreConstraints();
    setup(constraints);
    const built = buildChunkMask(tree, index, constraints);
    return built === null ? null : [...built];
  };

  beforeAll(async () => {
    tree = maskTree();
    index = await ChunkIndex.build(tree, new ExactEmbedder({ vectors: {}, fallback: [1, 0] }));
  });

  it('lays the chunks out as the tests assume', () => {
    expect(tree.chunks.map((chunk) => chunk.id)).toEqual(['2:0', 'a', 7, '11:0', '20:0']);
    expect(tree.node(10)).toMatchObject({ chunkStart: 1, ownChunkEnd: 3, chunkEnd: 4 });
  });

  it('returns null when neither blacklist nor filter constrains anything', () => {
    expect(mask(() => {})).toBeNull();
  });

  it('excludes a blacklisted node together with its whole subtree', () => {
    expect(mask((c) => c.blacklist.add(10, 'node'))).toEqual([1, 0, 0, 0, 1]);
  });

  it('excludes only the chunks of a blacklisted leaf', () => {
    expect(mask((c) => c.blacklist.add(11, 'node'))).toEqual([1, 1, 1, 0, 1]);
  });

  it('excludes a blacklisted chunk alone, by string or integer id', () => {
    expect(mask((c) => c.blacklist.add('a', 'chunk'))).toEqual([1, 0, 1, 1, 1]);
    expect(mask((c) => c.blacklist.add(7, 'chunk'))).toEqual([1, 1, 0, 1, 1]);
    expect(mask((c) => c.blacklist.add(['2:0', '20:0'], 'chunk'))).toEqual([0, 1, 1, 1, 0]);
  });

  it('ignores unknown node and chunk ids', () => {
    expect(
      mask((c) => {
        c.blacklist.add(999, 'node');
        c.blacklist.add('missing', 'chunk');
      }),
    ).toEqual([1, 1, 1, 1, 1]);
  });

  it("applies the filter to each chunk's extra (a chunk without the key does not match)", () => {
    expect(
      mask((c) => {
        c.filter = onlyEnglish;
      }),
    ).toEqual([0, 1, 0, 1, 0]);
  });

  it('lets every chunk through an empty filter', () => {
    expect(
      mask((c) => {
        c.filter = {};
      }),
    ).toEqual([1, 1, 1, 1, 1]);
  });

  it('combines blacklist and filter', () => {
    expect(
      mask((c) => {
        c.filter = onlyEnglish;
        c.blacklist.add('11:0', 'chunk');
      }),
    ).toEqual([0, 1, 0, 0, 0]);
    expect(
      mask((c) => {
        c.filter = onlyEnglish;
        c.blacklist.add(20, 'node');
        c.blacklist.add('a', 'chunk');
      }),
    ).toEqual([0, 0, 0, 1, 0]);
  });

  it('reads constraints restored from a session', () => {
    const constraints = new ExploreConstraints({
      blacklist: { nodes: [20], chunks: ['a'] },
      filter: null,
      keep: true,
    });
    expect([...buildChunkMask(tree, index, constraints)!]).toEqual([1, 0, 1, 1, 0]);
  });

  it('does not change the constraints', () => {
    const constraints = new ExploreConstraints();
    constraints.blacklist.add(10, 'node');
    constraints.filter = onlyEnglish;
    buildChunkMask(tree, index, constraints);
    expect(constraints.toJSON()).toEqual({
      blacklist: { nodes: [10], chunks: [] },
      filter: onlyEnglish,
      keep: false,
    });
  });
});

describe('bestChunkIn', () => {
  const similarities = Float32Array.from([0.1, 0.9, 0.3, 0.9, -0.2]);

  it('returns the position and similarity of the most similar chunk', () => {
    expect(bestChunkIn(Float32Array.from([0.1, 0.3, 0.8, 0.2]), null, 0, 4)).toEqual({
      position: 2,
      similarity: Math.fround(0.8),
    });
  });

  it('keeps the first of equal similarities', () => {
    expect(bestChunkIn(similarities, null, 0, 5)).toEqual({ position: 1, similarity: Math.fround(0.9) });
  });

  it('looks only inside [from, to)', () => {
    expect(bestChunkIn(similarities, null, 2, 5)?.position).toBe(3);
    expect(bestChunkIn(similarities, null, 2, 3)?.position).toBe(2);
    expect(bestChunkIn(similarities, null, 0, 1)?.position).toBe(0);
  });

  it('returns a best chunk even when its similarity is negative', () => {
    expect(bestChunkIn(similarities, null, 4, 5)).toEqual({ position: 4, similarity: Math.fround(-0.2) });
    expect(bestChunkIn(Float32Array.from([-0.7, -0.3]), null, 0, 2)?.position).toBe(1);
  });

  it('skips masked chunks', () => {
    expect(bestChunkIn(similarities, Uint8Array.from([1, 0, 1, 1, 1]), 0, 5)?.position).toBe(3);
    expect(bestChunkIn(similarities, Uint8Array.from([1, 0, 1, 0, 1]), 0, 5)?.position).toBe(2);
  });

  it('treats an all-ones mask like no mask', () => {
    expect(bestChunkIn(similarities, new Uint8Array(5).fill(1), 0, 5)).toEqual(
      bestChunkIn(similarities, null, 0, 5),
    );
  });

  it('returns null when the range is empty or every chunk in it is masked', () => {
    expect(bestChunkIn(similarities, null, 3, 3)).toBeNull();
    expect(bestChunkIn(new Float32Array(0), null, 0, 0)).toBeNull();
    expect(bestChunkIn(similarities, Uint8Array.from([1, 0, 0, 0, 1]), 1, 4)).toBeNull();
  });
});
