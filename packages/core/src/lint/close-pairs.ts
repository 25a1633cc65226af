import { dot } from '../embedding/vector-math.js';
import type { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';

/** Two chunks of sibling subtrees at or above the ambiguity limit. */
export interface ClosePair {
  /** Index in `tree.chunks` of the chunk in the left sibling (the earlier child of the parent). */
  left: number;
  right: number;
  similarity: number;
}

/** The close pairs under one parent between two of its children, most similar first. */
export interface SiblingPairs {
  parent: TreeNode;
  left: TreeNode;
  right: TreeNode;
  pairs: ClosePair[];
}

export interface ClosePairOptions {
  /**
   * Up to this many chunks every pair is compared (exact). Above it, candidate pairs come from
   * random-hyperplane hashing (16-bit buckets in as many tables as `tablesFor(limit)`), each
   * verified exactly. Default 1000.
   */
  exactUpTo?: number;
}

/** Signature bits per table: chunks share a bucket when these bits agree. */
const LSH_BITS = 16;
const KEY_MASK = (1 << LSH_BITS) - 1;
/** Most buckets of the counting sort of each table (on the key's low bits). */
const MAX_SORT_BUCKETS = 1 << 16;
/** Largest chance that a pair exactly at the limit shares no bucket (pairs above it are missed less). */
const MISS_AT_LIMIT = 1e-4;
const MAX_TABLES = 1000;

/**
 * Tables needed so that a pair at similarity `limit` (angle θ; one bit agrees with probability
 * 1 − θ/π) shares a bucket in at least one table with probability ≥ 1 − `MISS_AT_LIMIT`.
 */
export function tablesFor(limit: number): number {
  const agree = 1 - Math.acos(Math.min(1, Math.max(-1, limit))) / Math.PI;
  const sameBucket = agree ** LSH_BITS;
  return Math.ceil(Math.log(MISS_AT_LIMIT) / Math.log(1 - sameBucket));
}
/** Pairs are verified against a slightly lower limit, then recomputed with `dot` exactly as before. */
const SLACK = 1e-5;

/**
 * The chunk pairs of sibling subtrees whose similarity (dot product of unit vectors) is at least
 * `limit`, grouped by (parent, left child, right child) in the order the pairwise scan reports them:
 * parents in `tree.nodes` order, children in their order, pairs by similarity then position.
 *
 * Two chunks are compared when their nodes are in different child subtrees of their lowest common
 * ancestor (neither node contains the other). Up to `exactUpTo` chunks every such pair is checked
 * (in sparse form, so a hashed embedding costs its non-zero entries, not its dimensions). Above it,
 * only the pairs that share a seeded 16-bit random-hyperplane bucket in one of `tablesFor(limit)`
 * tables (104 at the default 0.9) are checked: a pair at the limit is found with probability
 * ≥ 1 − 10⁻⁴, a pair above it more surely (identical chunks always), and the cost grows with
 * about tables · n (plus the pairs that really are similar) instead of n². The result is deterministic (fixed seed). A limit so low
 * that more than 1000 tables would be needed is scanned exactly.
 */
export function closeSiblingPairs(
  tree: Tree,
  vectors: readonly Float32Array[],
  limit: number,
  options: ClosePairOptions = {},
): SiblingPairs[] {
  const count = vectors.length;
  if (count < 2) return [];
  const owner = chunkOwners(tree, count);
  const sparse = vectors.map(toSparse);
  const found = new Map<string, { parent: TreeNode; a: number; b: number; pairs: ClosePair[] }>();
  /** The similarity of a pair of chunks of sibling subtrees when it reaches the limit, else `null`. */
  const similarityOf = (i: number, j: number): number | null => {
    const ownerI = owner[i]!;
    const ownerJ = owner[j]!;
    if (ownerI === ownerJ || contains(ownerI, j) || contains(ownerJ, i)) return null;
    if (sparseDot(sparse[i]!, vectors[j]!) < limit - SLACK) return null;
    const similarity = dot(vectors[i]!, vectors[j]!);
    return similarity >= limit ? similarity : null;
  };
  const record = (i: number, j: number, similarity: number) => {
    const split = splitAt(tree, owner[i]!, owner[j]!);
    const [left, right] = split.a < split.b ? [i, j] : [j, i];
    const a = Math.min(split.a, split.b);
    const b = Math.max(split.a, split.b);
    const key = `${split.parent.id}:${a}:${b}`;
    let group = found.get(key);
    if (!group) {
      group = { parent: split.parent, a, b, pairs: [] };
      found.set(key, group);
    }
    group.pairs.push({ left, right, similarity });
  };

  const tables = tablesFor(limit);
  if (count <= (options.exactUpTo ?? 1000) || !(tables <= MAX_TABLES)) {
    for (let i = 0; i < count; i++)
      for (let j = i + 1; j < count; j++) {
        const similarity = similarityOf(i, j);
        if (similarity !== null) record(i, j, similarity);
      }
  } else {
    // A pair may share buckets in several tables: only verified pairs are remembered, so the set
    // stays as small as the result.
    const seen = new Set<string>();
    forEachCandidate(sparse, vectors[0]!.length, tables, (i, j) => {
      const similarity = similarityOf(i, j);
      if (similarity === null) return;
      const key = `${i}:${j}`;
      if (seen.has(key)) return;
      seen.add(key);
      record(i, j, similarity);
    });
  }

  const parentOrder = new Map<number, number>();
  let index = 0;
  for (const node of tree.nodes.values()) parentOrder.set(node.id, index++);
  return [...found.values()]
    .sort((x, y) => parentOrder.get(x.parent.id)! - parentOrder.get(y.parent.id)! || x.a - y.a || x.b - y.b)
    .map((group) => ({
      parent: group.parent,
      left: tree.node(group.parent.children[group.a]!),
      right: tree.node(group.parent.children[group.b]!),
      pairs: group.pairs.sort((x, y) => y.similarity - x.similarity || x.left - y.left || x.right - y.right),
    }));
}

/** The node that owns each chunk (its own chunks, not its descendants'). */
function chunkOwners(tree: Tree, count: number): TreeNode[] {
  const owner = new Array<TreeNode>(count);
  for (const node of tree.nodes.values())
    for (let i = node.chunkStart; i < node.ownChunkEnd; i++) owner[i] = node;
  return owner;
}

/** Whether chunk `index` is in `node`'s subtree. */
function contains(node: TreeNode, index: number): boolean {
  return index >= node.chunkStart && index < node.chunkEnd;
}

/** The lowest common ancestor of two nodes and the positions of the children below it leading to each. */
function splitAt(tree: Tree, x: TreeNode, y: TreeNode): { parent: TreeNode; a: number; b: number } {
  // Neither node contains the other, so at equal depth they differ until just below their LCA.
  let left = x;
  let right = y;
  while (left.depth > right.depth) left = tree.node(left.parentId!);
  while (right.depth > left.depth) right = tree.node(right.parentId!);
  while (left.parentId !== right.parentId) {
    left = tree.node(left.parentId!);
    right = tree.node(right.parentId!);
  }
  const parent = tree.node(left.parentId!);
  return { parent, a: parent.children.indexOf(left.id), b: parent.children.indexOf(right.id) };
}

interface Sparse {
  indices: Uint32Array;
  values: Float32Array;
}

/** The non-zero entries of a vector. */
function toSparse(vector: Float32Array): Sparse {
  let nonZero = 0;
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) nonZero++;
  const indices = new Uint32Array(nonZero);
  const values = new Float32Array(nonZero);
  let k = 0;
  for (let i = 0; i < vector.length; i++) {
    if (vector[i] === 0) continue;
    indices[k] = i;
    values[k++] = vector[i]!;
  }
  return { indices, values };
}

