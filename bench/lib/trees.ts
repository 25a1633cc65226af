import { defineTree, type NodeDefinition, type Tree } from '../../packages/core/src/index.js';
import { nearby, PrecomputedEmbedder, random, randomUnitInto } from './vectors.js';

export interface RoutingTreeOptions {
  name: string;
  /**
   * Fan-out of each level of routing (`empty`) nodes between the primary agent and the leaves:
   * `[]` puts the leaves right under the agent, `[10, 100]` makes 10 groups of 100 subgroups.
   */
  levels: number[];
  /** Emit leaves, spread evenly over the last level of groups. */
  leaves: number;
  chunksPerLeaf: number;
  dimensions: number;
  /** Seed of every vector (chunks and messages). */
  seed: number;
  /** User messages, each a paraphrase of a random chunk. Default 64. */
  messages?: number;
  /**
   * `stored` (default): every chunk vector is computed up front, kept by text in the embedder and,
   * row by row, in `matrix` (what the LangGraph router scans). `generated`: the embedder derives a
   * chunk's vector from its number when asked (the million-chunk trees; no matrix).
   */
  vectors?: 'stored' | 'generated';
}

/** A user message of the suite: its text (`m<i>`) and its precomputed unit vector. */
export interface BenchMessage {
  text: string;
  vector: Float32Array;
}

export interface RoutingTree {
  tree: Tree;
  /** Nodes of the tree (root and agent included). */
  nodeCount: number;
  chunkCount: number;
  leafCount: number;
  dimensions: number;
  /** Node id of each leaf, in depth-first (= chunk) order. */
  leafIds: number[];
  /** The answer each leaf sends. */
  replies: string[];
  embedder: PrecomputedEmbedder;
  /** Row-major `chunks × dimensions` unit vectors (`stored` only; empty otherwise). */
  matrix: Float32Array;
  /** Leaf index of each chunk row. */
  chunkLeaf: Int32Array;
  messages: BenchMessage[];
}

/** Text of chunk number `g` (the tree's depth-first chunk order). */
export const chunkText = (g: number): string => `c${g}`;

/** The unit vector of chunk number `g` under `seed`, written into `out`. */
export function chunkVectorInto(out: Float32Array, seed: number, g: number): Float32Array {
  return randomUnitInto(out, random((Math.imul(seed, 0x9e3779b1) ^ Math.imul(g + 1, 0x85ebca6b)) >>> 0));
}

/**
 * A routing tree: root → primary agent → `levels` of `empty` routing nodes → `leaves` static emit
 * leaves with `chunksPerLeaf` chunks each. Exploration descends, hop by hop, to the child holding
 * the chunk most similar to the message; the leaf then answers with its fixed reply. No model.
 */
export function routingTree(options: RoutingTreeOptions): RoutingTree {
  const { levels, leaves, chunksPerLeaf, dimensions, seed } = options;
  const stored = (options.vectors ?? 'stored') === 'stored';
  const chunkCount = leaves * chunksPerLeaf;
  const vectors = new Map<string, Float32Array>();
  const matrix = new Float32Array(stored ? chunkCount * dimensions : 0);
  const chunkLeaf = new Int32Array(chunkCount);
  if (stored) {
    for (let g = 0; g < chunkCount; g++) {
      const row = matrix.subarray(g * dimensions, (g + 1) * dimensions);
      chunkVectorInto(row, seed, g);
      vectors.set(chunkText(g), row);
    }
  }
  for (let g = 0; g < chunkCount; g++) chunkLeaf[g] = Math.floor(g / chunksPerLeaf);

  const { nodes, leafIds, replies } = routingNodes({ levels, leaves, chunksPerLeaf, text: chunkText });

  const generate = stored
    ? undefined
    : (texts: readonly string[]) => {
        // One buffer for the batch, one view per text: no per-vector allocation.
        const buffer = new Float32Array(texts.length * dimensions);
        return texts.map((text, index) => {
          const g = Number(text.slice(1));
          if (text[0] !== 'c' || !Number.isInteger(g))
            throw new Error(`unknown text ${JSON.stringify(text)}`);
          return chunkVectorInto(buffer.subarray(index * dimensions, (index + 1) * dimensions), seed, g);
        });
      };
  const embedder = new PrecomputedEmbedder({
    dimensions,
    vectors,
    ...(generate ? { generate } : {}),
  });
  const next = random(seed ^ 0x5bd1e995);
  const messages: BenchMessage[] = [];
  const scratch = new Float32Array(dimensions);
  for (let i = 0; i < (options.messages ?? 64); i++) {
    const g = Math.floor(next() * chunkCount);
    const base = stored ? vectors.get(chunkText(g))! : chunkVectorInto(scratch, seed, g);
    const vector = nearby(base, 0.5, next);
    const text = `m${i}`;
    vectors.set(text, vector);
    messages.push({ text, vector });
  }
  const tree = defineTree({ name: options.name, nodes });
  return {
    tree,
    nodeCount: nodes.length,
    chunkCount,
    leafCount: leaves,
    dimensions,
    leafIds,
    replies,
    embedder,
    matrix,
    chunkLeaf,
    messages,
  };
}

