import { isAboveThreshold } from '../explore/similarity-threshold.js';
import type { ThresholdSource } from '../protocol/events.js';
import type { Tree } from '../tree/tree.js';
import { NONE, type UtteranceResult } from './routing-types.js';

/** No threshold is suggested from fewer utterances than this (at a node: that should descend through it). */
export const MIN_SUGGESTION_EXAMPLES = 8;

/** A routing node's threshold in the evaluation as is. */
export interface CurrentThreshold {
  threshold: number;
  source: ThresholdSource;
}

/** A suggested `similarityThreshold` for one routing node. */
export interface ThresholdSuggestion {
  nodeId: number;
  name: string | undefined;
  /** The threshold the node had in the evaluation (calibrated, set by hand, or the default). */
  current: number;
  currentSource: ThresholdSource;
  /** The largest threshold that keeps `keep` of the utterances that should descend; `null`: too few of them (see `reason`). */
  suggested: number | null;
  reason?: string;
  /** Utterances whose route passed through the node (every node descending): should descend / should stop. */
  shouldDescend: number;
  shouldStop: number;
  /** With the suggested threshold alone: share of those that should descend and would, and of those that should stop and would. */
  descendKept: number;
  stopRecall: number;
}

/** The per-node suggestions, and the share each keeps of what should descend through its node. */
export interface ThresholdSuggestions {
  suggestions: ThresholdSuggestion[];
  /**
   * The share of the utterances that should descend through a node that each suggestion keeps,
   * chosen so that all the suggestions together keep `keep` of the in-scope utterances (an
   * utterance passes several routing nodes: each keeping `keep` would keep less than `keep`
   * together). `null` when no node has a suggestion.
   */
  perNodeKeep: number | null;
}

/**
 * For each routing node, the threshold that keeps a share of the utterances that should go below it
 * (their expected node is in its subtree), from the similarity each had at the node with every node
 * descending (`open`). The share is the same for every node, the smallest that keeps `keep` of the
 * in-scope utterances routed with all the suggestions together — the operating point's promise,
 * per node. A share of in-scope messages carries over to new data, which maximising right decisions
 * on a set with far more in-scope than out-of-scope examples does not. No suggestion from fewer than
 * `MIN_SUGGESTION_EXAMPLES` such utterances, and never one above the highest of their similarities
 * (that would block every route).
 */
export function suggestThresholds(
  tree: Tree,
  open: UtteranceResult[],
  keep: number,
  current: ReadonlyMap<number, CurrentThreshold> = new Map(),
): ThresholdSuggestions {
  const samples = new Map<number, { similarity: number; positive: boolean }[]>();
  const expectedIds = new Map<string, number[]>();
  for (const node of tree.nodes.values()) {
    if (node.name) expectedIds.set(node.name, [...(expectedIds.get(node.name) ?? []), node.id]);
  }
  for (const result of open) {
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
  const positivesOf = new Map<number, number[]>();
  for (const [nodeId, list] of samples) {
    const positives = list.filter((sample) => sample.positive).map((sample) => sample.similarity);
    if (positives.length >= MIN_SUGGESTION_EXAMPLES) positivesOf.set(nodeId, positives);
  }
  const perNodeKeep = positivesOf.size ? jointKeep(open, positivesOf, keep) : null;
  const suggestions: ThresholdSuggestion[] = [];
  for (const [nodeId, list] of samples) {
    const node = tree.node(nodeId);
    const positives = list.filter((sample) => sample.positive).map((sample) => sample.similarity);
    const negatives = list.filter((sample) => !sample.positive).map((sample) => sample.similarity);
    const suggested =
      perNodeKeep !== null && positivesOf.has(nodeId) ? keeping(positives, perNodeKeep) : null;
    const now = current.get(nodeId) ?? {
      threshold: node.similarityThreshold,
      source: node.thresholdSource,
    };
    const at = suggested ?? now.threshold;
    suggestions.push({
      nodeId,
      name: node.name,
      current: now.threshold,
      currentSource: now.source,
      suggested,
      ...(suggested === null
        ? {
            reason: `only ${positives.length} utterance(s) should descend through it; no threshold is suggested from fewer than ${MIN_SUGGESTION_EXAMPLES}`,
          }
        : {}),
      shouldDescend: positives.length,
      shouldStop: negatives.length,
      descendKept: share(positives, (similarity) => isAboveThreshold(similarity, at)),
      stopRecall: share(negatives, (similarity) => !isAboveThreshold(similarity, at)),
    });
  }
  return { suggestions: suggestions.sort((a, b) => a.nodeId - b.nodeId), perNodeKeep };
}

/**
 * The smallest per-node share `q` (≥ `keep`, 3 decimals) such that the thresholds keeping `q` at
 * every node keep `keep` of the in-scope utterances when all of them apply: an utterance is kept when
 * it descends at every hop of its route (every node descending), as for the operating point.
 */
function jointKeep(
  open: UtteranceResult[],
  positivesOf: ReadonlyMap<number, number[]>,
  keep: number,
): number {
  const routes = open
    .filter((result) => result.expected !== NONE && Number.isFinite(result.pathSimilarity))
    .map((result) => result.hops.filter((hop) => hop.similarity !== null && positivesOf.has(hop.nodeId)));
  if (!routes.length) return keep;
  const sorted = new Map(
    [...positivesOf].map(([nodeId, values]) => [nodeId, [...values].sort((a, b) => b - a)]),
  );
  const kept = (q: number) => {
    const thresholds = new Map([...sorted].map(([nodeId, values]) => [nodeId, keepingSorted(values, q)]));
    const passing = routes.filter((hops) =>
      hops.every((hop) => isAboveThreshold(hop.similarity!, thresholds.get(hop.nodeId)!)),
    );
    return passing.length / routes.length;
  };
  let low = keep;
  let high = 1;
  if (kept(low) >= keep) return low;
  for (let step = 0; step < 20 && high - low > 5e-4; step++) {
    const middle = (low + high) / 2;
    if (kept(middle) >= keep) high = middle;
    else low = middle;
  }
  return Math.ceil(high * 1000) / 1000;
}

/** The largest 3-decimal threshold that `keep` of the values are strictly above (below the highest value). */
function keeping(values: number[], keep: number): number {
  return keepingSorted(
    [...values].sort((a, b) => b - a),
    keep,
  );
}

/** `keeping` of values sorted from the highest. */
function keepingSorted(sorted: number[], keep: number): number {
  const kept = Math.max(1, Math.ceil(keep * sorted.length));
  const boundary = sorted[kept - 1]!;
  const below = sorted.find((value) => value < boundary);
  const raw = below === undefined ? boundary - 1e-3 : (boundary + below) / 2;
  return Math.max(-1, Math.min(Math.floor(raw * 1000) / 1000, Math.floor((sorted[0]! - 1e-4) * 1000) / 1000));
}

function share<T>(items: T[], test: (item: T) => boolean): number {
  return items.length ? items.filter(test).length / items.length : 0;
}
