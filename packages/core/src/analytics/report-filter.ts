import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { ReportFilter, ResolvedReportFilter } from './analytics-store.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC day of an ISO time, `YYYY-MM-DD`. */
export function dayOf(iso: string): string {
  return iso.slice(0, 10);
}

/**
 * A report filter with its defaults (the last 30 days up to today, low margin 0.05), checked: a
 * malformed day or a range that ends before it starts is an `INVALID_INPUT` that says how to fix it.
 */
export function resolveReportFilter(filter: ReportFilter = {}, now: Date = new Date()): ResolvedReportFilter {
  const to = filter.to ?? now.toISOString().slice(0, 10);
  const from =
    filter.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const) {
    if (!isCalendarDay(value)) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `The report's "${name}" must be a day of the calendar as YYYY-MM-DD (UTC), got "${value}".`,
      );
    }
  }
  if (from > to) {
    throw new TreeAgentError(
      'INVALID_INPUT',
      `The report's range ends (${to}) before it starts (${from}): swap "from" and "to".`,
    );
  }
  const lowMargin = filter.lowMargin ?? 0.05;
  if (!(lowMargin >= 0 && lowMargin <= 2)) {
    throw new TreeAgentError('INVALID_INPUT', `lowMargin must be between 0 and 2, got ${filter.lowMargin}.`);
  }
  return { from, to, treeVersion: filter.treeVersion || null, lowMargin };
}

/** `YYYY-MM-DD` and a day of the calendar: `Date` rolls 2024-02-31 over to March 2nd, so it is read back. */
function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}
