import { describe, expect, it } from 'vitest';
import { findWordRuns, type WordRunRule } from './word-runs.js';

/** A toy rule (a test double): digit groups joined by single spaces, whose digits sum to 10. */
const sumsToTen: WordRunRule = {
  word: /^\d+$/,
  separator: /^ $/,
  minLength: 1,
  maxLength: 6,
  startsValue: () => true,
  accept: (words) => [...words.join('')].reduce((sum, digit) => sum + Number(digit), 0) === 10,
};
const found = (text: string, rule = sumsToTen) =>
  findWordRuns(text, rule).map((span) => text.slice(span.start, span.end));

describe('findWordRuns', () => {
  it('joins words over the allowed separators only, and never cuts a word', () => {
    expect(found('a 55 b')).toEqual(['55']);
    expect(found('a 4 6 b')).toEqual(['4 6']);
    expect(found('a 4, 6 b')).toEqual([]);
    expect(found('a 4  6 b')).toEqual([]);
    expect(found('x55 55x 1055')).toEqual([]);
  });

  it('when the longest reading fails its check, retries the shorter ones', () => {
    // 4 6 5 sums to 15: the reading 4 6 is kept and 5 stays.
    expect(found('4 6 5 volte')).toEqual(['4 6']);
    // 1 4 6 fails, 1 4 fails, 1 fails; from 4: 4 6 passes.
    expect(found('1 4 6')).toEqual(['4 6']);
  });

  it('takes the longest valid reading at each word, and starts the next after it', () => {
    // 1 9 and 1 9 0 both pass: the longest. 0 after it never starts another reading.
    expect(found('1 9 0 5 5')).toEqual(['1 9 0', '5 5']);
  });

  it('stops joining at maxLength, so a long run of numbers costs a bounded search', () => {
    expect(found('1 1 1 1 1 1 1 1 1 1')).toEqual([]);
    const long = Array.from({ length: 20_000 }, () => '1').join(' ');
    const started = performance.now();
    expect(found(long)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('a prefix before the first word belongs to the value when the rule says so', () => {
    const plus: WordRunRule = { ...sumsToTen, prefixLength: (before) => (before === '+' ? 1 : 0) };
    expect(found('call +55 now', plus)).toEqual(['+55']);
  });
});
