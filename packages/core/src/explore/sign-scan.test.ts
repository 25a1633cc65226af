import { describe, expect, test } from 'vitest';
import { ExploreConstraints } from '../context/explore-strategy.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { ChunkIndex } from './chunk-index.js';
import { MemoryChunkSearch, SIGN_CANDIDATES } from './memory-chunk-search.js';
import { SignScratch, signCandidates } from './sign-candidates.js';

/** Deterministic pseudo-random numbers in [-0.5, 0.5). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

function unit(next: () => number, dimensions: number): number[] {
  const raw = Array.from({ length: dimensions }, () => next());
  const norm = Math.hypot(...raw);
  return raw.map((value) => value / norm);
}

/** Agent → `groups` empty nodes → `leaves` leaves each, `perLeaf` chunks each; random unit vectors. */
function randomTree(groups: number, leaves: number, perLeaf: number, dimensions: number, seed: number) {
  const next = random(seed);
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root', defaultSimilarityThreshold: 0.05 },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ];
  const vectors: Record<string, number[]> = {};
  let id = 3;
  let chunk = 0;
  for (let g = 0; g < groups; g++) {
    const group = id++;
    nodes.push({ id: group, type: 'empty', parent: 2 });
    for (let l = 0; l < leaves; l++) {
      const texts = Array.from({ length: perLeaf }, () => `c${chunk++}`);
      for (const text of texts) vectors[text] = unit(next, dimensions);
      nodes.push({ id: id++, type: 'empty', parent: group, chunks: texts });
    }
  }
  return { tree: defineTree({ nodes }), vectors, next };
}

describe('sign-bit scan', () => {
  test('Hamming distances equal a plain count of differing sign bits', async () => {
    const { tree, vectors, next } = randomTree(3, 5, 7, 200, 1);
    const index = await ChunkIndex.build(tree, new ExactEmbedder({ vectors }), undefined, {
      scan: 'sign-bits',
    });
    expect(index.signBits).toBe(true);
    expect(index.codeBits).toBe(256);
    const direction = Float32Array.from(unit(next, 200));
    const distances = new Uint16Array(tree.chunks.length);
    index.hammingDistances(direction, distances);
    tree.chunks.forEach((chunk, position) => {
      const vector = vectors[chunk.text]!;
      let differing = 0;
      for (let j = 0; j < 200; j++) if (Math.fround(vector[j]!) > 0 !== direction[j]! > 0) differing++;
      expect(distances[position]).toBe(differing);
    });
  });

  test.each([7, 16, 384, 512])(
    'rescored similarities are bit for bit those of the full float32 pass (%i dimensions)',
    async (dimensions) => {
      const { tree, vectors, next } = randomTree(2, 4, 9, dimensions, dimensions);
      const index = await ChunkIndex.build(tree, new ExactEmbedder({ vectors }), undefined, {
        scan: 'sign-bits',
      });
      for (let trial = 0; trial < 5; trial++) {
        const direction = Float32Array.from(unit(next, dimensions));
        const full = index.similarities(direction);
        const positions = Int32Array.from(
          { length: tree.chunks.length },
          (_, i) => tree.chunks.length - 1 - i,
        );
        const out = new Float32Array(positions.length);
        index.similaritiesAt(direction, positions, positions.length, out);
        positions.forEach((position, k) => {
          expect(Object.is(out[k], full[position])).toBe(true);
        });
      }
    },
  );

  test('candidates: the nearest by Hamming distance in the range, ties included, masked chunks left out', () => {
    const distances = Uint16Array.from([5, 1, 3, 3, 0, 9, 3, 2]);
    const scratch = new SignScratch(16);
    const take = (mask: Uint8Array | null, from: number, to: number, count: number) =>
      Array.from(scratch.positions.subarray(0, signCandidates(distances, mask, from, to, count, scratch)));
    expect(take(null, 0, 8, 2)).toEqual([1, 4]);
    // The 4th nearest is at distance 3, shared by three chunks: all of them are kept.
    expect(take(null, 0, 8, 4)).toEqual([1, 2, 3, 4, 6, 7]);
    expect(take(null, 2, 4, 10)).toEqual([2, 3]);
    expect(take(Uint8Array.from([1, 0, 1, 1, 0, 1, 1, 1]), 0, 8, 2)).toEqual([2, 3, 6, 7]);
    expect(take(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0]), 0, 8, 2)).toEqual([]);
  });

  test('a wide tree: every hop finds what the exact scan finds, blacklist and all', async () => {
    // Messages near a chunk (the common case): the nearest by sign bits contain the exact best.
    const { tree, vectors, next } = randomTree(4, 25, 12, 96, 7);
    const index = await ChunkIndex.build(tree, new ExactEmbedder({ vectors }), undefined, {
      scan: 'sign-bits',
    });
    expect(SIGN_CANDIDATES).toBeLessThan(tree.chunks.length);
    for (let trial = 0; trial < 40; trial++) {
      const base = vectors[`c${Math.floor((next() + 0.5) * tree.chunks.length)}`]!;
      const noisy = base.map((value) => value + 0.08 * next());
      const norm = Math.hypot(...noisy);
      const direction = Float32Array.from(noisy, (value) => value / norm);
      const signs = new MemoryChunkSearch(index, async () => direction);
      const exact = new MemoryChunkSearch(index, async () => direction, { exact: true });
      const constraints = new ExploreConstraints();
      for (const nodeId of [2, 3, 4, 30]) {
        const node = tree.node(nodeId);
        expect(await signs.best(node, constraints)).toEqual(await exact.best(node, constraints));
      }
      const blacklisted = new ExploreConstraints();
      const first = await exact.best(tree.node(2), blacklisted);
      blacklisted.blacklist.add(first!.childId, 'node');
      expect(await signs.best(tree.node(2), blacklisted)).toEqual(
        await exact.best(tree.node(2), blacklisted),
      );
    }
  });
});