/** Shape of a routing tree (see `routingTree`); `text` names chunk number `g`. */
export interface RoutingShape {
  levels: number[];
  leaves: number;
  chunksPerLeaf: number;
  text: (g: number) => string;
}

/**
 * The node definitions of a routing tree: root (1) → primary agent (2) → `levels` of `empty`
 * routing nodes → `leaves` static emit leaves, spread evenly over the last level, each with
 * `chunksPerLeaf` chunks; chunk `g` of the depth-first order belongs to leaf `⌊g / chunksPerLeaf⌋`.
 */
export function routingNodes(shape: RoutingShape): {
  nodes: NodeDefinition[];
  leafIds: number[];
  replies: string[];
} {
  const { levels, leaves, chunksPerLeaf, text } = shape;
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ];
  let nextId = 3;
  const leafIds: number[] = [];
  const replies: string[] = [];
  const groupCount = levels.reduce((product, fanOut) => product * fanOut, 1);
  let nextLeaf = 0;
  let lastGroup = 0;
  const addLeaves = (parent: number) => {
    // Leaves spread evenly: group `k` of the last level holds leaves [k·L/G, (k+1)·L/G).
    const end = Math.floor(((lastGroup + 1) * leaves) / groupCount);
    lastGroup++;
    for (; nextLeaf < end; nextLeaf++) {
      const id = nextId++;
      const chunks: string[] = [];
      for (let k = 0; k < chunksPerLeaf; k++) chunks.push(text(nextLeaf * chunksPerLeaf + k));
      const reply = `Answer of leaf ${nextLeaf}.`;
      leafIds.push(id);
      replies.push(reply);
      nodes.push({
        id,
        type: 'emit',
        parent,
        chunks,
        emit: { message: { type: 'static', content: reply } },
      });
    }
  };
  const addLevel = (parent: number, depth: number) => {
    if (depth === levels.length) return addLeaves(parent);
    for (let i = 0; i < levels[depth]!; i++) {
      const id = nextId++;
      nodes.push({ id, type: 'empty', parent });
      addLevel(id, depth + 1);
    }
  };
  addLevel(2, 0);

  return { nodes, leafIds, replies };
}

/** Best row of a row-major unit-vector matrix for `vector` (a plain cosine scan), as the LangGraph router does it. */
export function scanBestRow(matrix: Float32Array, dimensions: number, vector: Float32Array): number {
  const rows = matrix.length / dimensions;
  let best = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let row = 0, base = 0; row < rows; row++, base += dimensions) {
    let score = 0;
    for (let j = 0; j < dimensions; j++) score += matrix[base + j]! * vector[j]!;
    if (score > bestScore) {
      bestScore = score;
      best = row;
    }
  }
  return best;
}
