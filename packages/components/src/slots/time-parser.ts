import { EN_SMALL, italianWordNumber } from './number-words.js';
import type { ParsedValue, ParseMiss, ParseOutcome } from './parse-types.js';
import { matchAll, overlaps, type Span } from './text.js';

/*
 * Times of day in Italian and English: "alle 8", "alle 20:30", "alle otto e mezza", "alle 9 meno
 * un quarto", "alle 3 del pomeriggio", "mezzogiorno", "at 8pm", "half past seven", "quarter to
 * nine", "noon". A bare number ("8") is a time only when the slot is the one asked for.
 */

/** A time of day. */
export interface TimeOfDay {
  hour: number;
  minute: number;
}

/** "one" … "twelve": the English number words of the hours. */
const EN_HOURS: Record<string, number> = Object.fromEntries(
  Object.entries(EN_SMALL).filter(
    ([word, value]) => value >= 1 && value <= 12 && word !== 'a' && word !== 'an',
  ),
);
const EN_MINUTES: Record<string, number> = {
  ...EN_HOURS,
  twenty: 20,
  'twenty-five': 25,
  quarter: 15,
  half: 30,
};

function hourOf(token: string): number | null {
  if (/^\d{1,2}$/.test(token)) return Number(token);
  if (token in EN_HOURS) return EN_HOURS[token]!;
  const italian = italianWordNumber(token);
  return italian !== null && italian <= 24 ? italian : null;
}

/** Minutes after "e" / before "meno": "mezza", "un quarto", "tre quarti", "dieci", "20". */
function minutesOf(text: string): number | null {
  const words = text.trim();
  if (words === 'mezza' || words === 'mezzo') return 30;
  if (words === 'un quarto' || words === 'quarto') return 15;
  if (words === 'tre quarti') return 45;
  if (/^\d{1,2}$/.test(words)) return Number(words);
  const italian = italianWordNumber(words);
  return italian !== null && italian < 60 ? italian : null;
}

const PERIOD =
  '(?:\\s*(am|pm|a\\.m\\.|p\\.m\\.)|\\s+(?:di |del |della |in the |at )(mattina|mattino|pomeriggio|sera|notte|morning|afternoon|evening|night)|\\s+(stasera|stamattina|tonight))?';
const PREFIX = "(?:alle|all'|ore|le|dalle|verso le|per le|at|by|around|from|h)";
const HOUR_TOKEN = '(\\d{1,2}|[a-z]+)';

function applyPeriod(hour: number, period: string | undefined): number {
  if (!period) return hour;
  if (/^(am|a\.m\.|mattina|mattino|morning|stamattina)$/.test(period)) return hour === 12 ? 0 : hour;
  if (/^(notte|night)$/.test(period)) return hour >= 6 && hour < 12 ? hour + 12 : hour === 12 ? 0 : hour;
  return hour < 12 ? hour + 12 : hour;
}

/** Options of one time parse. */
export interface TimeParseOptions {
  /** The slot is the one asked for: a bare number ("8", "le 9") is a time. */
  awaited?: boolean;
}

