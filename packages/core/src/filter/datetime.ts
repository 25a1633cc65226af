/**
 * An instant with nanosecond precision, as Qdrant compares datetimes: whole milliseconds since
 * the Unix epoch plus the nanoseconds within that millisecond (kept apart so far-future dates
 * stay exact in a double).
 */
export interface Instant {
  readonly ms: number;
  readonly ns: number;
}

const pattern =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?)?$/;

/** The datetime formats Qdrant's datetime range accepts, for error messages. */
export const DATETIME_FORMATS =
  'RFC 3339 (2024-05-01T10:30:00Z, 2024-05-01T12:30:00+02:00), 2024-05-01T10:30:00, 2024-05-01 10:30 or 2024-05-01; no timezone means UTC';

/** Days per month in a non-leap year. */
const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Scratch written by {@link parseDateTimeInto}: the nanoseconds within the parsed millisecond. */
let lastNs = 0;

/**
 * Parses a datetime string in one of Qdrant's accepted formats and returns its epoch
 * milliseconds, leaving the sub-millisecond nanoseconds in {@link lastParsedNs}; returns
 * `undefined` when the string is not such a datetime. Allocation-free for the hot path.
 */
export function parseDateTimeInto(text: string): number | undefined {
  const m = pattern.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = m[4] === undefined ? 0 : Number(m[4]);
  const minute = m[5] === undefined ? 0 : Number(m[5]);
  const second = m[6] === undefined ? 0 : Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > monthDays[month - 1]! + (leap ? 1 : 0)) return undefined;
  let ms = Date.UTC(year, month - 1, day, hour, minute, second);
  if (year < 100) ms = new Date(ms).setUTCFullYear(year);
  const fraction = (m[7] ?? '').padEnd(9, '0');
  ms += Number(fraction.slice(0, 3));
  lastNs = Number(fraction.slice(3));
  if (m[9] !== undefined) {
    const offsetHours = Number(m[10]);
    const offsetMinutes = Number(m[11]);
    if (offsetHours > 23 || offsetMinutes > 59) return undefined;
    const offset = (offsetHours * 60 + offsetMinutes) * 60_000;
    ms += m[9] === '+' ? -offset : offset;
  }
  return ms;
}

/** Nanoseconds within the millisecond of the last successful {@link parseDateTimeInto}. */
export function lastParsedNs(): number {
  return lastNs;
}

/** Parses a datetime into an {@link Instant}, or `undefined` when it is not one. */
export function parseDateTime(text: string): Instant | undefined {
  const ms = parseDateTimeInto(text);
  return ms === undefined ? undefined : { ms, ns: lastNs };
}

/** Orders two instants given as (ms, ns) pairs: negative, zero or positive. */
export function compareInstant(ms: number, ns: number, other: Instant): number {
  return ms === other.ms ? ns - other.ns : ms - other.ms;
}
