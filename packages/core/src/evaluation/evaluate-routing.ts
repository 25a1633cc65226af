import type { RouteResult } from '../engine/route.js';
import type { Tree } from '../tree/tree.js';
import { type LabelledUtterance, NONE, type UtteranceResult } from './routing-types.js';
import { suggestThresholds, type ThresholdSuggestion } from './suggest-thresholds.js';

export interface NodeScore {
  name: string;
  support: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface RoutingEvaluation {
  total: number;
  inScope: number;
  outOfScope: number;
  /** Share of in-scope utterances that reached their node, with the tree's thresholds. */
  accuracy: number;
  /** Share of out-of-scope utterances that reached none of the labelled nodes, with the tree's thresholds. */
  outOfScopeRecall: number;
  /** The operating point that keeps `keep` of the in-scope utterances routed (see `operatingPoint`). */
  operatingPoint: OperatingPoint;
  perNode: NodeScore[];
  /** The most frequent (expected, predicted) mistakes. */
  confusions: { expected: string; predicted: string; count: number }[];
  thresholds: ThresholdSuggestion[];
  results: UtteranceResult[];
}

/**
 * One threshold `t` applied to every routing node: an in-scope utterance stays right when its route
 * descended with similarities above `t`; an out-of-scope one becomes right when a hop falls to `t`.
 */
export interface OperatingPoint {
  threshold: number;
  keep: number;
  inScopeAccuracy: number;
  outOfScopeRecall: number;
}

export interface EvaluateRoutingOptions {
  /** Share of in-scope utterances the operating point keeps. Default 0.9. */
  keep?: number;
  /** Called after each utterance, for progress bars. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Routing evaluation: runs the real explore step on each labelled utterance and reports accuracy,
 * out-of-scope recall, per-node precision and recall, the most confused pairs, an operating point and
 * suggested `similarityThreshold` values per routing node.
 *
 * @example
 * const report = await evaluateRouting(agent.tree, (text) => agent.route(text), [['dov è il mio pacco', 'ordini'], ['che tempo fa', 'none']]);
 */
export async function evaluateRouting(
  tree: Tree,
  route: (text: string) => Promise<RouteResult>,
  utterances: readonly LabelledUtterance[],
  options: EvaluateRoutingOptions = {},
): Promise<RoutingEvaluation> {
  const labels = new Set(utterances.map(([, expected]) => expected).filter((label) => label !== NONE));
  const results: UtteranceResult[] = [];
  for (const [text, expected] of utterances) {
    const routed = await route(text);
    const predicted = routed.noMatch ? NONE : (routed.node.name ?? `#${routed.node.id}`);
    const correct = expected === NONE ? !labels.has(predicted) : predicted === expected;
    const hops = routed.decisions
      .filter((decision) => decision.action === 'descend' || decision.action === 'below-threshold')
      .map((decision) => ({
        nodeId: decision.nodeId,
        similarity: decision.best?.similarity ?? null,
        descended: decision.action === 'descend',
      }));
    const descents = hops.filter((hop) => hop.descended).map((hop) => hop.similarity!);
    results.push({
      text,
      expected,
      predicted,
      correct,
      pathSimilarity: descents.length ? Math.min(...descents) : Number.NEGATIVE_INFINITY,
      hops,
    });
    options.onProgress?.(results.length, utterances.length);
  }
  const inScope = results.filter((result) => result.expected !== NONE);
  const outOfScope = results.filter((result) => result.expected === NONE);
  return {
    total: results.length,
    inScope: inScope.length,
    outOfScope: outOfScope.length,
    accuracy: share(inScope, (result) => result.correct),
    outOfScopeRecall: share(outOfScope, (result) => result.correct),
    operatingPoint: operatingPoint(inScope, outOfScope, labels, options.keep ?? 0.9),
    perNode: scores(results, labels),
    confusions: confusions(results),
    thresholds: suggestThresholds(tree, results),
    results,
  };
}

function operatingPoint(
  inScope: UtteranceResult[],
  outOfScope: UtteranceResult[],
  labels: Set<string>,
  keep: number,
): OperatingPoint {
  const similarities = inScope.map((result) => result.pathSimilarity).sort((a, b) => b - a);
  const kept = Math.max(1, Math.ceil(keep * similarities.length));
  // The largest t with at least `kept` in-scope route similarities strictly above it.
  const boundary = similarities[kept - 1] ?? 0;
  const below = similarities.find((similarity) => similarity < boundary);
  // Routes that never descended have similarity -Infinity: no threshold keeps them, -1 keeps all the others.
  const raw = below === undefined ? boundary - 1e-6 : (boundary + below) / 2;
  const threshold = Number.isFinite(raw) ? Math.max(-1, Math.min(1, raw)) : -1;
  return {
    threshold,
    keep,
    inScopeAccuracy: share(inScope, (result) => result.correct && result.pathSimilarity > threshold),
    outOfScopeRecall: share(
      outOfScope,
      (result) => !labels.has(result.predicted) || result.pathSimilarity <= threshold,
    ),
  };
}

function scores(results: UtteranceResult[], labels: Set<string>): NodeScore[] {
  return [...labels].sort().map((name) => {
    const truePositive = results.filter(
      (result) => result.expected === name && result.predicted === name,
    ).length;
    const predicted = results.filter((result) => result.predicted === name).length;
    const support = results.filter((result) => result.expected === name).length;
    const precision = predicted ? truePositive / predicted : 0;
    const recall = support ? truePositive / support : 0;
    return {
      name,
      support,
      precision,
      recall,
      f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    };
  });
}

function confusions(results: UtteranceResult[]): RoutingEvaluation['confusions'] {
  const counts = new Map<string, { expected: string; predicted: string; count: number }>();
  for (const result of results) {
    if (result.correct) continue;
    const key = `${result.expected}\u0000${result.predicted}`;
    const entry = counts.get(key) ?? { expected: result.expected, predicted: result.predicted, count: 0 };
    entry.count += 1;
    counts.set(key, entry);
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || a.expected.localeCompare(b.expected))
    .slice(0, 20);
}

function share<T>(items: T[], test: (item: T) => boolean): number {
  return items.length ? items.filter(test).length / items.length : 0;
}
