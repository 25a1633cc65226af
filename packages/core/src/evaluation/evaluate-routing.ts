import type { RouteResult } from '../engine/agent/route.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Tree } from '../tree/tree.js';
import {
  type LabelledUtterance,
  NONE,
  type RouteFunction,
  type ThresholdOverride,
  type UtteranceResult,
} from './routing-types.js';
import {
  type CurrentThreshold,
  MIN_SUGGESTION_EXAMPLES,
  suggestThresholds,
  type ThresholdSuggestion,
} from './suggest-thresholds.js';

/** Fewer out-of-scope utterances than this: the report warns that out-of-scope figures are not to be trusted. */
export const MIN_OUT_OF_SCOPE_EXAMPLES = 20;

export interface NodeScore {
  name: string;
  support: number;
  precision: number;
  recall: number;
  f1: number;
}

/** What a set of thresholds gives on the labelled utterances, routed exactly as `send` would. */
export interface RoutingOutcome {
  /** In-scope right: the share of in-scope utterances whose turn answers from their expected node (not declined, not elsewhere). */
  inScopeAccuracy: number;
  /** Share of in-scope utterances that some node answers (right or wrong), i.e. not declined to the fallback. */
  inScopeKept: number;
  /** Share of out-of-scope utterances that reach none of the labelled nodes. */
  outOfScopeRecall: number;
}

export interface RoutingEvaluation {
  total: number;
  inScope: number;
  outOfScope: number;
  /** The share of in-scope utterances the operating point and the suggestions aim to keep (`EvaluateRoutingOptions.keep`). */
  keep: number;
  /** Share of in-scope utterances whose turn answers from their expected node, with the tree's thresholds. */
  accuracy: number;
  /** Share of in-scope utterances not declined, with the tree's thresholds. */
  inScopeKept: number;
  /** Share of out-of-scope utterances that reached none of the labelled nodes, with the tree's thresholds. */
  outOfScopeRecall: number;
  /**
   * One threshold for every routing node that keeps `keep` of the in-scope utterances routed (see
   * `OperatingPoint`); `null` when there are too few in-scope utterances to choose one from
   * (`MIN_SUGGESTION_EXAMPLES`; a warning says so).
   */
  operatingPoint: OperatingPoint | null;
  perNode: NodeScore[];
  /** The most frequent (expected, predicted) mistakes. */
  confusions: { expected: string; predicted: string; count: number }[];
  /** A suggested threshold per routing node (or why there is none), and what they give applied together. */
  thresholds: ThresholdSuggestion[];
  /** The share of what should descend through its node each suggestion keeps, so that together they keep `keep` (see `ThresholdSuggestions`). */
  perNodeKeep: number | null;
  /** The per-node suggestions applied together, routed again: `null` when there is no suggestion. */
  suggestedOutcome: RoutingOutcome | null;
  /** What the figures cannot tell (too few out-of-scope utterances, too few examples for a suggestion). */
  warnings: string[];
  results: UtteranceResult[];
}

/**
 * One threshold `t` for every routing node (the root's `defaultSimilarityThreshold`, with no node
 * setting its own): the largest that keeps `keep` of the in-scope utterances routed when every
 * routing node always descends. Its figures come from routing every utterance again with `t`.
 */
export interface OperatingPoint extends RoutingOutcome {
  threshold: number;
  keep: number;
}

