import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import { cosineSimilarity, dot, norm, normalize, normalizeInPlace } from './vector-math.js';

describe('cosineSimilarity', () => {
  it('computes known values', () => {
    expect(cosineSimilarity([1, 0], [0, 1])).toBe(0);
    expect(cosineSimilarity([1, 2, 3], [1, 2, 3])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 2], [-1, -2])).toBeCloseTo(-1, 12);
    expect(cosineSimilarity([1, 0], [1, 1])).toBeCloseTo(Math.SQRT1_2, 12);
  });

  it('ignores magnitude', () => {
    expect(cosineSimilarity([3, 4], [30, 40])).toBeCloseTo(1, 12);
    expect(cosineSimilarity([1, 2, 0], [2, -1, 5])).toBeCloseTo(cosineSimilarity([7, 14, 0], [2, -1, 5]), 12);
  });

  it('accepts typed arrays and plain arrays alike', () => {
    const a = new Float32Array([0.5, 0.25, -1]);
    expect(cosineSimilarity(a, [0.5, 0.25, -1])).toBeCloseTo(1, 6);
  });

  it('returns 0, not NaN, when either vector is all zeros', () => {
    expect(cosineSimilarity([0, 0, 0], [1, 2, 3])).toBe(0);
    expect(cosineSimilarity(new Float32Array(4), new Float32Array(4))).toBe(0);
    expect(cosineSimilarity([], [])).toBe(0);
  });

  it('rejects vectors of different lengths', () => {
    expect(() => cosineSimilarity([1, 2], [1, 2, 3])).toThrow(TreeAgentError);
    expect(() => dot([1], [1, 2])).toThrow(/length mismatch/);
  });

  it('is symmetric and stays within [-1, 1]', () => {
    const vec = fc.array(fc.float({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 3, maxLength: 3 });
    fc.assert(
      fc.property(vec, vec, (a, b) => {
        const ab = cosineSimilarity(a, b);
        expect(ab).toBe(cosineSimilarity(b, a));
        expect(Number.isNaN(ab)).toBe(false);
        expect(ab).toBeGreaterThanOrEqual(-1);
        expect(ab).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('dot and norm', () => {
  it('compute the plain dot product and Euclidean norm', () => {
    expect(dot([1, 2, 3], [4, -5, 6])).toBe(12);
    expect(norm([3, 4])).toBe(5);
    expect(norm([])).toBe(0);
  });
});

describe('normalize', () => {
  it('returns a new unit-length Float32Array in the same direction', () => {
    const input = [3, 0, 4];
    const out = normalize(input);
    expect(out).toBeInstanceOf(Float32Array);
    expect(Array.from(out)).toEqual([expect.closeTo(0.6, 6), 0, expect.closeTo(0.8, 6)]);
    expect(norm(out)).toBeCloseTo(1, 6);
    expect(input).toEqual([3, 0, 4]);
  });

  it('does not modify a typed-array input', () => {
    const input = new Float32Array([2, 0]);
    const out = normalize(input);
    expect(out).not.toBe(input);
    expect(Array.from(input)).toEqual([2, 0]);
    expect(Array.from(out)).toEqual([1, 0]);
  });

  it('keeps an all-zero vector at zero without NaN', () => {
    expect(Array.from(normalize([0, 0, 0]))).toEqual([0, 0, 0]);
  });

  it('normalizeInPlace scales the given array and returns it', () => {
    const v = new Float64Array([0, 5, 0, 0]);
    expect(normalizeInPlace(v)).toBe(v);
    expect(Array.from(v)).toEqual([0, 1, 0, 0]);
  });
});
