import { describe, expect, test } from 'vitest';
import { createRowKernel } from './dot-kernel.js';
import { allocateQuantizedRows, candidatesNear, quantizeRows } from './quantized-rows.js';

/** Deterministic pseudo-random numbers in [-0.5, 0.5). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

function normalize(values: Float32Array, from: number, length: number): void {
  let norm = 0;
  for (let j = 0; j < length; j++) norm += values[from + j]! ** 2;
  for (let j = 0; j < length; j++) values[from + j]! /= Math.sqrt(norm);
}

describe('int8 rows with error bounds', () => {
  test('the quantisation error of every row is within its stored residual', () => {
    const next = random(3);
    const stride = 32;
    const rows = new Float32Array(50 * stride).map(() => next());
    const quantized = allocateQuantizedRows(50, stride);
    quantizeRows(rows, stride, 0, 50, quantized);
    for (let row = 0; row < 50; row++) {
      let lost = 0;
      for (let j = 0; j < stride; j++) {
        const q = quantized.values[row * stride + j]!;
        expect(Math.abs(q)).toBeLessThanOrEqual(127);
        lost += (rows[row * stride + j]! - q * quantized.scales[row]!) ** 2;
      }
      expect(Math.sqrt(lost)).toBeLessThanOrEqual(quantized.residuals[row]!);
    }
  });

  test.each([16, 64, 384])(
    'the rows kept always include the first exact best (%i dimensions, near ties included)',
    (dimensions) => {
      const next = random(dimensions);
      const count = 300;
      const kernel = createRowKernel(count, dimensions)!;
      const { rows, stride } = kernel;
      for (let row = 0; row < count; row++) {
        // Groups of near-duplicates and exact duplicates: the cases where int8 ranks could swap.
        if (row % 10 === 0 || row < 10) {
          for (let j = 0; j < dimensions; j++) rows[row * stride + j] = next();
        } else if (row % 10 < 5) {
          for (let j = 0; j < dimensions; j++)
            rows[row * stride + j] = rows[(row - (row % 10)) * stride + j]! + 1e-4 * next();
        } else rows.copyWithin(row * stride, (row - 1) * stride, row * stride);
        normalize(rows, row * stride, dimensions);
      }
      const quantized = allocateQuantizedRows(count, stride);
      quantizeRows(rows, stride, 0, count, quantized);
      const exact = new Float32Array(count);
      const direction = new Float32Array(dimensions);
      const positions = new Int32Array(count);
      const approximate = new Float64Array(count);
      const bounds = new Float64Array(count);
      for (let trial = 0; trial < 40; trial++) {
        // Half the directions right next to a row: the crowded case.
        const near = Math.floor((next() + 0.5) * count);
        for (let j = 0; j < dimensions; j++)
          direction[j] = trial % 2 ? rows[near * stride + j]! + 0.01 * next() : next();
        normalize(direction, 0, dimensions);
        kernel.dots(direction, exact);
        let best = 0;
        for (let row = 1; row < count; row++) if (exact[row]! > exact[best]!) best = row;
        for (let row = 0; row < count; row++) positions[row] = row;
        const kept = candidatesNear(quantized, direction, dimensions, positions, count, approximate, bounds);
        const keptPositions = Array.from(positions.subarray(0, kept));
        expect(keptPositions).toContain(best);
        expect(keptPositions).toEqual([...keptPositions].sort((a, b) => a - b));
        expect(kept).toBeLessThan(count);
      }
    },
  );
});
