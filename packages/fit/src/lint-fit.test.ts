import { TreeAgent } from '@treeagent/core';
import { lintTree } from '@treeagent/core/evaluation';
import { describe, expect, test } from 'vitest';
import { DEFAULT_BASE_WEIGHT } from './base-weight.js';
import { FittedEmbedder } from './fitted-embedder.js';
import { lintFit } from './lint-fit.js';
import { blend, sample, syntheticTree, TableEmbedder } from './test-support/synthetic.js';

// A node with one chunk, below minChunksPerClass (2). Its queries share its signature in the
// dimensions the fit learns to ignore, and look like alpha's chunks in the ones it keeps.
const lonelyChunk = sample(0, 'lonely:chunk');
const lonelyQueries = Array.from({ length: 12 }, (_, i) =>
  blend(lonelyChunk, `0:train:${i}`, `lonely:query:${i}`),
);
const withLonely = () =>
  syntheticTree([
    {
      id: 20,
      type: 'emit',
      parent: 4,
      name: 'lonely',
      chunks: [lonelyChunk],
      emit: { message: { type: 'static', content: 'lonely' } },
    },
  ]);

describe('lint of a fitted embedder', () => {
  test('warns about each node with too few chunks to fit, saying whether it falls back to the base space', async () => {
    const tree = withLonely();
    const fitted = await FittedEmbedder.fit(tree, new TableEmbedder(), { baseWeight: 0 });
    const [warning, ...others] = lintFit(tree, fitted);
    expect(others).toEqual([]);
    expect(warning).toMatchObject({ code: 'too-few-chunks-to-fit', nodeId: 20 });
    expect(warning!.message).toMatch(
      /node 20 \("lonely"\) has 1 chunk\(s\), fewer than the fit's minChunksPerClass \(2\)/,
    );
    expect(warning!.message).toMatch(/baseWeight 0 .* no base space/);
    expect(warning!.fix).toMatch(/at least 2 chunks.*--base-weight/);
    // The default keeps the base space: the node falls back to it.
    const withBase = lintFit(tree, await FittedEmbedder.fit(tree, new TableEmbedder()))[0]!;
    expect(withBase.message).toContain(
      `falls back to the base space, kept in the fitted vector at baseWeight ${DEFAULT_BASE_WEIGHT}`,
    );
    // A fit where every node has enough chunks: nothing to say.
    expect(lintFit(syntheticTree(), await FittedEmbedder.fit(syntheticTree(), new TableEmbedder()))).toEqual(
      [],
    );
  });

  test('warns when the fit was made for another version of the tree', async () => {
    const fitted = await FittedEmbedder.fit(syntheticTree(), new TableEmbedder());
    const changed = withLonely();
    const warnings = lintFit(changed, fitted);
    expect(warnings.map((warning) => warning.code)).toEqual(['stale-fit', 'too-few-chunks-to-fit']);
    expect(warnings[0]!.nodeId).toBe(changed.root.id);
    expect(warnings[0]!.fix).toMatch(/treeagent fit/);
  });

  test('lintTree (and so `treeagent lint`) includes the fitted embedder’s warnings', async () => {
    const tree = withLonely();
    const fitted = await FittedEmbedder.fit(tree, new TableEmbedder());
    const warnings = await lintTree(tree, { embedder: fitted, ambiguity: 1.01 });
    expect(warnings.map((warning) => warning.code)).toContain('too-few-chunks-to-fit');
    const plain = await lintTree(tree, { embedder: new TableEmbedder(), ambiguity: 1.01 });
    expect(plain.map((warning) => warning.code)).not.toContain('too-few-chunks-to-fit');
  });
});

describe('nodes left out of the fit fall back to the base space', () => {
  test('queries that only the base space tells apart reach a one-chunk node with baseWeight > 0, not in the fitted space alone', async () => {
    const tree = withLonely();
    const fitted = await FittedEmbedder.fit(tree, new TableEmbedder(), { baseWeight: 0 });
    expect(fitted.projection.excluded.map((entry) => entry.name)).toEqual(['lonely']);
    const reached = async (baseWeight: number) => {
      const agent = new TreeAgent({ tree, embedder: fitted.withBaseWeight(baseWeight) });
      let count = 0;
      for (const query of lonelyQueries) if ((await agent.route(query)).node.name === 'lonely') count++;
      return count / lonelyQueries.length;
    };
    const fittedOnly = await reached(0);
    const withBase = await reached(0.5);
    expect(withBase).toBeGreaterThanOrEqual(0.9);
    expect(withBase).toBeGreaterThan(fittedOnly + 0.3);
  });
});