function sparseDot(a: Sparse, b: Float32Array): number {
  let sum = 0;
  for (let k = 0; k < a.indices.length; k++) sum += a.values[k]! * b[a.indices[k]!]!;
  return sum;
}

/** Mulberry32: a small seeded generator, so the hashing (and the result) is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** In-place fast Walsh–Hadamard transform of a power-of-two-long array. */
function hadamard(values: Float32Array): void {
  for (let half = 1; half < values.length; half *= 2) {
    for (let start = 0; start < values.length; start += half * 2) {
      for (let i = start; i < start + half; i++) {
        const a = values[i]!;
        const b = values[i + half]!;
        values[i] = a + b;
        values[i + half] = a - b;
      }
    }
  }
}

/**
 * Random-hyperplane signatures, packed 32 bits a word: the signs of the vector projected on `bits`
 * orthogonal random directions, rows of a Hadamard matrix after random sign flips (one O(D log D)
 * transform per round of D = the dimensions rounded up to a power of two, instead of `bits` dot
 * products).
 */
function signatures(
  sparse: readonly Sparse[],
  dimensions: number,
  bits: number,
  random: () => number,
): Uint32Array {
  let size = 1;
  while (size < dimensions) size *= 2;
  const rounds = Math.ceil(bits / size);
  const words = Math.ceil(bits / 32);
  const flips = Array.from({ length: rounds }, () => {
    const signs = new Float32Array(size);
    for (let i = 0; i < size; i++) signs[i] = random() < 0.5 ? -1 : 1;
    return signs;
  });
  const work = new Float32Array(size);
  const out = new Uint32Array(sparse.length * words);
  sparse.forEach((vector, index) => {
    const base = index * words;
    for (let round = 0; round < rounds; round++) {
      work.fill(0);
      const signs = flips[round]!;
      for (let k = 0; k < vector.indices.length; k++) {
        const at = vector.indices[k]!;
        work[at] = vector.values[k]! * signs[at]!;
      }
      hadamard(work);
      const offset = round * size;
      const end = Math.min(size, bits - offset);
      for (let i = 0; i < end; i++) {
        if (work[i]! >= 0) {
          const bit = offset + i;
          out[base + (bit >>> 5)]! |= 1 << (bit & 31);
        }
      }
    }
  });
  return out;
}

