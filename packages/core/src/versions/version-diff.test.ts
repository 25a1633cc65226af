import { expect, test } from 'vitest';
import { versionDiff } from './version-diff.js';

test('versionDiff names the tree fields and the nodes added, removed and changed, with their fields', () => {
  const before = JSON.stringify({
    name: 'shop',
    nodes: [
      { id: 0, name: 'root' },
      { id: 1, name: 'billing', text: 'Pay here' },
      { id: 2, name: 'old' },
    ],
  });
  const after = JSON.stringify({
    name: 'shop',
    module: 'callbacks.ts',
    nodes: [
      { id: 0, name: 'root' },
      { id: 1, name: 'billing', text: 'Pay there', examples: ['invoice'] },
      { id: 3, name: 'new' },
    ],
  });
  expect(versionDiff(before, after)).toEqual([
    'tree: module changed',
    'node 1 (billing): text, examples changed',
    'node 3 (new): added',
    'node 2 (old): removed',
  ]);
  expect(versionDiff(before, before)).toEqual([]);
});
