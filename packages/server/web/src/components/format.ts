import { currentLocale } from '../i18n/i18n';

/**
 * The app's formats of numbers, dates and times: all through `Intl` in the page's locale
 * (`currentLocale()`, chosen in `main.tsx`), so Italian reads `0,42 ms` and `14:05`.
 */

/** A number with exactly `digits` decimals, in the page's locale. */
export function formatDecimal(value: number, digits: number, locale: string = currentLocale()): string {
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

/** A whole number with the locale's grouping (`12,345`, `12.345`). */
export function formatInteger(value: number, locale: string = currentLocale()): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** A ratio (0–1) as a percentage with one decimal: `42.5%`, `42,5%`. */
export function formatPercent(ratio: number, locale: string = currentLocale()): string {
  return new Intl.NumberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(ratio);
}

function unit(value: number, name: string, digits: number, locale: string): string {
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: name,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(value);
}

/** Milliseconds as a short human text: `0.42 ms`, `12 ms`, `1.30 s`; `—` when unknown. */
export function formatMs(ms: number | null | undefined, locale: string = currentLocale()): string {
  if (typeof ms !== 'number' || Number.isNaN(ms)) return '—';
  if (ms < 1) return unit(ms, 'millisecond', 2, locale);
  if (ms < 1000) return unit(ms, 'millisecond', ms < 10 ? 1 : 0, locale);
  return unit(ms / 1000, 'second', ms < 10_000 ? 2 : 1, locale);
}

/** A byte count as a short human text (`512 byte`, `2.0 kB`, `3.0 MB`); empty when unknown. */
export function formatBytes(bytes: number | null | undefined, locale: string = currentLocale()): string {
  if (typeof bytes !== 'number') return '';
  if (bytes < 1024) return unit(bytes, 'byte', 0, locale);
  if (bytes < 1024 * 1024) return unit(bytes / 1024, 'kilobyte', bytes < 10_240 ? 1 : 0, locale);
  return unit(bytes / 1024 / 1024, 'megabyte', 1, locale);
}

/** A similarity with three decimals. */
export function formatSimilarity(value: number | null | undefined, locale: string = currentLocale()): string {
  return typeof value === 'number' ? formatDecimal(value, 3, locale) : '—';
}

/** A text cut to `max` characters with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function dateOf(value: string | number | Date): Date | null {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The time of day, in the page's locale (`09:05`, `14:05` in Italian, `2:05 PM` in US English); empty when invalid. */
export function formatTime(value: string | number | Date, locale: string = currentLocale()): string {
  const date = dateOf(value);
  return date ? new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(date) : '';
}

/** The time of day with seconds (`14:05:09`). */
export function formatTimeWithSeconds(
  value: string | number | Date,
  locale: string = currentLocale(),
): string {
  const date = dateOf(value);
  return date ? new Intl.DateTimeFormat(locale, { timeStyle: 'medium' }).format(date) : '';
}

/** A date and time, short (`6/12/2026, 14:05` style, per locale); empty when invalid. */
export function formatDateTime(value: string | number | Date, locale: string = currentLocale()): string {
  const date = dateOf(value);
  return date ? new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short' }).format(date) : '';
}
