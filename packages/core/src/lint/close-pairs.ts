import type { Tree } from '../tree/tree.js';
import type { TreeNode } from '../tree/tree-node.js';
import { forEachCandidate, MAX_TABLES, tablesFor } from './hyperplane-buckets.js';
import { rowDot, type SparseRows } from './sparse-rows.js';

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
   * random-hyperplane hashing (20-bit buckets in as many tables as `tablesFor(limit)`), each
   * verified exactly. Default 1000.
   */
  exactUpTo?: number;
}

/**
 * The chunk pairs of sibling subtrees whose similarity (dot product of unit vectors) is at least
 * `limit`, grouped by (parent, left child, right child) in the order the pairwise scan reports them:
 * parents in `tree.nodes` order, children in their order, pairs by similarity then position.
 *
 * Two chunks are compared when their nodes are in different child subtrees of their lowest common
 * ancestor (neither node contains the other). Similarities are computed on the sparse rows (the
 * products of common entries in index order: `dot` of the dense vectors to the last bit).
 *
 * Up to `exactUpTo` chunks every such pair is checked. Above it, chunks with identical vectors are
 * taken once, and only the pairs that share a bucket of 20 random-hyperplane bits in one of
 * `tablesFor(limit)` tables (204 at the default 0.9) are checked (`hyperplane-buckets.ts`): a pair
 * at the limit is found with probability ≥ 1 − 10⁻⁴, a pair above it more surely, identical chunks
 * always; every pair reported is a true pair with its exact similarity. The cost grows with about
 * tables · n plus the pairs that really are similar, instead of n². The result is deterministic
 * (fixed seed). A limit so low that more than 1000 tables would be needed is scanned exactly.
 */
export function closeSiblingPairs(
  tree: Tree,
  rows: SparseRows,
  limit: number,
  options: ClosePairOptions = {},
): SiblingPairs[] {
  const count = rows.count;
  if (count < 2) return [];
  const owner = chunkOwners(tree, count);
  const found = new Map<string, { parent: TreeNode; a: number; b: number; pairs: ClosePair[] }>();
  /** Records a pair of chunks at `similarity` (at or above the limit) when they are in sibling subtrees. */
  const consider = (i: number, j: number, similarity: number) => {
    const ownerI = owner[i]!;
    const ownerJ = owner[j]!;
    if (ownerI === ownerJ || contains(ownerI, j) || contains(ownerJ, i)) return;
    const split = splitAt(tree, i, j);
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
        const ownerI = owner[i]!;
        const ownerJ = owner[j]!;
        if (ownerI === ownerJ || contains(ownerI, j) || contains(ownerJ, i)) continue;
        const similarity = rowDot(rows, i, j);
        if (similarity >= limit) consider(i, j, similarity);
      }
  } else {
    const { representatives, members } = identicalRows(rows);
    // Identical chunks: every pair of them (their similarity is the row's with itself).
    for (const group of members.values()) {
      const similarity = rowDot(rows, group[0]!, group[0]!);
      if (similarity < limit) continue;
      for (let x = 0; x < group.length; x++)
        for (let y = x + 1; y < group.length; y++) consider(group[x]!, group[y]!, similarity);
    }
    // Distinct chunks: the pairs of representatives that share a bucket, each verified once.
    const seen = new Set<number>();
    forEachCandidate(rows, representatives, limit, (r, s) => {
      const similarity = rowDot(rows, r, s);
      if (similarity < limit) return;
      const key = r < s ? r * count + s : s * count + r;
      if (seen.has(key)) return;
      seen.add(key);
      for (const i of members.get(r) ?? [r])
        for (const j of members.get(s) ?? [s]) consider(i, j, similarity);
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

/**
 * One row per set of identical rows (the first), and the rows of each set of two or more, by its
 * representative.
 */
function identicalRows(rows: SparseRows): { representatives: Uint32Array; members: Map<number, number[]> } {
  const { starts, indices, values } = rows;
  const bits = new Uint32Array(values.buffer, values.byteOffset, values.length);
  const byHash = new Map<number, number[]>();
  const members = new Map<number, number[]>();
  const representatives: number[] = [];
  const same = (a: number, b: number) => {
    if (starts[a + 1]! - starts[a]! !== starts[b + 1]! - starts[b]!) return false;
    for (let k = starts[a]!, m = starts[b]!; k < starts[a + 1]!; k++, m++)
      if (indices[k] !== indices[m] || bits[k] !== bits[m]) return false;
    return true;
  };
  for (let row = 0; row < rows.count; row++) {
    let hash = 0x811c9dc5;
    for (let k = starts[row]!; k < starts[row + 1]!; k++) {
      hash = Math.imul(hash ^ indices[k]!, 0x01000193);
      hash = Math.imul(hash ^ bits[k]!, 0x01000193);
    }
    const candidates = byHash.get(hash);
    const twin = candidates?.find((other) => same(other, row));
    if (twin === undefined) {
      representatives.push(row);
      if (candidates) candidates.push(row);
      else byHash.set(hash, [row]);
    } else {
      const group = members.get(twin);
      if (group) group.push(row);
      else members.set(twin, [twin, row]);
    }
  }
  return { representatives: Uint32Array.from(representatives), members };
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

/**
 * The lowest common ancestor of the nodes of chunks `i` and `j` (neither containing the other) and
 * the positions of its children holding each: found by descending from the root while both chunks
 * are in the same child (a binary search of the children by chunk range at each level), so a pair
 * costs the depth of the ancestor, not that of the two nodes (walking up from nodes thousands of
 * levels deep made the pairs of deep trees cost their depth each).
 */
function splitAt(tree: Tree, i: number, j: number): { parent: TreeNode; a: number; b: number } {
  for (let node = tree.root; ; ) {
    const a = childIndexHolding(tree, node, i);
    const b = childIndexHolding(tree, node, j);
    if (a !== b) return { parent: node, a, b };
    node = tree.node(node.children[a]!);
  }
}

/** The position among `node`'s children of the one whose subtree holds chunk `index` (below `node`). */
function childIndexHolding(tree: Tree, node: TreeNode, index: number): number {
  const children = node.children;
  let low = 0;
  let high = children.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (tree.node(children[middle]!).chunkStart <= index) low = middle;
    else high = middle - 1;
  }
  return low;
}
