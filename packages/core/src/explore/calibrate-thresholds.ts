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
  const minChunks = options.minChunks ?? 12;
  const { routing, samplesOf, users, exploring } = calibrationPlan(tree, options);
  if (!routing.length) return [];
  const within = new Map<number, number[]>(routing.map((node) => [node.id, []]));
  const between = new Map<number, number[]>(routing.map((node) => [node.id, []]));
  const texts = textIds(tree, exploring.explores);
  for (const [position, nodes] of users) {
    // The nodes sampling a position are its ancestors, their ranges nested: the outermost covers the others'.
    nodes.sort((a, b) => b.depth - a.depth);
    const outer = nodes[nodes.length - 1]!;
    const similarities = similaritiesOf(position, outer.ownChunkEnd, outer.chunkEnd);
    nearestInRanges(tree, texts, position, nodes, similarities, (node, best, bestElsewhere) => {
      if (best > Number.NEGATIVE_INFINITY) within.get(node.id)!.push(best);
      if (bestElsewhere > Number.NEGATIVE_INFINITY) between.get(node.id)!.push(bestElsewhere);
    });
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

/**
 * How many similarities `calibrateThresholds` reads for this tree: for each sampled chunk, the chunks
 * below the highest routing node that samples it. Near the number of chunks times the samples per
 * node on a shallow tree; on a deep one (long chains of follow-ups) it grows with the square of the
 * chunks, since the nodes of a chain sample different chunks and each is compared with nearly the
 * whole chain. Lets a caller decide before paying for it (`treeagent lint` on large trees).
 */
export function calibrationReads(tree: Tree, options: CalibrationOptions = {}): number {
  let reads = 0;
  for (const nodes of calibrationPlan(tree, options).users.values()) {
    const outer = nodes.reduce((highest, node) => (node.depth < highest.depth ? node : highest));
    reads += outer.chunkEnd - outer.ownChunkEnd;
  }
  return reads;
}

/** The routing nodes to calibrate, the chunks each samples, and the nodes sampling each chunk. */
function calibrationPlan(tree: Tree, options: CalibrationOptions) {
  const perNode = options.samplesPerNode ?? 128;
  const minChunks = options.minChunks ?? 12;
  const exploring = exploringPositions(tree);
  const routing = [...tree.nodes.values()].filter(
    (node) =>
      node.type !== 'root' &&
      node.children.length > 0 &&
      node.thresholdSource === 'default' &&
      exploring.count(node.ownChunkEnd, node.chunkEnd) >= minChunks,
  );
  // Samples per node, then one similarity pass per sampled position shared by all its routing ancestors.
  const samplesOf = new Map<number, number[]>();
  const users = new Map<number, TreeNode[]>();
  for (const node of routing) {
    const positions = exploring.evenlySpaced(node.ownChunkEnd, node.chunkEnd, perNode);
    samplesOf.set(node.id, positions);
    for (const position of positions) {
      const list = users.get(position);
      if (list) list.push(node);
      else users.set(position, [node]);
    }
  }
  return { routing, samplesOf, users, exploring };
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
    languages: tree.languages,
  });
}

/** The largest 3-decimal value that `keep` of the sorted values are strictly above. */
function thresholdKeeping(sorted: number[], keep: number): number {
  const dropped = Math.min(sorted.length - 1, Math.max(0, Math.floor((1 - keep) * sorted.length)));
  const boundary = sorted[dropped]!;
  // Just below the lowest kept value, rounded down so that it stays below it.
  return Math.max(-1, Math.floor((boundary - 1e-4) * 1000) / 1000);
}

/** The exploration chunks (not `forRag`) in order, with how many come before each position. */
function exploringPositions(tree: Tree) {
  const explores = tree.chunks.map((chunk) => !chunk.forRag);
  const before = new Uint32Array(explores.length + 1);
  const positions: number[] = [];
  explores.forEach((explored, position) => {
    before[position + 1] = before[position]! + (explored ? 1 : 0);
    if (explored) positions.push(position);
  });
  return {
    explores,
    /** Exploration chunks in `[from, to)`. */
    count: (from: number, to: number) => before[to]! - before[from]!,
    /** Up to `count` exploration positions of `[from, to)`, evenly spaced (all of them when there are fewer). */
    evenlySpaced(from: number, to: number, count: number): number[] {
      const first = before[from]!;
      const length = before[to]! - first;
      if (length <= count) return positions.slice(first, first + length);
      return Array.from(
        { length: count },
        (_, k) => positions[first + Math.floor(((k + 0.5) * length) / count)]!,
      );
    },
  };
}

/**
 * A number per exploration chunk, equal for equal texts, and -1 for the others: the chunks a sample
 * is compared with are those whose number is neither -1 nor its own.
 */
function textIds(tree: Tree, explores: readonly boolean[]): Int32Array {
  const ids = new Map<string, number>();
  const out = new Int32Array(tree.chunks.length);
  tree.chunks.forEach((chunk, position) => {
    let id = ids.get(chunk.text);
    if (id === undefined) {
      id = ids.size;
      ids.set(chunk.text, id);
    }
    out[position] = explores[position] ? id : -1;
  });
  return out;
}

/** The highest similarity over `[from, to)` to a chunk whose text number is neither -1 nor `text`, or `best` when it is higher. */
function highest(
  similarities: Float32Array,
  texts: Int32Array,
  text: number,
  from: number,
  to: number,
  best: number,
): number {
  for (let other = from; other < to; other++) {
    const id = texts[other]!;
    if (id < 0 || id === text) continue;
    const similarity = similarities[other]!;
    if (similarity > best) best = similarity;
  }
  return best;
}

/**
 * For one sampled position and the routing nodes sampling it (innermost first: their ranges are
 * nested), the highest similarity to another exploration chunk of a different text below each node,
 * and below it but outside the child holding the position. The ranges are widened one into the
 * next, so each similarity is read once whatever the depth (reading each node's whole range again
 * made deep trees quadratic).
 */
function nearestInRanges(
  tree: Tree,
  texts: Int32Array,
  position: number,
  nodes: readonly TreeNode[],
  similarities: Float32Array,
  report: (node: TreeNode, best: number, bestElsewhere: number) => void,
): void {
  const text = texts[position]!;
  let low = position;
  let high = position;
  let best = Number.NEGATIVE_INFINITY;
  for (const node of nodes) {
    // Below the node, the child holding the position covers the ranges of the nodes inside it.
    const child = tree.childHolding(node.id, position);
    best = highest(similarities, texts, text, child.chunkStart, low, best);
    best = highest(similarities, texts, text, high, child.chunkEnd, best);
    let elsewhere = highest(
      similarities,
      texts,
      text,
      node.ownChunkEnd,
      child.chunkStart,
      Number.NEGATIVE_INFINITY,
    );
    elsewhere = highest(similarities, texts, text, child.chunkEnd, node.chunkEnd, elsewhere);
    if (elsewhere > best) best = elsewhere;
    report(node, best, elsewhere);
    low = node.ownChunkEnd;
    high = node.chunkEnd;
  }
}

function median(sorted: number[]): number {
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
