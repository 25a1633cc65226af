import { describe, expect, test } from 'vitest';
import { ExploreConstraints } from '../context/explore-strategy.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { ChunkIndex, SIGN_SCAN_FROM } from './chunk-index.js';
import { MemoryChunkSearch, SIGN_CANDIDATES } from './memory-chunk-search.js';
import { SignScratch, signCandidates } from './sign-candidates.js';
import { createSignKernel } from './sign-kernel.js';

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
    const histogram = new Int32Array(index.codeBits + 1);
    index.hammingDistances(direction, distances, histogram);
    const counted = new Int32Array(index.codeBits + 1);
    for (const distance of distances) counted[distance]!++;
    expect(histogram).toEqual(counted);
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
        const range = new Float32Array(tree.chunks.length);
        index.similaritiesRange(direction, 5, 30, range);
        for (let position = 5; position < 30; position++)
          expect(Object.is(range[position - 5], full[position])).toBe(true);
      }
    },
  );

  test('candidates: the nearest by Hamming distance in the range, ties included, masked chunks left out', () => {
    const distances = Uint16Array.from([5, 1, 3, 3, 0, 9, 3, 2]);
    const histogram = new Int32Array(17);
    for (const distance of distances) histogram[distance]!++;
    const scratch = new SignScratch(16);
    const take = (mask: Uint8Array | null, from: number, to: number, count: number) =>
      Array.from(
        scratch.positions.subarray(
          0,
          signCandidates({ distances, histogram }, mask, from, to, count, scratch),
        ),
      );
    expect(take(null, 0, 8, 2)).toEqual([1, 4]);
    // The 4th nearest is at distance 3, shared by three chunks: all of them are kept.
    expect(take(null, 0, 8, 4)).toEqual([1, 2, 3, 4, 6, 7]);
    // Most of the range: the histogram of the whole index minus what is outside.
    expect(take(null, 1, 8, 2)).toEqual([1, 4]);
    expect(take(null, 0, 7, 3)).toEqual([1, 2, 3, 4, 6]);
    expect(take(null, 2, 4, 10)).toEqual([2, 3]);
    expect(take(Uint8Array.from([1, 0, 1, 1, 0, 1, 1, 1]), 0, 8, 2)).toEqual([2, 3, 6, 7]);
    expect(take(Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0]), 0, 8, 2)).toEqual([]);
  });

  test('the SIMD kernels: distances, their histogram, and the positions within a cut, on any range', () => {
    const next = random(3);
    const count = 1000;
    const kernel = createSignKernel(count, 300)!;
    expect(kernel.codeBytes).toBe(48);
    for (let i = 0; i < kernel.codes.length; i++) kernel.codes[i] = Math.floor((next() + 0.5) * 256);
    const query = Uint8Array.from({ length: 48 }, () => Math.floor((next() + 0.5) * 256));
    const distances = new Uint16Array(count);
    const histogram = new Int32Array(48 * 8 + 1);
    kernel.distances(query, distances, histogram);
    const counted = new Int32Array(histogram.length);
    for (let row = 0; row < count; row++) {
      let differing = 0;
      for (let b = 0; b < 48; b++) {
        let x = kernel.codes[row * 48 + b]! ^ query[b]!;
        for (; x; x &= x - 1) differing++;
      }
      expect(distances[row]).toBe(differing);
      counted[differing]!++;
    }
    expect(histogram).toEqual(counted);
    const positions = new Int32Array(count);
    for (const [from, to, cut] of [
      [0, count, 170],
      [3, 997, 180],
      [5, 12, 400],
      [7, 7, 400],
      [0, count, 0],
      [991, 1000, 192],
    ] as const) {
      const found = kernel.within(distances, from, to, cut, positions);
      const expected: number[] = [];
      for (let i = from; i < to; i++) if (distances[i]! <= cut) expected.push(i);
      expect(Array.from(positions.subarray(0, found))).toEqual(expected);
    }
    // Another direction's distances in the kernel's memory: the ones passed are used.
    const other = new Uint16Array(count).fill(500);
    other[10] = 3;
    kernel.distances(
      query.map((byte) => byte ^ 0xff),
      new Uint16Array(count),
      new Int32Array(histogram.length),
    );
    expect(kernel.within(other, 0, count, 10, positions)).toBe(1);
    expect(positions[0]).toBe(10);
  });

  test('a wide tree: every hop finds what the exact scan finds, runner-up (margin) and blacklist and all', async () => {
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

  test(`from SIGN_SCAN_FROM (${SIGN_SCAN_FROM}) chunks \`auto\` ranks by sign bits, and its routes decide as the float32 scan`, async () => {
    // The engine-overhead benchmark's shape: 10 groups of leaves of 5 chunks, 384 dimensions.
    const perGroup = SIGN_SCAN_FROM / 10 / 5;
    const { tree, vectors, next } = randomTree(10, perGroup, 5, 384, 13);
    expect(tree.chunks.length).toBe(SIGN_SCAN_FROM);
    const embedder = new ExactEmbedder({ vectors });
    const index = await ChunkIndex.build(tree, embedder);
    expect(index.signBits).toBe(true);
    // Messages near a chunk (large margins) and halfway between two chunks of different groups (low
    // margins), routed hop by hop from the agent: every decision — best chunk, its similarity, the
    // child — is the float32 scan's. The runner-up (the margin of the analytics report) is the exact
    // one whenever the margin is low, the case the report is about; a distant runner-up may be
    // missed among the candidates, never overstated.
    const chunkVector = () => vectors[`c${Math.floor((next() + 0.5) * tree.chunks.length)}`]!;
    let lowMargins = 0;
    for (let trial = 0; trial < 80; trial++) {
      const base = chunkVector();
      const other = trial % 2 ? chunkVector() : null;
      const mixed = base.map((value, j) => value + (other ? other[j]! : 0.05 * next()));
      const norm = Math.hypot(...mixed);
      const direction = Float32Array.from(mixed, (value) => value / norm);
      const signs = new MemoryChunkSearch(index, async () => direction);
      const exact = new MemoryChunkSearch(index, async () => direction, { exact: true });
      const constraints = new ExploreConstraints();
      let node = tree.node(2);
      while (node.children.length > 0) {
        const found = (await signs.best(node, constraints))!;
        const expected = (await exact.best(node, constraints))!;
        const { runnerUp, ...decision } = found;
        const { runnerUp: exactRunnerUp, ...expectedDecision } = expected;
        expect(decision).toEqual(expectedDecision);
        expect(runnerUp!.similarity).toBeLessThanOrEqual(exactRunnerUp!.similarity);
        if (expected.similarity - exactRunnerUp!.similarity < 0.1) {
          lowMargins++;
          expect(runnerUp).toEqual(exactRunnerUp);
        }
        node = tree.node(found.childId);
      }
    }
    expect(lowMargins).toBeGreaterThan(10);
  });

  test.each(['sign-bits', 'exact'] as const)(
    "two searches in turn on one index (two sessions, %s): each keeps its own direction's answers",
    async (scan) => {
      // The distances of a pass stay in WebAssembly memory, and a float32 pass in a buffer the index's
      // searches share; a pass by the other search replaces them, and the next hop must notice and
      // run its own pass again, never read the other's.
      const { tree, vectors, next } = randomTree(4, 25, 12, 96, 11);
      const index = await ChunkIndex.build(tree, new ExactEmbedder({ vectors }), undefined, { scan });
      const near = () => {
        const base = vectors[`c${Math.floor((next() + 0.5) * tree.chunks.length)}`]!;
        const noisy = base.map((value) => value + 0.08 * next());
        const norm = Math.hypot(...noisy);
        return Float32Array.from(noisy, (value) => value / norm);
      };
      for (let trial = 0; trial < 10; trial++) {
        const [a, b] = [near(), near()];
        const searchA = new MemoryChunkSearch(index, async () => a);
        const searchB = new MemoryChunkSearch(index, async () => b);
        const exactA = new MemoryChunkSearch(index, async () => a, { exact: true });
        const exactB = new MemoryChunkSearch(index, async () => b, { exact: true });
        const constraints = new ExploreConstraints();
        for (const nodeId of [2, 3, 2, 4, 3]) {
          const node = tree.node(nodeId);
          const fromA = await searchA.best(node, constraints);
          const fromB = await searchB.best(node, constraints);
          expect(fromA).toEqual(await exactA.best(node, constraints));
          expect(fromB).toEqual(await exactB.best(node, constraints));
        }
      }
    },
  );
});
