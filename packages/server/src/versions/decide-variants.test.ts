import { decideExperiment, experimentSampleSize } from '@treeagent/core/adapter';
import { describe, expect, test } from 'vitest';
import { decideVariants } from './decide-variants.js';

const variant = (versionId: string, conversations: number, contained: number) => ({
  versionId,
  conversations,
  contained,
});

describe('decideVariants', () => {
  test('two variants: the same decision as decideExperiment', () => {
    const control = variant('a', 400, 200);
    const treatment = variant('b', 400, 250);
    expect(decideVariants([control, treatment])).toEqual(decideExperiment(control, treatment));
  });

  test('three variants: each treatment against the control at alpha ÷ 2, so a better third variant wins', () => {
    const size = experimentSampleSize({ alpha: 0.025 });
    expect(size).toBeGreaterThan(experimentSampleSize());
    // The second variant is like the control; the third is clearly better (comparing only the first two says no difference).
    const variants = [
      variant('a', size, size / 2),
      variant('b', size, size / 2),
      variant('c', size, size * 0.65),
    ];
    expect(decideExperiment(variants[0]!, variants[1]!).status).toBe('no-difference');
    const decision = decideVariants(variants);
    expect(decision).toMatchObject({ status: 'winner', winner: 'c', sampleSize: size });
    expect(decision.method).toMatch(/alpha ÷ 2 = 0\.025 \(Bonferroni\)/);
    // Until every variant has the sample size, it continues.
    expect(decideVariants([variants[0]!, variants[1]!, variant('c', size - 1, size)]).status).toBe(
      'continue',
    );
  });

  test('three variants: the control wins only when every treatment is significantly worse', () => {
    const size = experimentSampleSize({ alpha: 0.025 });
    const worse = [
      variant('a', size, size * 0.65),
      variant('b', size, size / 2),
      variant('c', size, size / 2),
    ];
    expect(decideVariants(worse)).toMatchObject({ status: 'winner', winner: 'a' });
    const mixed = [
      variant('a', size, size / 2),
      variant('b', size, size * 0.4),
      variant('c', size, size / 2),
    ];
    expect(decideVariants(mixed)).toMatchObject({ status: 'no-difference', winner: null });
  });
});
