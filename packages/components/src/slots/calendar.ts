/*
 * Calendar dates and wall-clock times in a time zone, with no library: `Intl` gives the local
 * calendar date of an instant, and the offset of a local time.
 */

/** A day of the calendar, with no time zone. */
export interface CalendarDate {
  year: number;
  /** 1–12. */
  month: number;
  day: number;
}

const partsCache = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = partsCache.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsCache.set(timeZone, format);
  }
  return format;
}

/** The wall-clock date and time of `instant` in `timeZone`. */
export function wallClock(instant: Date, timeZone: string) {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour! % 24,
    minute: parts.minute!,
    second: parts.second!,
  };
}

/** Today's date in `timeZone`. */
export function today(now: Date, timeZone: string): CalendarDate {
  const { year, month, day } = wallClock(now, timeZone);
  return { year, month, day };
}

/** Whether the date exists (no 31 February). */
export function isValidDate(date: CalendarDate): boolean {
  if (date.month < 1 || date.month > 12 || date.day < 1) return false;
  return date.day <= daysInMonth(date.year, date.month);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function addDays(date: CalendarDate, days: number): CalendarDate {
  const moved = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: moved.getUTCFullYear(), month: moved.getUTCMonth() + 1, day: moved.getUTCDate() };
}

export function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + date.month - 1 + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** 0 = Sunday … 6 = Saturday. */
export function weekday(date: CalendarDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

/** Negative when `a` is before `b`. */
export function compareDates(a: CalendarDate, b: CalendarDate): number {
  return a.year - b.year || a.month - b.month || a.day - b.day;
}

const pad = (value: number, size = 2) => String(value).padStart(size, '0');

/** `2026-03-12`. */
export function isoDate(date: CalendarDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** `08:30`. */
export function isoTime(hour: number, minute: number): string {
  return `${pad(hour)}:${pad(minute)}`;
}

/** The date of an ISO `YYYY-MM-DD` string (or the date part of a date-time). */
export function parseIsoDate(text: string): CalendarDate | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return null;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return isValidDate(date) ? date : null;
}

/**
 * The local date and time in `timeZone` as an ISO string with that zone's offset at that moment
 * (`2026-03-12T08:00:00+01:00`). A local time that does not exist (the hour skipped by daylight
 * saving time) moves forward by the gap.
 */
export function zonedDateTime(date: CalendarDate, hour: number, minute: number, timeZone: string): string {
  const wanted = Date.UTC(date.year, date.month - 1, date.day, hour, minute);
  let instant = wanted;
  for (let pass = 0; pass < 3; pass++) {
    const clock = wallClock(new Date(instant), timeZone);
    const shown = Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute);
    if (shown === wanted) break;
    instant += wanted - shown;
  }
  const clock = wallClock(new Date(instant), timeZone);
  const offsetMinutes = Math.round(
    (Date.UTC(clock.year, clock.month - 1, clock.day, clock.hour, clock.minute) - instant) / 60_000,
  );
  const sign = offsetMinutes < 0 ? '-' : '+';
  const offset = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
  return `${isoDate(clock)}T${isoTime(clock.hour, clock.minute)}:00${offset}`;
}
