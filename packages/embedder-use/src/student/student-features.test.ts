import { describe, expect, test } from 'vitest';
import { charGrams, type FeatureSpace, featuresOf, studentWords } from './student-features.js';

const space: FeatureSpace = {
  vocabulary: new Map([
    ['reset', 0],
    ['my', 1],
    ['pin', 2],
  ]),
  bigramBuckets: 16,
  charBuckets: 8,
};

describe('the student features', () => {
  test('words: lower-cased, accents folded, split on anything but letters and digits', () => {
    expect(studentWords("Reset my PIN, café's 2nd?")).toEqual(['reset', 'my', 'pin', 'cafe', 's', '2nd']);
    expect(studentWords('  ¿?! ')).toEqual([]);
  });

  test('a known word is its own row; each adjacent pair a bigram row after the vocabulary', () => {
    const features = featuresOf('reset my PIN', space);
    expect(features.rows.slice(0, 3)).toEqual([0, 1, 2]);
    expect(features.weights).toEqual([1, 1, 1, 1, 1]);
    // Two bigrams, hashed into rows 3..18.
    for (const row of features.rows.slice(3)) expect(row >= 3 && row < 3 + 16).toBe(true);
    expect(features.count).toBe(5);
    // Bigrams depend on the order of the words.
    expect(featuresOf('my reset', space).rows[2]).not.toBe(featuresOf('reset my', space).rows[2]);
  });

  test("an unknown word is its character 3- and 4-grams, in the char rows, sharing one word's weight", () => {
    const features = featuresOf('florb', space);
    const grams = charGrams('florb');
    expect(grams).toEqual(['<fl', 'flo', 'lor', 'orb', 'rb>', '<flo', 'flor', 'lorb', 'orb>']);
    expect(features.rows).toHaveLength(grams.length);
    for (const row of features.rows) expect(row >= 19 && row < 19 + 8).toBe(true);
    expect(features.weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(features.count).toBe(1);
  });

  test('no words, no features', () => {
    expect(featuresOf('', space)).toEqual({ rows: [], weights: [], count: 0 });
    expect(featuresOf(' … ', space)).toEqual({ rows: [], weights: [], count: 0 });
  });
});
