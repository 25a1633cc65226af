import { describe, expect, test } from 'vitest';
import { seededRandom } from '../test-support/seeded-random.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import type { Tree } from '../tree/tree.js';
import { calibrateThresholds, calibrationReads } from './calibrate-thresholds.js';

const emit = { message: { type: 'static' as const, content: 'ok' } };

/**
 * A random tree under one agent: each node hangs from one of the `reach` nodes made just before it
 * (reach 1: a chain; large: bushy), with 0–2 chunks drawn from `texts` texts (so some repeat), some
 * of them `forRag` chunks (on query nodes) that exploration routes by.
 */
function randomTree(seed: number, nodes: number, reach: number, texts: number): Tree {
  const next = seededRandom(seed);
  const out: NodeDefinition[] = [
    { id: 1, type: 'root', exploreForRagChunks: true } as NodeDefinition,
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ];
  for (let id = 3; id < nodes + 3; id++) {
    const parent = Math.max(2, id - 1 - Math.floor(next() * reach));
    const count = Math.floor(next() * 3);
    const chunks = Array.from({ length: count }, () => {
      const text = `text ${Math.floor(next() * texts)}`;
      return next() < 0.1 ? { text, forRag: true } : text;
    });
    // forRag chunks live on query nodes.
    const query = chunks.some((chunk) => typeof chunk !== 'string');
    out.push(
      (query
        ? { id, type: 'query', parent, chunks }
        : { id, type: 'emit', parent, chunks, emit }) as NodeDefinition,
    );
  }
  return defineTree({ nodes: out });
}

/** A symmetric similarity per pair of positions, in [-1, 1), as float32. */
function similarity(a: number, b: number): number {
  const low = Math.min(a, b);
  const high = Math.max(a, b);
  return Math.fround(seededRandom(low * 100_003 + high)() * 2 - 1);
}

function similarities(position: number, from: number, to: number): Float32Array {
  const out = new Float32Array(to);
  for (let other = from; other < to; other++) out[other] = similarity(position, other);
  return out;
}

/** The definition, node by node: each sample against every other chunk below the node. */
function direct(tree: Tree, samplesPerNode: number, minChunks: number) {
  const explores = tree.chunks.map((chunk) => !chunk.forRag);
  const result = new Map<number, { within: number[]; between: number[] }>();
  for (const node of tree.nodes.values()) {
    if (node.type === 'root' || !node.children.length) continue;
    const positions: number[] = [];
    for (let i = node.ownChunkEnd; i < node.chunkEnd; i++) if (explores[i]) positions.push(i);
    if (positions.length < minChunks) continue;
    const samples =
      positions.length <= samplesPerNode
        ? positions
        : Array.from(
            { length: samplesPerNode },
            (_, k) => positions[Math.floor(((k + 0.5) * positions.length) / samplesPerNode)]!,
          );
    const within: number[] = [];
    const between: number[] = [];
    for (const position of samples) {
      const child = tree.childHolding(node.id, position);
      let best = Number.NEGATIVE_INFINITY;
      let elsewhere = Number.NEGATIVE_INFINITY;
      for (let other = node.ownChunkEnd; other < node.chunkEnd; other++) {
        if (other === position || !explores[other]) continue;
        if (tree.chunks[other]!.text === tree.chunks[position]!.text) continue;
        const value = similarity(position, other);
        best = Math.max(best, value);
        if (other < child.chunkStart || other >= child.chunkEnd) elsewhere = Math.max(elsewhere, value);
      }
      if (best > Number.NEGATIVE_INFINITY) within.push(best);
      if (elsewhere > Number.NEGATIVE_INFINITY) between.push(elsewhere);
    }
    result.set(node.id, { within, between });
  }
  return result;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const value = sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return Math.round(value * 1000) / 1000;
};

describe('calibrateThresholds on deep and wide trees', () => {
  test('the same nearest-neighbour medians and sample counts as the direct definition, node by node', () => {
    for (const [seed, reach] of [
      [1, 1],
      [2, 3],
      [3, 40],
      [4, 1000],
    ] as const) {
      const tree = randomTree(seed, 300, reach, 150);
      const options = { samplesPerNode: 7, minChunks: 3 };
      const calibrations = calibrateThresholds(tree, similarities, options);
      const expected = direct(tree, options.samplesPerNode, options.minChunks);
      expect(calibrations.length).toBeGreaterThan(reach === 1 ? 100 : 1);
      for (const calibration of calibrations) {
        const { within, between } = expected.get(calibration.nodeId)!;
        expect(calibration.withinMedian, `node ${calibration.nodeId}, seed ${seed}`).toBe(median(within));
        expect(calibration.betweenMedian).toBe(between.length ? median(between) : null);
        expect(calibration.samples).toBeLessThanOrEqual(options.samplesPerNode);
      }
      // Every node the definition calibrates (enough samples) is calibrated, and no other.
      expect(calibrations.map((calibration) => calibration.nodeId).sort((a, b) => a - b)).toEqual(
        [...expected]
          .filter(([, values]) => values.within.length >= options.minChunks)
          .map(([id]) => id)
          .sort((a, b) => a - b),
      );
    }
  });

  test('reads each computed similarity at most once, however many nested nodes sample the chunk', () => {
    // A chain: every node routes to the one below it, and samples chunks that its ancestors sample too.
    const tree = randomTree(5, 600, 1, 100_000);
    let computed = 0;
    let read = 0;
    const counting = (position: number, from: number, to: number) => {
      computed += to - from;
      return new Proxy(similarities(position, from, to), {
        get(target, key) {
          if (typeof key === 'string' && /^\d+$/.test(key)) read++;
          return Reflect.get(target, key);
        },
      });
    };
    const calibrations = calibrateThresholds(tree, counting, { samplesPerNode: 16, minChunks: 3 });
    expect(calibrations.length).toBeGreaterThan(300);
    expect(read).toBeGreaterThan(0);
    // Reading every sampling node's whole range again (the code before) reads each value about as
    // many times as there are nodes sampling its position: here over 10 times as many reads.
    expect(read).toBeLessThanOrEqual(computed);
  });
});

describe('calibrationReads', () => {
  test('is the number of similarities calibrateThresholds asks for, on chains and bushy trees', () => {
    for (const [seed, reach] of [
      [11, 1],
      [12, 3],
      [13, 40],
    ] as const) {
      const tree = randomTree(seed, 400, reach, 300);
      let asked = 0;
      calibrateThresholds(
        tree,
        (position, from, to) => {
          asked += to - from;
          return similarities(position, from, to);
        },
        { samplesPerNode: 16, minChunks: 4 },
      );
      expect(asked).toBeGreaterThan(0);
      expect(calibrationReads(tree, { samplesPerNode: 16, minChunks: 4 })).toBe(asked);
    }
  });
});
