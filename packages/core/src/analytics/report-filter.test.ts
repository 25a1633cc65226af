import { describe, expect, test } from 'vitest';
import { resolveReportFilter } from './report-filter.js';

describe('resolveReportFilter', () => {
  const now = new Date('2024-03-15T12:00:00Z');

  test('the last 30 days up to today by default, UTC', () => {
    expect(resolveReportFilter({}, now)).toMatchObject({ from: '2024-02-15', to: '2024-03-15' });
  });

  test('a leap day is a day; a day not in the calendar is refused, not rolled over to March', () => {
    expect(resolveReportFilter({ from: '2024-02-29', to: '2024-02-29' }, now)).toMatchObject({
      from: '2024-02-29',
      to: '2024-02-29',
    });
    for (const day of ['2024-02-31', '2023-02-29', '2024-04-31', '2024-13-01', '24-02-01'])
      expect(() => resolveReportFilter({ from: day, to: '2024-03-01' }, now)).toThrow(
        `The report's "from" must be a day of the calendar as YYYY-MM-DD (UTC), got "${day}".`,
      );
  });

  test('a range that ends before it starts says to swap them', () => {
    expect(() => resolveReportFilter({ from: '2024-03-02', to: '2024-03-01' }, now)).toThrow(
      'swap "from" and "to"',
    );
  });
});
