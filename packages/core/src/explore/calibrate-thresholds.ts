import type { ThresholdSource } from '../protocol/events.js';
import { DEFAULT_SIMILARITY_THRESHOLD } from '../tree/define-tree.js';
import { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';

/** How the automatic calibration of `similarityThreshold` works (see `calibrateThresholds`). */
export interface CalibrationOptions {
  /**
   * Share of a routing node's chunks whose nearest other chunk below the node must stay above the
   * calibrated threshold: the share of in-scope messages the node is expected to keep. Default
   * `DEFAULT_CALIBRATION_KEEP` (0.925).
   */
  keep?: number;
  /** Chunks sampled per routing node (evenly spaced, deterministic). Default 128. */
  samplesPerNode?: number;
  /** A routing node is calibrated only with at least this many exploration chunks below it. Default 12. */
  minChunks?: number;
}

/**
 * The default `keep`: 0.925, chosen by 5-fold cross-validation on CLINC150 `train` (with `oos_train`
 * as the out-of-scope messages): the smallest keep whose held-out in-scope messages are still answered
 * 90% of the time; never on a validation split (docs/routing.md, "Thresholds out of the box").
 */
export const DEFAULT_CALIBRATION_KEEP = 0.925;

/** The automatic threshold of one routing node, with what it was computed from. */
export interface ThresholdCalibration {
  nodeId: number;
  name: string | undefined;
  /** The threshold exploration uses at the node: `quantile`, or `DEFAULT_SIMILARITY_THRESHOLD` when that is higher. */
  threshold: number;
  /** The similarity that the asked share (`CalibrationOptions.keep`) of the samples exceed. */
  quantile: number;
  /** The share of sampled chunks whose nearest neighbour stays above it. */
  keep: number;
  /** Chunks sampled below the node. */
  samples: number;
  /** Median similarity of a sampled chunk to its nearest other chunk below the node (in-scope proxy). */
  withinMedian: number;
  /**
   * Median similarity of a sampled chunk to its nearest chunk in another child's subtree (a message
   * that belongs elsewhere); `null` when the node has one child with chunks.
   */
  betweenMedian: number | null;
}

export type { ThresholdSource };

/**
 * Calibrates the `similarityThreshold` of every routing node whose threshold was not set by hand (on
 * the node, or as the root's `defaultSimilarityThreshold`) from the tree's own chunks: each sampled
 * chunk below the node plays an in-scope message, and its similarity to the nearest *other* chunk
 * below the node (identical texts aside) is what such a message would score. The threshold is the
 * similarity that `keep` of the samples exceed, never below `DEFAULT_SIMILARITY_THRESHOLD`. Nodes
 * with fewer than `minChunks` chunks below them keep the default threshold.
 *
 * @param similaritiesOf The similarity of the chunk at a position to the chunks at `[from, to)`, in
 *   an array indexed by chunk position (other positions are not read).
 */
export function calibrateThresholds(
  tree: Tree,
  similaritiesOf: (position: number, from: number, to: number) => Float32Array,
  options: CalibrationOptions = {},
): ThresholdCalibration[] {
  const keep = options.keep ?? DEFAULT_CALIBRATION_KEEP;
  const perNode = options.samplesPerNode ?? 128;
  const minChunks = options.minChunks ?? 12;
  const explores = tree.chunks.map((chunk) => !chunk.forRag);
  const routing = [...tree.nodes.values()].filter(
    (node) =>
      node.type !== 'root' &&
      node.children.length > 0 &&
      node.thresholdSource === 'default' &&
      countExploring(explores, node.ownChunkEnd, node.chunkEnd) >= minChunks,
  );
  if (!routing.length) return [];
  // Samples per node, then one similarity pass per sampled position shared by all its routing ancestors.
  const samplesOf = new Map<number, number[]>();
  const users = new Map<number, TreeNode[]>();
  for (const node of routing) {
    const positions = evenlySpaced(explores, node.ownChunkEnd, node.chunkEnd, perNode);
    samplesOf.set(node.id, positions);
    for (const position of positions) users.set(position, [...(users.get(position) ?? []), node]);
  }
  const within = new Map<number, number[]>(routing.map((node) => [node.id, []]));
  const between = new Map<number, number[]>(routing.map((node) => [node.id, []]));
  const texts = tree.chunks.map((chunk) => chunk.text);
  for (const [position, nodes] of users) {
    // The outermost node sampling this position covers the others' ranges.
    const from = Math.min(...nodes.map((node) => node.ownChunkEnd));
    const to = Math.max(...nodes.map((node) => node.chunkEnd));
    const similarities = similaritiesOf(position, from, to);
    for (const node of nodes) {
      const child = tree.childHolding(node.id, position);
      let best = Number.NEGATIVE_INFINITY;
      let bestElsewhere = Number.NEGATIVE_INFINITY;
      for (let other = node.ownChunkEnd; other < node.chunkEnd; other++) {
        if (other === position || !explores[other] || texts[other] === texts[position]) continue;
        const similarity = similarities[other]!;
        if (similarity > best) best = similarity;
        if ((other < child.chunkStart || other >= child.chunkEnd) && similarity > bestElsewhere)
          bestElsewhere = similarity;
      }
      if (best > Number.NEGATIVE_INFINITY) within.get(node.id)!.push(best);
      if (bestElsewhere > Number.NEGATIVE_INFINITY) between.get(node.id)!.push(bestElsewhere);
    }
  }
  const calibrations: ThresholdCalibration[] = [];
  for (const node of routing) {
    const values = within.get(node.id)!.sort((a, b) => a - b);
    if (values.length < minChunks) continue;
    // Never below the library default: too few or too varied chunks (signposts) make the nearest-chunk
    // similarities low, and a threshold under the default would only let more through.
    const quantile = thresholdKeeping(values, keep);
    const threshold = Math.max(DEFAULT_SIMILARITY_THRESHOLD, quantile);
    const others = between.get(node.id)!.sort((a, b) => a - b);
    calibrations.push({
      nodeId: node.id,
      name: node.name,
      threshold,
      quantile,
      keep: values.filter((value) => value > threshold).length / values.length,
      samples: samplesOf.get(node.id)!.length,
      withinMedian: round(median(values)),
      betweenMedian: others.length ? round(median(others)) : null,
    });
  }
  return calibrations;
}

/** The tree with the calibrated thresholds in place (`thresholdSource: 'calibrated'`); the same tree when there are none. */
export function withCalibratedThresholds(tree: Tree, calibrations: readonly ThresholdCalibration[]): Tree {
  if (!calibrations.length) return tree;
  const byId = new Map(calibrations.map((calibration) => [calibration.nodeId, calibration.threshold]));
  return withThresholds(tree, (node) => byId.get(node.id), 'calibrated');
}

/** The tree with `thresholdOf(node)` as the threshold of the nodes it gives one for (same structure, chunks and content hash). */
export function withThresholds(
  tree: Tree,
  thresholdOf: (node: TreeNode) => number | undefined,
  source: ThresholdSource = 'node',
): Tree {
  const nodes = new Map<number, TreeNode>();
  for (const [id, node] of tree.nodes) {
    const threshold = thresholdOf(node);
    nodes.set(
      id,
      threshold === undefined ? node : { ...node, similarityThreshold: threshold, thresholdSource: source },
    );
  }
  return new Tree({
    name: tree.name,
    definition: tree.definition,
    nodes,
    chunks: [...tree.chunks],
    scopes: new Map(tree.scopes),
    contentHash: tree.contentHash,
    rootId: tree.root.id,
    primaryAgentId: tree.primaryAgent.id,
  });
}

/** The largest 3-decimal value that `keep` of the sorted values are strictly above. */
function thresholdKeeping(sorted: number[], keep: number): number {
  const dropped = Math.min(sorted.length - 1, Math.max(0, Math.floor((1 - keep) * sorted.length)));
  const boundary = sorted[dropped]!;
  // Just below the lowest kept value, rounded down so that it stays below it.
  return Math.max(-1, Math.floor((boundary - 1e-4) * 1000) / 1000);
}

function evenlySpaced(explores: boolean[], from: number, to: number, count: number): number[] {
  const positions: number[] = [];
  for (let i = from; i < to; i++) if (explores[i]) positions.push(i);
  if (positions.length <= count) return positions;
  return Array.from(
    { length: count },
    (_, k) => positions[Math.floor(((k + 0.5) * positions.length) / count)]!,
  );
}

function countExploring(explores: boolean[], from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (explores[i]) count++;
  return count;
}

function median(sorted: number[]): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
