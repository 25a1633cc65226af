import { describe, expect, test } from 'vitest';
import { dot, normalize } from '../../embedding/vector-math.js';
import { PackedVectors } from './packed-vectors.js';

function randomVectors(count: number, dimensions: number, seed: number): Float32Array[] {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
  return Array.from({ length: count }, () => normalize(Array.from({ length: dimensions }, next)));
}

describe('PackedVectors', () => {
  for (const simd of [true, false])
    test(`scores a range of rows like a dot product per pair (${simd ? 'WebAssembly kernel' : 'JavaScript loop'})`, () => {
      // 37 dimensions: not a multiple of the kernel's 16-float block (padded rows).
      const vectors = randomVectors(50, 37, 7);
      const packed = new PackedVectors(vectors.length, 37, { simd });
      if (simd) expect(packed.simd).toBe(true);
      vectors.forEach((vector, position) => {
        packed.set(position, vector);
      });
      expect(Array.from(packed.row(3))).toEqual(Array.from(vectors[3]!));
      const out = new Float32Array(vectors.length).fill(-9);
      packed.similaritiesRange(3, 10, 40, out);
      for (let other = 0; other < vectors.length; other++) {
        if (other < 10 || other >= 40) expect(out[other]).toBe(-9);
        else expect(out[other]).toBeCloseTo(dot(vectors[3]!, vectors[other]!), 5);
      }
    });
});