/** `LSH_BITS` bits of a packed signature starting at bit `first`. */
function keyAt(signatures: Uint32Array, base: number, first: number): number {
  const word = first >>> 5;
  const shift = first & 31;
  const low = signatures[base + word]! >>> shift;
  const high = shift + LSH_BITS > 32 ? signatures[base + word + 1]! << (32 - shift) : 0;
  return ((low | high) & KEY_MASK) >>> 0;
}

/**
 * Calls `visit(i, j)` (i < j) for every pair of chunks that share a bucket in one of the tables
 * (table `t` keys each chunk by signature bits `[t·LSH_BITS, (t+1)·LSH_BITS)`).
 */
function forEachCandidate(
  sparse: readonly Sparse[],
  dimensions: number,
  tables: number,
  visit: (i: number, j: number) => void,
): void {
  const count = sparse.length;
  const words = Math.ceil((tables * LSH_BITS) / 32);
  const packed = signatures(sparse, dimensions, tables * LSH_BITS, seeded(0x7ee));
  const keys = new Uint32Array(count);
  // Counting sort on the key's low bits (about one bucket per chunk, at most 2^16); pairs are
  // visited only when the whole key agrees.
  let sortBuckets = 16;
  while (sortBuckets < count && sortBuckets < MAX_SORT_BUCKETS) sortBuckets *= 2;
  const starts = new Uint32Array(sortBuckets + 1);
  const fill = new Uint32Array(sortBuckets);
  const order = new Uint32Array(count);
  for (let table = 0; table < tables; table++) {
    const first = table * LSH_BITS;
    starts.fill(0);
    for (let index = 0; index < count; index++) {
      const key = keyAt(packed, index * words, first);
      keys[index] = key;
      starts[(key & (sortBuckets - 1)) + 1]!++;
    }
    for (let bucket = 0; bucket < sortBuckets; bucket++) starts[bucket + 1]! += starts[bucket]!;
    fill.set(starts.subarray(0, sortBuckets));
    for (let index = 0; index < count; index++) order[fill[keys[index]! & (sortBuckets - 1)]!++] = index;
    for (let bucket = 0; bucket < sortBuckets; bucket++) {
      const end = starts[bucket + 1]!;
      for (let x = starts[bucket]!; x < end; x++) {
        const i = order[x]!;
        const key = keys[i]!;
        for (let y = x + 1; y < end; y++) {
          const j = order[y]!;
          if (keys[j] === key) visit(i, j);
        }
      }
    }
  }
}
