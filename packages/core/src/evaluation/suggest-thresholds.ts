import type { Tree } from '../tree/tree.js';
import { NONE, type UtteranceResult } from './routing-types.js';

/** A suggested `similarityThreshold` for one routing node. */
export interface ThresholdSuggestion {
  nodeId: number;
  name: string | undefined;
  current: number;
  /** The threshold that makes the most right decisions at this node on the evaluation set. */
  suggested: number;
  /** Utterances whose route passed through the node: should descend / should stop. */
  shouldDescend: number;
  shouldStop: number;
  /** Share of right decisions at the node with the suggested threshold. */
  accuracy: number;
}

/**
 * For each routing node, the threshold that best separates the utterances that should go below it
 * (their expected node is in its subtree) from those that should not (out of scope, or expected
 * elsewhere), using the best similarity each of them had at that node.
 */
export function suggestThresholds(tree: Tree, results: UtteranceResult[]): ThresholdSuggestion[] {
  const samples = new Map<number, { similarity: number; positive: boolean }[]>();
  const expectedIds = new Map<string, number[]>();
  for (const node of tree.nodes.values()) {
    if (node.name) expectedIds.set(node.name, [...(expectedIds.get(node.name) ?? []), node.id]);
  }
  for (const result of results) {
    const targets = result.expected === NONE ? [] : (expectedIds.get(result.expected) ?? []);
    for (const hop of result.hops) {
      if (hop.similarity === null) continue;
      const positive = targets.some(
        (target) => target !== hop.nodeId && tree.isInSubtree(target, hop.nodeId),
      );
      const list = samples.get(hop.nodeId) ?? [];
      list.push({ similarity: hop.similarity, positive });
      samples.set(hop.nodeId, list);
    }
  }
  const suggestions: ThresholdSuggestion[] = [];
  for (const [nodeId, list] of samples) {
    const node = tree.node(nodeId);
    const { threshold, correct } = bestSplit(list);
    suggestions.push({
      nodeId,
      name: node.name,
      current: node.similarityThreshold,
      suggested: threshold,
      shouldDescend: list.filter((sample) => sample.positive).length,
      shouldStop: list.filter((sample) => !sample.positive).length,
      accuracy: correct / list.length,
    });
  }
  return suggestions.sort((a, b) => a.nodeId - b.nodeId);
}

/** The threshold t maximising (positives with s > t) + (negatives with s ≤ t); ties keep the lowest t. */
function bestSplit(list: { similarity: number; positive: boolean }[]): {
  threshold: number;
  correct: number;
} {
  const sorted = [...list].sort((a, b) => a.similarity - b.similarity);
  const positives = sorted.filter((sample) => sample.positive).length;
  // Threshold below everything: every positive descends, every negative descends too.
  let best = { threshold: round(sorted[0]!.similarity - 0.01), correct: positives };
  let negativesBelow = 0;
  let positivesBelow = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (sorted[i]!.positive) positivesBelow++;
    else negativesBelow++;
    if (i + 1 < sorted.length && sorted[i + 1]!.similarity === sorted[i]!.similarity) continue;
    const correct = negativesBelow + (positives - positivesBelow);
    if (correct > best.correct) {
      const next = sorted[i + 1]?.similarity ?? sorted[i]!.similarity + 0.02;
      best = { threshold: round((sorted[i]!.similarity + next) / 2), correct };
    }
  }
  return { threshold: Math.max(-1, Math.min(1, best.threshold)), correct: best.correct };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
