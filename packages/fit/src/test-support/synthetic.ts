import { defineTree, type NodeDefinition, type Tree } from '@treeagent/core';
import { cosineSimilarity, type Embedder } from '@treeagent/core/adapter';
import { gaussian } from '../linear-algebra.js';

/**
 * A synthetic labelled set: 4 classes that differ by a small offset in 3 dimensions, drowned in
 * 30 dimensions of shared noise that is much larger. Cosine in the raw space mostly sees the noise.
 */
export const CLASSES = ['alpha', 'beta', 'gamma', 'delta'];
export const DIMENSIONS = 33;
const vectors = new Map<string, number[]>();
const random = gaussian(7);
const centres = CLASSES.map(() => Array.from({ length: 3 }, () => random()));
export function sample(label: number, name: string): string {
  const vector = [
    ...centres[label]!.map((value) => value + 0.25 * random()),
    ...Array.from({ length: DIMENSIONS - 3 }, () => 2 * random()),
  ];
  vector[3]! += 4; // a common offset, so that centring matters too
  vectors.set(name, vector);
  return name;
}
export const train = CLASSES.map((_, label) =>
  Array.from({ length: 30 }, (_, i) => sample(label, `${label}:train:${i}`)),
);
export const heldOut = CLASSES.flatMap((_, label) =>
  Array.from({ length: 25 }, (_, i) => [sample(label, `${label}:test:${i}`), CLASSES[label]!] as const),
);

export class TableEmbedder implements Embedder {
  readonly id = 'table-test-embedder';
  readonly dimensions = DIMENSIONS;
  calls = 0;
  embed(texts: readonly string[]): number[][] {
    this.calls++;
    return texts.map((text) => vectors.get(text) ?? new Array<number>(DIMENSIONS).fill(0));
  }
}

export function syntheticTree(extra: NodeDefinition[] = []): Tree {
  return defineTree({
    name: 'synthetic',
    nodes: [
      { id: 1, type: 'root', defaultSimilarityThreshold: -1 },
      { id: 2, type: 'agent', parent: 1, isPrimary: true },
      { id: 3, type: 'empty', parent: 2, name: 'group-1' },
      { id: 4, type: 'empty', parent: 2, name: 'group-2' },
      ...CLASSES.map(
        (name, label): NodeDefinition => ({
          id: 10 + label,
          type: 'emit',
          parent: label < 2 ? 3 : 4,
          name,
          chunks: train[label]!,
          emit: { message: { type: 'static', content: name } },
        }),
      ),
      ...extra,
    ],
  });
}

export async function nearestChunkAccuracy(embedder: Embedder, tree: Tree): Promise<number> {
  const chunkVectors = await embedder.embed(tree.chunks.map((chunk) => chunk.text));
  const testVectors = await embedder.embed(heldOut.map(([text]) => text));
  let right = 0;
  testVectors.forEach((vector, index) => {
    let best = -Infinity;
    let bestNode = -1;
    chunkVectors.forEach((chunk, at) => {
      const similarity = cosineSimilarity(Float32Array.from(vector), Float32Array.from(chunk));
      if (similarity > best) {
        best = similarity;
        bestNode = tree.chunks[at]!.nodeId;
      }
    });
    if (tree.node(bestNode).name === heldOut[index]![1]) right++;
  });
  return right / heldOut.length;
}

/**
 * A new text that looks like `like` in the 3 dimensions the classes differ in, and like `of` (plus a
 * little noise) in the 30 others — the ones a fit learns to ignore.
 */
export function blend(of: string, like: string, name: string, noise = 0.1): string {
  const vector = vectors.get(of)!.map((value) => value + noise * random());
  const informative = vectors.get(like)!;
  for (let i = 0; i < 3; i++) vector[i] = informative[i]!;
  vectors.set(name, vector);
  return name;
}