export interface EvaluateRoutingOptions {
  /** Share of in-scope utterances the operating point and the suggestions keep. Default 0.9. */
  keep?: number;
  /** Called after each utterance routed, for progress bars (`total` counts every routing pass). */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Routing evaluation: routes each labelled utterance exactly as `send` would on a fresh session
 * (`TreeAgent.route`: the real explore step, and the climbs the step loop makes from `empty` and
 * `switch` nodes without callbacks) and reports accuracy, out-of-scope recall, per-node precision
 * and recall, the most confused pairs, a single operating-point threshold and a threshold per routing
 * node, each checked by routing again with it. A label that names no node is an error. `router` is a
 * `TreeAgent` (or a function that honours `thresholds`, like `TreeAgent.route`).
 *
 * @example
 * const report = await evaluateRouting(agent.tree, agent, [['dov è il mio pacco', 'ordini'], ['che tempo fa', 'none']]);
 */
export async function evaluateRouting(
  tree: Tree,
  router: RouteFunction | { route: RouteFunction },
  utterances: readonly LabelledUtterance[],
  options: EvaluateRoutingOptions = {},
): Promise<RoutingEvaluation> {
  checkLabels(tree, utterances);
  const route: RouteFunction =
    typeof router === 'function' ? router : (text, routeOptions) => router.route(text, routeOptions);
  const keep = options.keep ?? 0.9;
  if (!(keep > 0 && keep <= 1))
    throw new TreeAgentError('INVALID_INPUT', `evaluateRouting: keep must be in (0, 1]; got ${keep}.`);
  const labels = new Set(utterances.map(([, expected]) => expected).filter((label) => label !== NONE));
  const total = utterances.length * 4;
  let done = 0;
  const pass = async (thresholds?: ThresholdOverride): Promise<UtteranceResult[]> => {
    const results: UtteranceResult[] = [];
    for (const [text, expected] of utterances) {
      const routed = await route(text, thresholds === undefined ? {} : { thresholds });
      results.push(toResult(text, expected, routed, labels));
      options.onProgress?.(++done, total);
    }
    return results;
  };

  const results = await pass();
  const inScope = results.filter((result) => result.expected !== NONE);
  const outOfScope = results.filter((result) => result.expected === NONE);
  // Every routing node descending: the similarity each utterance has at each node on its path.
  const open = await pass(-1);
  const threshold = operatingThreshold(open, keep);
  const operatingPoint: OperatingPoint | null =
    threshold === null ? null : { threshold, keep, ...outcome(await pass(threshold)) };
  const { suggestions: thresholds, perNodeKeep } = suggestThresholds(
    tree,
    open,
    keep,
    currentThresholds(results),
  );
  const suggested = new Map(
    thresholds.flatMap((suggestion) =>
      suggestion.suggested === null ? [] : [[suggestion.nodeId, suggestion.suggested] as const],
    ),
  );
  const suggestedOutcome = suggested.size ? outcome(await pass(suggested)) : null;
  options.onProgress?.(total, total);

  const warnings: string[] = [];
  if (outOfScope.length < MIN_OUT_OF_SCOPE_EXAMPLES)
    warnings.push(
      `only ${outOfScope.length} out-of-scope utterance(s) (labelled ${NONE}): out-of-scope recall is not measured well below ${MIN_OUT_OF_SCOPE_EXAMPLES}; add questions the tree should not answer, written like real users'.`,
    );
  if (inScope.length < MIN_SUGGESTION_EXAMPLES)
    warnings.push(
      `only ${inScope.length} in-scope utterance(s): no threshold is suggested from fewer than ${MIN_SUGGESTION_EXAMPLES}.`,
    );
  return {
    total: results.length,
    inScope: inScope.length,
    outOfScope: outOfScope.length,
    keep,
    ...renamed(outcome(results)),
    operatingPoint,
    perNode: scores(results, labels),
    confusions: confusions(results),
    thresholds,
    perNodeKeep,
    suggestedOutcome,
    warnings,
    results,
  };
}

function renamed(figures: RoutingOutcome): {
  accuracy: number;
  inScopeKept: number;
  outOfScopeRecall: number;
} {
  return {
    accuracy: figures.inScopeAccuracy,
    inScopeKept: figures.inScopeKept,
    outOfScopeRecall: figures.outOfScopeRecall,
  };
}

/** Every label must be `none` or the name of a node of the tree. */
function checkLabels(tree: Tree, utterances: readonly LabelledUtterance[]): void {
  const names = new Set([...tree.nodes.values()].flatMap((node) => (node.name ? [node.name] : [])));
  const unknown = new Map<string, number>();
  for (const [, expected] of utterances)
    if (expected !== NONE && !names.has(expected)) unknown.set(expected, (unknown.get(expected) ?? 0) + 1);
  if (!unknown.size) return;
  const listed = [...unknown].map(([label, count]) => `"${label}" (${count}×)`).join(', ');
  throw new TreeAgentError(
    'INVALID_INPUT',
    `${unknown.size} label(s) name no node of the tree "${tree.name}": ${listed}. Use a node's name (treeagent inspect lists them) or "${NONE}" for an utterance nothing should answer.`,
  );
}

function toResult(text: string, expected: string, routed: RouteResult, labels: Set<string>): UtteranceResult {
  const predicted = routed.noMatch ? NONE : (routed.node.name ?? `#${routed.node.id}`);
  const correct = expected === NONE ? !labels.has(predicted) : predicted === expected;
  // The final path: the decisions after the last climb.
  const lastClimb = routed.decisions.findLastIndex(
    (decision) => decision.action === 'climb' || decision.action === 'leaf-climb',
  );
  const hops = routed.decisions
    .slice(lastClimb + 1)
    .filter((decision) => decision.action === 'descend' || decision.action === 'below-threshold')
    .map((decision) => ({
      nodeId: decision.nodeId,
      similarity: decision.best?.similarity ?? null,
      descended: decision.action === 'descend',
      threshold: decision.threshold,
      ...(decision.thresholdSource ? { thresholdSource: decision.thresholdSource } : {}),
    }));
  const descents = hops.filter((hop) => hop.descended).map((hop) => hop.similarity!);
  return {
    text,
    expected,
    predicted,
    correct,
    pathSimilarity: descents.length ? Math.min(...descents) : Number.NEGATIVE_INFINITY,
    hops,
  };
}

function outcome(results: UtteranceResult[]): RoutingOutcome {
  const inScope = results.filter((result) => result.expected !== NONE);
  const outOfScope = results.filter((result) => result.expected === NONE);
  return {
    inScopeAccuracy: share(inScope, (result) => result.correct),
    inScopeKept: share(inScope, (result) => result.predicted !== NONE),
    outOfScopeRecall: share(outOfScope, (result) => result.correct),
  };
}

/** The threshold each routing node had in the evaluation as is (from the explore decisions). */
function currentThresholds(results: UtteranceResult[]): Map<number, CurrentThreshold> {
  const seen = new Map<number, CurrentThreshold>();
  for (const result of results)
    for (const hop of result.hops)
      if (hop.threshold !== null && !seen.has(hop.nodeId))
        seen.set(hop.nodeId, { threshold: hop.threshold, source: hop.thresholdSource ?? 'node' });
  return seen;
}

/**
 * The largest threshold that `keep` of the in-scope route similarities (all nodes descending) are
 * strictly above, midway to the next lower similarity; never above the highest similarity, so it
 * never blocks every route. `null` from fewer than `MIN_SUGGESTION_EXAMPLES` in-scope routes.
 */
export function operatingThreshold(open: UtteranceResult[], keep: number): number | null {
  const similarities = open
    .filter((result) => result.expected !== NONE && Number.isFinite(result.pathSimilarity))
    .map((result) => result.pathSimilarity)
    .sort((a, b) => b - a);
  if (similarities.length < MIN_SUGGESTION_EXAMPLES) return null;
  const kept = Math.max(1, Math.ceil(keep * similarities.length));
  const boundary = similarities[kept - 1]!;
  const below = similarities.find((similarity) => similarity < boundary);
  const raw = below === undefined ? boundary - 1e-3 : (boundary + below) / 2;
  return Math.max(-1, Math.min(1, Math.floor(raw * 1000) / 1000));
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
