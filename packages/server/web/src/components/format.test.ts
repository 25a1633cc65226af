import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDateTime,
  formatMs,
  formatPercent,
  formatSimilarity,
  formatTime,
  truncate,
} from './format';

describe('the formats of the web app', () => {
  it('says a duration in ms below a second (two decimals under 1 ms, one under 10), then seconds', () => {
    expect(formatMs(0.4213, 'en')).toBe('0.42 ms');
    expect(formatMs(7.25, 'en')).toBe('7.3 ms');
    expect(formatMs(12.4, 'en')).toBe('12 ms');
    expect(formatMs(1300, 'en')).toBe('1.30 sec');
    expect(formatMs(12_345, 'en')).toBe('12.3 sec');
    expect(formatMs(null)).toBe('—');
    expect(formatMs(Number.NaN)).toBe('—');
  });

  it('writes decimals with the locale’s separator: Italian has a comma', () => {
    expect(formatMs(0.4213, 'it')).toBe('0,42 ms');
    expect(formatSimilarity(0.81234, 'it')).toBe('0,812');
    expect(formatPercent(0.425, 'it')).toBe('42,5%');
    expect(formatPercent(0.425, 'en')).toBe('42.5%');
  });

  it('says a size in bytes, kB (one decimal under 10 kB) or MB; nothing when unknown', () => {
    expect(formatBytes(512, 'en')).toBe('512 byte');
    expect(formatBytes(2048, 'en')).toBe('2.0 kB');
    expect(formatBytes(20_480, 'en')).toBe('20 kB');
    expect(formatBytes(3 * 1024 * 1024, 'en')).toBe('3.0 MB');
    expect(formatBytes(undefined)).toBe('');
  });

  it('gives times of day in 24 hours in Italian and in 12 hours in US English', () => {
    const afternoon = new Date(2026, 11, 6, 14, 5);
    expect(formatTime(afternoon, 'it-IT')).toBe('14:05');
    expect(formatTime(new Date(2026, 11, 6, 9, 5), 'it-IT')).toBe('09:05');
    expect(formatTime(afternoon, 'en-US')).toMatch(/^2:05\sPM$/);
    expect(formatDateTime(afternoon, 'it-IT')).toBe('06/12/26, 14:05');
    expect(formatTime('not a date', 'en')).toBe('');
  });

  it('gives a similarity three decimals and cuts a long text with an ellipsis', () => {
    expect(formatSimilarity(0.81234, 'en')).toBe('0.812');
    expect(formatSimilarity(null)).toBe('—');
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abcd', 4)).toBe('abcd');
  });
});
