import { describe, expect, test } from 'vitest';
import { defineTree } from './define-tree.js';
import { nestedTree } from './nested-tree.js';

describe('nestedTree', () => {
  test('implies parents from nesting and yields the same tree as the flat form', () => {
    const nested = defineTree(
      nestedTree(
        {
          id: 1,
          type: 'root',
          children: [
            {
              id: 2,
              type: 'agent',
              isPrimary: true,
              children: [
                {
                  id: 3,
                  type: 'emit',
                  chunks: ['ciao'],
                  emit: { message: { type: 'static', content: 'Ciao!' } },
                },
                { id: 4, type: 'empty', chunks: ['ordine'], children: [{ id: 5, type: 'empty' }] },
              ],
            },
          ],
        },
        { name: 'nested' },
      ),
    );
    const flat = defineTree({
      name: 'nested',
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['ciao'],
          emit: { message: { type: 'static', content: 'Ciao!' } },
        },
        { id: 4, type: 'empty', parent: 2, chunks: ['ordine'] },
        { id: 5, type: 'empty', parent: 4 },
      ],
    });
    expect(nested.contentHash).toBe(flat.contentHash);
    expect(nested.node(4).children).toEqual([5]);
    expect(nested.node(5).parentId).toBe(4);
  });
});
