import { describe, expect, it } from 'vitest';
import { formatBytes, formatMs, formatSimilarity, truncate } from './format';

describe('the formats of the web app', () => {
  it('says a duration in ms below a second (two decimals under 1 ms, one under 10), then seconds', () => {
    expect(formatMs(0.4213)).toBe('0.42 ms');
    expect(formatMs(7.25)).toBe('7.3 ms');
    expect(formatMs(12.4)).toBe('12 ms');
    expect(formatMs(1300)).toBe('1.30 s');
    expect(formatMs(12_345)).toBe('12.3 s');
    expect(formatMs(null)).toBe('—');
    expect(formatMs(Number.NaN)).toBe('—');
  });

  it('says a size in B, KB (one decimal under 10 KB) or MB; nothing when unknown', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(formatBytes(20_480)).toBe('20 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatBytes(undefined)).toBe('');
  });

  it('gives a similarity three decimals and cuts a long text with an ellipsis', () => {
    expect(formatSimilarity(0.81234)).toBe('0.812');
    expect(formatSimilarity(null)).toBe('—');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcd', 4)).toBe('abcd');
  });
});
