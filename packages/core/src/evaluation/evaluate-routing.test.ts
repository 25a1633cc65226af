import { describe, expect, test } from 'vitest';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { evaluateRouting } from './evaluate-routing.js';

const answer = (content: string) => ({ message: { type: 'static' as const, content } });

/** agent → shop (threshold 0.3) → { orders, returns }; vectors chosen so each utterance's route is known. */
const tree = defineTree({
  nodes: [
    { id: 1, type: 'root', defaultSimilarityThreshold: 0.3 },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'empty', parent: 2, name: 'shop' },
    { id: 4, type: 'emit', parent: 3, name: 'orders', chunks: ['order'], emit: answer('orders') },
    { id: 5, type: 'emit', parent: 3, name: 'returns', chunks: ['return'], emit: answer('returns') },
  ],
});
const c = (order: number, ret: number) => [order, ret, Math.sqrt(Math.max(0, 1 - order * order - ret * ret))];
const embedder = new ExactEmbedder({
  vectors: {
    order: [1, 0, 0],
    return: [0, 1, 0],
    'where is my parcel': c(0.9, 0.1),
    'my package is late': c(0.6, 0.2),
    'give my money back': c(0.2, 0.8),
    'send it back': c(0.7, 0.5), // expected returns, goes to orders: a confusion
    'what time is it': c(0.1, 0.1), // out of scope, stops at the agent
    'order a pizza': c(0.5, 0.0), // out of scope, but reaches orders with 0.5
  },
});
const agent = new TreeAgent({ tree, embedder });
const utterances = [
  ['where is my parcel', 'orders'],
  ['my package is late', 'orders'],
  ['give my money back', 'returns'],
  ['send it back', 'returns'],
  ['what time is it', 'none'],
  ['order a pizza', 'none'],
] as const;

describe('evaluateRouting', async () => {
  const report = await evaluateRouting(tree, agent, utterances, { keep: 0.75 });

  test('accuracy and out-of-scope recall with the tree as it is', () => {
    expect(report.total).toBe(6);
    expect(report.inScope).toBe(4);
    expect(report.accuracy).toBe(3 / 4);
    expect(report.inScopeKept).toBe(1);
    expect(report.outOfScopeRecall).toBe(1 / 2);
    expect(report.results.map((result) => result.predicted)).toEqual([
      'orders',
      'orders',
      'returns',
      'orders',
      'none',
      'orders',
    ]);
  });

  test('per-node precision and recall, and the confused pairs', () => {
    const orders = report.perNode.find((score) => score.name === 'orders')!;
    expect(orders).toMatchObject({ support: 2, recall: 1, precision: 2 / 4 });
    const returns = report.perNode.find((score) => score.name === 'returns')!;
    expect(returns).toMatchObject({ support: 2, recall: 1 / 2, precision: 1 });
    expect(report.confusions).toContainEqual({ expected: 'returns', predicted: 'orders', count: 1 });
    expect(report.confusions).toContainEqual({ expected: 'none', predicted: 'orders', count: 1 });
  });

  test('fewer than a handful of in-scope utterances: no operating point, no threshold suggested', () => {
    // 4 in-scope utterances: below MIN_SUGGESTION_EXAMPLES.
    expect(report.operatingPoint).toBeNull();
    for (const suggestion of report.thresholds) {
      expect(suggestion.suggested).toBeNull();
      expect(suggestion.reason).toMatch(/no threshold is suggested from fewer than 8/);
    }
    expect(report.suggestedOutcome).toBeNull();
    expect(report.warnings.join('\n')).toMatch(/only 4 in-scope utterance/);
  });

  test('warns when there are too few out-of-scope utterances', () => {
    expect(report.warnings.join('\n')).toMatch(/only 2 out-of-scope utterance\(s\)/);
  });

  test('a label that names no node is an error listing every unknown label', async () => {
    await expect(
      evaluateRouting(tree, agent, [
        ['where is my parcel', 'order'],
        ['give my money back', 'refunds'],
        ['send it back', 'refunds'],
        ['what time is it', 'none'],
      ]),
    ).rejects.toThrow(/2 label\(s\) name no node of the tree ".*": "order" \(1×\), "refunds" \(2×\)/);
  });
});

describe('suggestions from enough utterances', async () => {
  // 10 in-scope utterances per leaf with similarities 0.50 … 0.95, and 10 out-of-scope ones at 0.2 … 0.45.
  const vectors: Record<string, number[]> = { order: [1, 0, 0], return: [0, 1, 0] };
  const labelled: [string, string][] = [];
  for (let i = 0; i < 10; i++) {
    const high = 0.5 + i * 0.05;
    vectors[`order ${i}`] = c(high, 0);
    vectors[`return ${i}`] = c(0, high);
    vectors[`other ${i}`] = c(0.2 + i * 0.025, 0);
    labelled.push([`order ${i}`, 'orders'], [`return ${i}`, 'returns'], [`other ${i}`, 'none']);
  }
  const open = defineTree({
    nodes: [
      { id: 1, type: 'root', defaultSimilarityThreshold: -1 },
      ...tree.definition.nodes.filter((node) => node.type !== 'root'),
    ] as NodeDefinition[],
  });
  const report = await evaluateRouting(
    open,
    new TreeAgent({ tree: open, embedder: new ExactEmbedder({ vectors }) }),
    labelled,
    { keep: 0.9 },
  );

  test('the operating point keeps the asked share of in-scope utterances, checked by routing again', () => {
    expect(report.accuracy).toBe(1);
    expect(report.outOfScopeRecall).toBe(0);
    // 20 in-scope similarities 0.50 … 0.95 (two each): keeping 90% (18) puts the threshold between 0.50 and 0.55.
    expect(report.operatingPoint?.threshold).toBeGreaterThanOrEqual(0.5);
    expect(report.operatingPoint?.threshold).toBeLessThan(0.55);
    expect(report.operatingPoint?.inScopeKept).toBe(0.9);
    expect(report.operatingPoint?.inScopeAccuracy).toBe(0.9);
    expect(report.operatingPoint?.outOfScopeRecall).toBe(1);
  });

  test('per-node suggestions keep the same share of those that should descend, never more than all', () => {
    const top = report.thresholds.find((suggestion) => suggestion.nodeId === 2)!;
    expect(top.shouldDescend).toBe(20);
    expect(top.shouldStop).toBe(10);
    expect(top.descendKept).toBe(0.9);
    expect(top.stopRecall).toBe(1);
    expect(top.currentSource).toBe('root-default');
    expect(report.suggestedOutcome).toEqual({ inScopeAccuracy: 0.9, inScopeKept: 0.9, outOfScopeRecall: 1 });
    for (const suggestion of report.thresholds)
      if (suggestion.suggested !== null) expect(suggestion.suggested).toBeLessThan(0.95);
  });
});
