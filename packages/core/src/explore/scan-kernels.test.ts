import { describe, expect, test } from 'vitest';
import { createInt8Kernel } from './int8-kernel.js';
import { allocateQuantizedRows, candidatesNear } from './quantized-rows.js';
import { createSignKernel } from './sign-kernel.js';

/** Deterministic pseudo-random numbers in [-0.5, 0.5). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

/** Plain JavaScript reference: differing bits of two codes of `bytes` bytes. */
function hamming(codes: Uint8Array, row: number, query: Uint8Array, bytes: number): number {
  let differing = 0;
  for (let b = 0; b < bytes; b++) {
    let x = codes[row * bytes + b]! ^ query[b]!;
    for (; x; x &= x - 1) differing++;
  }
  return differing;
}

describe('the sign-bit kernel (i64 popcount, four rows per iteration)', () => {
  // Row counts around the four-row unrolling, code lengths of one to several 16-byte blocks.
  test.each([
    [1, 1],
    [2, 128],
    [3, 129],
    [4, 200],
    [5, 384],
    [7, 384],
    [8, 512],
    [1001, 384],
    [37, 3968],
  ])('%i rows of %i bits: the distances and histogram of a plain popcount', (count, bits) => {
    const next = random(count * 31 + bits);
    const kernel = createSignKernel(count, bits)!;
    expect(kernel.codeBytes).toBe(Math.ceil(bits / 128) * 16);
    const bytes = kernel.codeBytes;
    for (let i = 0; i < kernel.codes.length; i++) kernel.codes[i] = Math.floor((next() + 0.5) * 256);
    // The extreme codes: every bit equal, every bit different.
    kernel.codes.fill(0, 0, bytes);
    if (count > 1) kernel.codes.fill(0xff, bytes, 2 * bytes);
    const query = new Uint8Array(bytes);
    for (const fill of ['zeros', 'random'] as const) {
      if (fill === 'random') for (let b = 0; b < bytes; b++) query[b] = Math.floor((next() + 0.5) * 256);
      const histogram = new Int32Array(bytes * 8 + 1);
      const distances = kernel.run(query, histogram);
      const counted = new Int32Array(histogram.length);
      for (let row = 0; row < count; row++) {
        const expected = hamming(kernel.codes, row, query, bytes);
        expect(distances[row]).toBe(expected);
        counted[expected]!++;
      }
      expect(Array.from(histogram)).toEqual(Array.from(counted));
      if (fill === 'zeros') {
        expect(distances[0]).toBe(0);
        if (count > 1) expect(distances[1]).toBe(bytes * 8);
      }
    }
  });

  test('a pass stays valid until the next one; a copy keeps its values', () => {
    const next = random(9);
    const count = 50;
    const kernel = createSignKernel(count, 256)!;
    for (let i = 0; i < kernel.codes.length; i++) kernel.codes[i] = Math.floor((next() + 0.5) * 256);
    const histogram = new Int32Array(257);
    const first = kernel.run(new Uint8Array(32), histogram);
    const pass = kernel.pass;
    const kept = first.slice();
    // Another search's pass: the view now holds the other direction's distances.
    kernel.run(new Uint8Array(32).fill(0xff), histogram);
    expect(kernel.pass).not.toBe(pass);
    expect(Array.from(first)).not.toEqual(Array.from(kept));
    // `distances` copies out; `within` on a copy loads it back and ends the current pass.
    const copy = new Uint16Array(count);
    kernel.distances(new Uint8Array(32), copy, histogram);
    expect(Array.from(copy)).toEqual(Array.from(kept));
    const afterCopy = kernel.pass;
    const positions = new Int32Array(count);
    const other = new Uint16Array(count).fill(300);
    other[4] = 1;
    expect(kernel.within(other, 0, count, 2, positions)).toBe(1);
    expect(positions[0]).toBe(4);
    expect(kernel.pass).toBe(afterCopy + 1);
  });
});

describe('the int8 kernel (float64 dot products of rows picked by position)', () => {
  test.each([
    [1, 16, 16],
    [3, 32, 20],
    [10, 384, 384],
    [9, 400, 397],
    [300, 64, 64],
  ])(
    '%i rows of stride %i, %i coordinates: the values of the plain JavaScript loop',
    (count, stride, dimensions) => {
      const next = random(count + stride);
      const kernel = createInt8Kernel(count, stride)!;
      expect(kernel.values.length).toBe(count * stride);
      for (let i = 0; i < kernel.values.length; i++) kernel.values[i] = Math.round(next() * 254);
      kernel.values.fill(127, 0, stride);
      kernel.values.fill(-127, stride * Math.min(1, count - 1), stride * Math.min(2, count));
      const direction = Float32Array.from({ length: dimensions }, () => next());
      // Repeats, any order, and more positions than one kernel call takes (batches of 4,096).
      const length = count === 300 ? 9000 : 2 * count + 1;
      const positions = Int32Array.from({ length }, (_, k) => (k * 7 + (k >> 3)) % count);
      const out = new Float64Array(length);
      kernel.dots(direction, positions, length, out);
      for (let k = 0; k < length; k++) {
        const base = positions[k]! * stride;
        let expected = 0;
        for (let j = 0; j < dimensions; j++) expected += kernel.values[base + j]! * direction[j]!;
        // Each product is exact in float64; only the order of the sums differs.
        expect(Math.abs(out[k]! - expected)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(expected)));
      }
    },
  );

  test('candidatesNear keeps the same rows with the kernel as with the plain loop', () => {
    const next = random(17);
    const count = 2000;
    const stride = 384;
    const withKernel = allocateQuantizedRows(count, stride);
    expect(withKernel.kernel).toBeDefined();
    for (let i = 0; i < withKernel.values.length; i++) withKernel.values[i] = Math.round(next() * 254);
    for (let row = 0; row < count; row++) {
      withKernel.scales[row] = 0.0005 + (next() + 0.5) * 0.001;
      withKernel.residuals[row] = (next() + 0.5) * 0.02;
    }
    const plain = { ...withKernel, values: withKernel.values.slice(), kernel: undefined };
    for (let trial = 0; trial < 20; trial++) {
      const direction = Float32Array.from({ length: stride }, () => next());
      const positions = Int32Array.from({ length: 700 }, (_, k) => (k * 3 + trial) % count).sort();
      const a = positions.slice();
      const b = positions.slice();
      const scratch = () => ({ approximate: new Float64Array(700), bounds: new Float64Array(700) });
      const s1 = scratch();
      const s2 = scratch();
      const kept1 = candidatesNear(withKernel, direction, stride, a, 700, s1.approximate, s1.bounds);
      const kept2 = candidatesNear(plain, direction, stride, b, 700, s2.approximate, s2.bounds);
      expect(kept1).toBe(kept2);
      expect(Array.from(a.subarray(0, kept1))).toEqual(Array.from(b.subarray(0, kept2)));
    }
  });
});
