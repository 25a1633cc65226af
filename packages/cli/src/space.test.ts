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
});
