import { describe, expect, test } from 'vitest';
import { describeSpace } from './space.js';

describe('describeSpace: the CLI line on the embedding space', () => {
  const fitted = {
    state: 'fitted' as const,
    embedderId: 'fitted(concat(use-lite-en@0.2.0*2,hashed-v1*1),abc,base*0.1)',
    baseId: 'concat(use-lite-en@0.2.0*2,hashed-v1*1)',
    fitter: '@treeagent/fit (shrinkage 0.2)',
    cached: false,
    fitMilliseconds: 12_300,
    detail: 'randomised PCA, 512 dimensions → 149 dimensions, 150 classes',
  };

  test('names the base the fitter chose, and why, in place of its id', () => {
    const base = 'USE-lite + hashed n-grams 2:1 (English tree: 97% of the 14,620 chunks with function words)';
    expect(describeSpace({ ...fitted, base })).toBe(
      `embedding space: fitted to the tree (fitted in 12.3 s; base ${base}; randomised PCA, 512 dimensions → 149 dimensions, 150 classes); thresholds calibrated in it.`,
    );
  });

  test('the base id when the fitter says nothing of its choice', () => {
    expect(describeSpace(fitted)).toContain('; base concat(use-lite-en@0.2.0*2,hashed-v1*1); randomised PCA');
  });

  test('an interim fit while the final one runs, and after the final one failed', () => {
    const interim = {
      baseId: 'concat(use-lite-student-en@1*2,hashed-v1*1)',
      base: 'USE-lite student + hashed n-grams 2:1 (English tree: …) (interim)',
      cached: false,
      fitMilliseconds: 18_000,
    };
    const embedderId = 'fitted(concat(use-lite-student-en@1*2,hashed-v1*1),def,base*0.25)';
    expect(describeSpace({ state: 'fitting', embedderId, fitter: 'f', interim })).toBe(
      `embedding space: an interim fit (base ${interim.base}) while the fit runs in the background; the agent switches to the fitted space when it is ready.`,
    );
    expect(describeSpace({ state: 'fitting', embedderId: 'hashed-v1', fitter: 'f' })).toMatch(
      /^embedding space: unfitted \(hashed-v1\) while the fit runs/,
    );
    expect(describeSpace({ state: 'failed', embedderId, fitter: 'f', error: 'out of memory', interim })).toBe(
      `embedding space: an interim fit (base ${interim.base}): the fit failed (out of memory).`,
    );
  });
});
