import { describe, expect, test, vi } from 'vitest';
import type { Embedder } from '../embedding/embedder.js';
import { HashedEmbedder } from '../embedding/hashed-embedder.js';
import { seededRandom } from '../test-support/seeded-random.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import type { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';
import { type LintableEmbedder, lintTree } from './lint-tree.js';
import type { LintWarning } from './lint-warning.js';

const emit = { message: { type: 'static' as const, content: 'ok' } };
const fallback = () => ({ nodeTarget: 3 });

const VOCABULARY =
  'where when how why can could would please help order parcel refund card account password reset change cancel book flight hotel room bill payment late lost new old my the a to for with'.split(
    ' ',
  );

/**
 * Each node hangs from one of the `reach` nodes made just before it (reach 1: a chain); one in
 * `chunkless` has no chunk, and some nodes link to a random earlier node.
 */
function randomTree(seed: number, nodes: number, reach: number, chunkless: number): Tree {
  const next = seededRandom(seed);
  const out: NodeDefinition[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback },
  ];
  for (let id = 3; id < nodes + 3; id++) {
    const parent = Math.max(2, id - 1 - Math.floor(next() * reach));
    const words = Array.from({ length: 6 }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]);
    const chunks = next() * chunkless < 1 ? [] : [words.join(' ')];
    const links = next() < 0.02 && id > 3 ? { jump: 3 + Math.floor(next() * (id - 3)) } : undefined;
    out.push({ id, type: 'emit', parent, chunks, emit, ...(links ? { links } : {}) } as NodeDefinition);
  }
  return defineTree({ nodes: out });
}

/** The rule as written: walking up from the node, every node to its agent has chunks, or a linked node is met first. */
function unreachableByDefinition(tree: Tree): number[] {
  const linked = new Set<number>();
  for (const node of tree.nodes.values()) for (const target of Object.values(node.links)) linked.add(target);
  const unreachable: number[] = [];
  for (const node of tree.nodes.values()) {
    if (node.type === 'root' || node.type === 'agent') continue;
    let explorable = true;
    let linkedOnTheWay = false;
    for (let current: TreeNode = node; current.type !== 'agent'; current = tree.node(current.parentId!)) {
      if (linked.has(current.id) && explorable) linkedOnTheWay = true;
      if (current.chunkEnd === current.chunkStart) explorable = false;
    }
    if (!explorable && !linkedOnTheWay) unreachable.push(node.id);
  }
  return unreachable;
}

describe('lintTree on deep trees', () => {
  test('unreachable nodes as the rule defines them, on chains and bushes', async () => {
    let found = 0;
    for (const [seed, reach] of [
      [1, 1],
      [2, 4],
      [3, 50],
    ] as const) {
      const tree = randomTree(seed, 400, reach, 3);
      const warnings = await lintTree(tree);
      const unreachable = warnings.filter((warning) => warning.code === 'unreachable-node');
      expect(unreachable.map((warning) => warning.nodeId)).toEqual(unreachableByDefinition(tree));
      found += unreachable.length;
    }
    expect(found).toBeGreaterThan(10);
  });

  test('looks each node up a bounded number of times, however deep the tree', async () => {
    // A chain 3,000 nodes deep: walking up to the agent from every node (the code before) looks up
    // about 4.5 million nodes.
    const tree = randomTree(4, 3000, 1, 1000);
    const node = vi.spyOn(tree, 'node');
    const get = vi.spyOn(tree.nodes as Map<number, TreeNode>, 'get');
    await lintTree(tree);
    expect(node.mock.calls.length + get.mock.calls.length).toBeLessThan(10 * tree.nodes.size);
  });

  test('pairs of sibling subtrees found in deep chains cost their common ancestor, not their depth', async () => {
    // Two chains 1,500 deep under the agent, the second repeating the first's texts: 1,500 ambiguous
    // pairs whose nodes are up to 1,500 levels down (walking up from both, the code before looked up
    // about 4.5 million nodes).
    const next = seededRandom(6);
    const texts = Array.from({ length: 1500 }, () =>
      Array.from({ length: 7 }, () => VOCABULARY[Math.floor(next() * VOCABULARY.length)]).join(' '),
    );
    const nodes: NodeDefinition[] = [
      { id: 1, type: 'root' },
      { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback },
    ];
    for (const first of [10, 10_000])
      for (let level = 0; level < texts.length; level++)
        nodes.push({
          id: first + level,
          type: 'emit',
          parent: level ? first + level - 1 : 2,
          chunks: [texts[level]!],
          emit,
        });
    const tree = defineTree({ nodes });
    const node = vi.spyOn(tree, 'node');
    const get = vi.spyOn(tree.nodes as Map<number, TreeNode>, 'get');
    const ambiguous = (await lintTree(tree)).filter((warning) => warning.code === 'ambiguous-siblings');
    expect(ambiguous).toHaveLength(1);
    expect(ambiguous[0]!.message).toContain('have 1500 chunk pair(s)');
    expect(node.mock.calls.length + get.mock.calls.length).toBeLessThan(10 * tree.nodes.size);
  });

  test("every warning of an embedder's own, however many", async () => {
    // More warnings than a spread into push() takes as arguments (it overflowed the call stack).
    const many: LintWarning[] = Array.from({ length: 300_000 }, (_, index) => ({
      code: 'ambiguous-siblings',
      nodeId: 3 + (index % 2),
      message: `warning ${index}`,
      fix: 'none',
    }));
    const embedder: LintableEmbedder = Object.assign(new HashedEmbedder() as Embedder, { lint: () => many });
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true, fallback },
        { id: 3, type: 'emit', parent: 2, chunks: ['where is my parcel'], emit },
        { id: 4, type: 'emit', parent: 2, chunks: ['cancel my subscription'], emit },
      ],
    });
    const warnings = await lintTree(tree, { embedder });
    expect(warnings).toHaveLength(300_000);
    expect(warnings[299_999]!.message).toBe('warning 299999');
  });
});
