import {
  addDays,
  addMonths,
  type CalendarDate,
  compareDates,
  isValidDate,
  today,
  weekday,
} from './calendar.js';
import { englishWordsNumber, italianWordNumber } from './number-words.js';
import type { ParseClock, ParsedValue, ParseMiss, ParseOutcome } from './parse-types.js';
import { matchAll, overlaps, type Span } from './text.js';

/*
 * Dates in Italian and English, absolute ("12 marzo", "the 3rd of March", "12/03/2027",
 * "2027-03-12") and relative to the clock ("domani", "dopodomani", "giovedì prossimo",
 * "tra 3 giorni", "next Friday", "in two weeks"). Day before month in numeric dates.
 */

const MONTHS: Record<string, number> = {
  gennaio: 1,
  gen: 1,
  january: 1,
  jan: 1,
  febbraio: 2,
  feb: 2,
  february: 2,
  marzo: 3,
  mar: 3,
  march: 3,
  aprile: 4,
  apr: 4,
  april: 4,
  maggio: 5,
  mag: 5,
  may: 5,
  giugno: 6,
  giu: 6,
  june: 6,
  jun: 6,
  luglio: 7,
  lug: 7,
  july: 7,
  jul: 7,
  agosto: 8,
  ago: 8,
  august: 8,
  aug: 8,
  settembre: 9,
  sett: 9,
  set: 9,
  september: 9,
  sept: 9,
  sep: 9,
  ottobre: 10,
  ott: 10,
  october: 10,
  oct: 10,
  novembre: 11,
  nov: 11,
  november: 11,
  dicembre: 12,
  dic: 12,
  december: 12,
  dec: 12,
};
const MONTH = `(${Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|')})\\.?`;

/** 0 = Sunday. */
const WEEKDAYS: Record<string, number> = {
  domenica: 0,
  lunedi: 1,
  martedi: 2,
  mercoledi: 3,
  giovedi: 4,
  venerdi: 5,
  sabato: 6,
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};
const WEEKDAY = `(${Object.keys(WEEKDAYS).join('|')})`;

const EN_ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
  thirtieth: 30,
};

/** The day of the month a token names: `3`, `3rd`, `1°`, `primo`, `third`, `twenty-first`, `tre`. */
function dayOf(token: string): number | null {
  const digits = /^(\d{1,2})(?:°|º|st|nd|rd|th)?$/.exec(token);
  if (digits) return Number(digits[1]);
  if (token === 'primo') return 1;
  if (token in EN_ORDINALS) return EN_ORDINALS[token]!;
  const compound = /^(twenty|thirty)-(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)$/.exec(
    token,
  );
  if (compound) return (compound[1] === 'twenty' ? 20 : 30) + EN_ORDINALS[compound[2]!]!;
  const italian = italianWordNumber(token);
  if (italian !== null && italian >= 1 && italian <= 31 && token !== 'un' && token !== 'una') return italian;
  return null;
}

const DAY = '([0-9]{1,2}(?:°|º|st|nd|rd|th)?|[a-z]+(?:-[a-z]+)?)';
const YEAR = '(?:,?\\s+(?:del\\s+|of\\s+)?(\\d{4}))?';

/** Options of one date parse. */
export interface DateParseOptions {
  /** `future` rejects past dates, `past` future ones. Default `any`. */
  dates?: 'future' | 'past' | 'any';
  /** The slot is the one asked for: a bare day ("il 3", "the 5th") counts. */
  awaited?: boolean;
}