/** Every time of day in `folded` text. */
export function parseTimes(folded: string, options: TimeParseOptions = {}): ParseOutcome<TimeOfDay> {
  const values: ParsedValue<TimeOfDay>[] = [];
  const misses: ParseMiss[] = [];
  const taken: Span[] = [];
  const add = (span: Span, hour: number | null, minute: number | null, parser = 'time') => {
    if (overlaps(span, taken)) return;
    taken.push(span);
    if (hour === null || minute === null || hour > 24 || minute > 59 || (hour === 24 && minute > 0)) {
      misses.push({ error: 'invalid-time', ...span });
      return;
    }
    values.push({ value: { hour: hour % 24, minute }, parser, ...span });
  };

  for (const m of matchAll(/\b(mezzogiorno|mezzodi|noon|midday)\b/, folded)) add(m, 12, 0, 'time:word');
  for (const m of matchAll(/\b(mezzanotte|midnight)\b/, folded)) add(m, 0, 0, 'time:word');
  // English: "half past seven", "quarter to nine", "ten past 8".
  const past = new RegExp(
    `\\b(half|quarter|twenty-five|twenty|ten|five|\\d{1,2})\\s+(past|after|to)\\s+${HOUR_TOKEN}\\b${PERIOD}`,
  );
  for (const m of matchAll(past, folded)) {
    const minutes = /^\d+$/.test(m[1]!) ? Number(m[1]) : EN_MINUTES[m[1]!]!;
    const hour = hourOf(m[3]!);
    if (hour === null) continue;
    const period = m[4] ?? m[5] ?? m[6];
    const base = applyPeriod(hour, period);
    if (m[2] === 'to') add(m, (base + 23) % 24, 60 - minutes, 'time:words');
    else add(m, base, minutes, 'time:words');
  }
  // Italian: "alle otto e mezza", "alle 9 meno un quarto", "alle 20:30", "ore 14", "all'una".
  const prefixed = new RegExp(
    `\\b${PREFIX}\\s*${HOUR_TOKEN}(?:[:.h](\\d{2}))?(?:\\s+(?:e\\s+(mezza|mezzo|un quarto|tre quarti|[a-z]+|\\d{1,2})|meno\\s+(un quarto|[a-z]+|\\d{1,2})))?(?:\\s+(?:in punto|o'clock))?${PERIOD}`,
  );
  for (const m of matchAll(prefixed, folded)) {
    const hour = hourOf(m[1]!);
    if (hour === null) continue;
    let minute = m[2] ? Number(m[2]) : 0;
    let end = m.end;
    if (m[3]) {
      const extra = minutesOf(m[3]);
      if (extra === null)
        end = m.start + m[0].indexOf(m[3]) - 3; // "alle 8 e poi" — stop before "e"
      else minute = extra;
    }
    let adjusted = applyPeriod(hour, m[5] ?? m[6] ?? m[7]);
    if (m[4]) {
      const before = minutesOf(m[4]);
      if (before === null) continue;
      adjusted = (adjusted + 23) % 24;
      minute = 60 - before;
    }
    add({ start: m.start, end: Math.max(end, m.start + 1) }, adjusted, minute);
  }
  // "8:30", "20:45", "8pm", "7.30 pm", "8 o'clock", "14h".
  for (const m of matchAll(new RegExp(`(?<![\\d:./])(\\d{1,2}):(\\d{2})(?![\\d:])${PERIOD}`), folded)) {
    add(m, applyPeriod(Number(m[1]), m[3] ?? m[4] ?? m[5]), Number(m[2]));
  }
  for (const m of matchAll(/(?<![\d:./])(\d{1,2})(?:[.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)(?![a-z])/, folded)) {
    add(m, applyPeriod(Number(m[1]), m[3]), m[2] ? Number(m[2]) : 0);
  }
  for (const m of matchAll(/\b(\d{1,2}|[a-z]+)\s+(?:o'clock|in punto)\b/, folded)) {
    const hour = hourOf(m[1]!);
    if (hour !== null) add(m, hour, 0);
  }
  for (const m of matchAll(
    /(?<![\d:./])(\d{1,2})\s+(?:di |del |della |in the )(mattina|mattino|pomeriggio|sera|notte|morning|afternoon|evening)\b/,
    folded,
  )) {
    add(m, applyPeriod(Number(m[1]), m[2]), 0);
  }
  if (options.awaited && values.length === 0 && misses.length === 0) {
    const bare = /^\s*(?:(?:le|ore|alle|at)\s+)?(\d{1,2})(?:[:.](\d{2}))?\s*[.!]?\s*$/.exec(folded);
    if (bare) add({ start: bare.index, end: folded.length }, Number(bare[1]), bare[2] ? Number(bare[2]) : 0);
  }
  values.sort((a, b) => a.start - b.start);
  return { values, misses };
}
