import { describe, expect, test } from 'vitest';
import { TreeAgent } from '../engine/tree-agent.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import { evaluateRouting } from './evaluate-routing.js';

/** agent → shop (threshold 0.3) → { orders, returns }; vectors chosen so each utterance's route is known. */
const tree = defineTree({
  nodes: [
    { id: 1, type: 'root', defaultSimilarityThreshold: 0.3 },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    { id: 3, type: 'empty', parent: 2, name: 'shop' },
    { id: 4, type: 'empty', parent: 3, name: 'orders', chunks: ['order'] },
    { id: 5, type: 'empty', parent: 3, name: 'returns', chunks: ['return'] },
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
  const report = await evaluateRouting(tree, (text) => agent.route(text), utterances, { keep: 0.75 });

  test('accuracy and out-of-scope recall with the tree as it is', () => {
    expect(report.total).toBe(6);
    expect(report.inScope).toBe(4);
    expect(report.accuracy).toBe(3 / 4);
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

  test('the operating point keeps the asked share of in-scope routes and rejects out-of-scope ones below it', () => {
    const point = report.operatingPoint;
    // In-scope route similarities: 0.9, 0.6, 0.8, 0.7 → keeping 75% puts the threshold between 0.6 and 0.7.
    expect(point.threshold).toBeGreaterThan(0.6);
    expect(point.threshold).toBeLessThan(0.7);
    expect(point.inScopeAccuracy).toBe(2 / 4);
    expect(point.outOfScopeRecall).toBe(1);
  });

  test('suggests a threshold per routing node that separates who should descend from who should stop', () => {
    const agentSuggestion = report.thresholds.find((suggestion) => suggestion.nodeId === 2)!;
    expect(agentSuggestion.shouldDescend).toBe(4);
    expect(agentSuggestion.shouldStop).toBe(2);
    expect(agentSuggestion.suggested).toBeGreaterThanOrEqual(0.5);
    expect(agentSuggestion.suggested).toBeLessThan(0.6);
    expect(agentSuggestion.accuracy).toBe(1);
  });
});