/** Every date in `folded` text. */
export function parseDates(
  folded: string,
  clock: ParseClock,
  options: DateParseOptions = {},
): ParseOutcome<CalendarDate> {
  const base = today(clock.now, clock.timeZone);
  const values: ParsedValue<CalendarDate>[] = [];
  const misses: ParseMiss[] = [];
  const taken: Span[] = [];
  const add = (span: Span, date: CalendarDate | null, parser: string, explicitYear: boolean) => {
    if (overlaps(span, taken)) return;
    taken.push(span);
    if (!date || !isValidDate(date)) {
      misses.push({ error: 'invalid-date', ...span });
      return;
    }
    const resolved = explicitYear ? date : inferYear(date, base, options.dates);
    const direction = options.dates ?? 'any';
    const order = compareDates(resolved, base);
    if (direction === 'future' && order < 0) misses.push({ error: 'past-date', ...span });
    else if (direction === 'past' && order > 0) misses.push({ error: 'future-date', ...span });
    else values.push({ value: resolved, parser, ...span });
  };

  for (const m of matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/, folded)) {
    add(m, { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) }, 'date:numeric', true);
  }
  for (const m of matchAll(/(?<![\d.])(\d{1,2})([/.-])(\d{1,2})(?:\2(\d{4}|\d{2}))?(?![\d/]|\.\d)/, folded)) {
    if (m[2] === '.' && !m[4]) continue; // "20.30" is a time, "3.5" a number
    let day = Number(m[1]);
    let month = Number(m[3]);
    if (month > 12 && day <= 12) [day, month] = [month, day]; // 3/25: month first
    const year = m[4] ? (m[4].length === 2 ? 2000 + Number(m[4]) : Number(m[4])) : base.year;
    add(m, { year, month, day }, 'date:numeric', Boolean(m[4]));
  }
  const dayMonth = new RegExp(
    `\\b(?:(?:il|l'|lo|the|on the|on)\\s*)?${DAY}(?:\\s+(?:of|di|del))?\\s+${MONTH}(?![a-z])${YEAR}`,
  );
  for (const m of matchAll(dayMonth, folded)) {
    const day = dayOf(m[1]!);
    if (day === null) continue;
    const year = m[3] ? Number(m[3]) : base.year;
    add(m, { year, month: MONTHS[m[2]!]!, day }, 'date:absolute', Boolean(m[3]));
  }
  const monthDay = new RegExp(`\\b${MONTH}\\s+(?:the\\s+)?${DAY}(?![a-z0-9])${YEAR}`);
  for (const m of matchAll(monthDay, folded)) {
    const day = dayOf(m[2]!);
    if (day === null || (m[1] === 'may' && !/\d/.test(m[2]!))) continue;
    const year = m[3] ? Number(m[3]) : base.year;
    add(m, { year, month: MONTHS[m[1]!]!, day }, 'date:absolute', Boolean(m[3]));
  }
  const relative: [RegExp, number][] = [
    [/\b(?:l'altro ieri|altroieri|the day before yesterday)\b/, -2],
    [/\b(?:the day after tomorrow|day after tomorrow|dopodomani)\b/, 2],
    [
      /\b(?:oggi|stamattina|stamani|stasera|stanotte|oggi pomeriggio|today|tonight|this (?:morning|afternoon|evening))\b/,
      0,
    ],
    [/\b(?:domani|domattina|tomorrow)\b/, 1],
    [/\b(?:ieri|yesterday)\b/, -1],
  ];
  for (const m of matchAll(/\ba week from today\b/, folded)) add(m, addDays(base, 7), 'date:relative', true);
  for (const [pattern, days] of relative) {
    for (const m of matchAll(pattern, folded)) add(m, addDays(base, days), 'date:relative', true);
  }
  const inDays =
    /\b(?:tra|fra|in|entro)\s+([a-z0-9-]+(?:\s+[a-z-]+)?)\s+(giorni|giorno|settimane|settimana|mesi|mese|days?|weeks?|months?)\b/;
  for (const m of matchAll(inDays, folded)) {
    const amount = amountOf(m[1]!);
    if (amount === null) continue;
    const unit = m[2]!;
    const date = /^(mes|month)/.test(unit)
      ? addMonths(base, amount)
      : addDays(base, /^(settiman|week)/.test(unit) ? amount * 7 : amount);
    add(m, date, 'date:relative', true);
  }
  const weekdays = new RegExp(
    `\\b(?:(questo|questa|this|next|on|prossimo|prossima|il prossimo|la prossima|coming)\\s+)?${WEEKDAY}(?:\\s+(prossimo|prossima|next|che viene))?\\b`,
  );
  for (const m of matchAll(weekdays, folded)) {
    // "venerdì 12 marzo": the weekday belongs to the date after it.
    const after = taken.find((span) => /^\s*$/.test(folded.slice(m.end, span.start)) && span.start >= m.end);
    if (after && !m[1] && !m[3]) {
      after.start = m.start;
      const value = values.find((item) => item.end === after.end);
      if (value) value.start = m.start;
      continue;
    }
    const target = WEEKDAYS[m[2]!]!;
    const inclusive = m[1] === 'questo' || m[1] === 'questa' || m[1] === 'this';
    let ahead = (target - weekday(base) + 7) % 7;
    if (ahead === 0 && !inclusive) ahead = 7;
    add(m, addDays(base, ahead), 'date:weekday', true);
  }
  if (options.awaited) {
    const bareDay =
      /\b(?:il|the|on the|per il|for the|giorno)\s+([0-9]{1,2}(?:°|º|st|nd|rd|th)?|primo|first|[a-z]+(?:-[a-z]+)?)\b/;
    for (const m of matchAll(bareDay, folded)) {
      const day = dayOf(m[1]!);
      if (day === null || day > 31) continue;
      let date: CalendarDate = { ...base, day };
      if (day < base.day) date = { ...addMonths({ ...base, day: 1 }, 1), day };
      add(m, date, 'date:day', true);
    }
  }
  values.sort((a, b) => a.start - b.start);
  return { values, misses };
}

/** A date written without its year: this year's, or next year's when it is past (or last year's for `past`). */
function inferYear(
  date: CalendarDate,
  base: CalendarDate,
  direction: DateParseOptions['dates'],
): CalendarDate {
  if (direction === 'past') return compareDates(date, base) > 0 ? { ...date, year: date.year - 1 } : date;
  return compareDates(date, base) < 0 ? { ...date, year: date.year + 1 } : date;
}

function amountOf(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  const words = text.split(/\s+/);
  if (words.length === 1) {
    const italian = italianWordNumber(words[0]!);
    if (italian !== null) return italian;
  }
  if (words.length === 1 && (words[0] === 'a' || words[0] === 'an')) return 1;
  return englishWordsNumber(words);
}
