import type { Context } from '@treeagent/core';
import { type CalendarDate, isoDate, isoTime, parseIsoDate, zonedDateTime } from './calendar.js';
import { parseDates } from './date-parser.js';
import { parseEmails } from './email-parser.js';
import { parseEnum } from './enum-parser.js';
import { parseNumbers } from './number-parser.js';
import type { ParseClock, ParsedValue, ParseMiss } from './parse-types.js';
import { parsePhones } from './phone-parser.js';
import type { SlotDefinition, SlotErrorCode } from './slot-definition.js';
import { blank, escapeRegExp, fold, matchAll, overlaps, type Span } from './text.js';
import { parseTimes, type TimeOfDay } from './time-parser.js';

/** A value read from a message for a slot. */
export interface Extraction {
  slot: string;
  value: unknown;
  /** The parser that read it (`date:relative`, `phone`, `enum:typo`, `llm`…). */
  parser: string;
  /** The part of the message it was read from. */
  text: string;
  /** The slot had another value before: the user corrected it. */
  correction: boolean;
}

/** Text that looked like a value for a slot but was not valid. */
export interface ExtractionMiss {
  slot: string;
  error: SlotErrorCode;
  /** The validator's own message, for `invalid`. */
  message?: string;
  text: string;
}

/** What one message gave. */
export interface ExtractionResult {
  extracted: Extraction[];
  misses: ExtractionMiss[];
  /** Half of a date-time (`{ date }` or `{ time }`) kept until the other half comes, by slot. */
  partials: Record<string, { date?: string; time?: string }>;
}

/** What `extractSlots` reads. */
export interface ExtractionInput {
  text: string;
  slots: readonly SlotDefinition[];
  /** Values the form holds already (for corrections). */
  values: Readonly<Record<string, unknown>>;
  /** The slot the form asked for, if any: bare numbers, days and free text go to it. */
  awaited: string | null;
  clock: ParseClock;
  partials?: Readonly<Record<string, { date?: string; time?: string }>>;
  /** Handed to custom validators. */
  context?: Context | null;
}

const NUMERIC = new Set(['integer', 'number']);

/**
 * Reads every slot it can from one message, deterministically: e-mails and phones first, then dates
 * and times, enums, patterns, custom parsers and numbers, each on what the previous ones left, so
 * "domani alle 20 per 4 persone" gives a date, a time and a count. Values are validated (type, bounds,
 * custom validator); what looked like a value and was not is a miss.
 */
export function extractSlots(input: ExtractionInput): ExtractionResult {
  const { text, slots, awaited, clock } = input;
  const folded = fold(text);
  const taken: Span[] = [];
  const extracted: Extraction[] = [];
  const misses: ExtractionMiss[] = [];
  const partials: ExtractionResult['partials'] = { ...(input.partials ?? {}) };
  const filled = new Set<string>();
  const awaitedSlot = slots.find((slot) => slot.name === awaited) ?? null;
  const numericSlots = slots.filter((slot) => NUMERIC.has(slot.type));

  const record = (slot: SlotDefinition, value: unknown, span: Span, parser: string) => {
    taken.push(span);
    filled.add(slot.name);
    const problem = validate(slot, value, input.context ?? null);
    const piece = text.slice(span.start, span.end).trim();
    if (problem) {
      misses.push({ slot: slot.name, ...problem, text: piece });
      return;
    }
    const previous = input.values[slot.name];
    extracted.push({
      slot: slot.name,
      value,
      parser,
      text: piece,
      correction:
        previous !== undefined && previous !== null && JSON.stringify(previous) !== JSON.stringify(value),
    });
  };
  const miss = (slot: SlotDefinition, found: ParseMiss) => {
    if (overlaps(found, taken)) return;
    taken.push(found);
    misses.push({
      slot: slot.name,
      error: found.error,
      text: text.slice(found.start, found.end).trim(),
      ...(found.message ? { message: found.message } : {}),
    });
  };
  /** The slot a value of `type` at `span` belongs to: by keyword, the awaited slot, an empty one, the only one. */
  const target = (candidates: SlotDefinition[], span: Span, loose: boolean): SlotDefinition | null => {
    const open = candidates.filter((slot) => !filled.has(slot.name));
    if (!open.length) return null;
    const byKeyword = open.find((slot) => nearKeyword(folded, span, slot.keywords));
    if (byKeyword) return byKeyword;
    if (awaitedSlot && open.includes(awaitedSlot)) return awaitedSlot;
    if (!loose) return null;
    return (
      open.find((slot) => input.values[slot.name] === undefined) ??
      (candidates.length === 1 ? open[0]! : null)
    );
  };
  const assign = <T>(
    types: string[],
    found: ParsedValue<T>[],
    toValue: (value: T) => unknown,
    loose = true,
  ) => {
    const candidates = slots.filter((slot) => types.includes(slot.type));
    for (const item of found) {
      if (overlaps(item, taken)) continue;
      const slot = target(candidates, item, loose);
      if (slot) record(slot, toValue(item.value), item, item.parser);
    }
  };
  const has = (...types: string[]) => slots.some((slot) => types.includes(slot.type));

  if (has('email')) {
    const emails = parseEmails(text);
    assign(['email'], emails.values, (value) => value);
    if (awaitedSlot?.type === 'email') for (const found of emails.misses) miss(awaitedSlot, found);
  }
  const phoneSlots = slots.filter((slot) => slot.type === 'phone');
  for (const slot of phoneSlots) {
    const phones = parsePhones(blank(text, taken), { country: slot.country ?? '39' });
    assign(
      ['phone'],
      phones.values.filter((value) => target([slot], value, true) === slot),
      (value) => value,
    );
  }
  if (has('date', 'time', 'date-time')) {
    const dateSlot = slots.find((slot) => slot.type === 'date' || slot.type === 'date-time');
    const dates = parseDates(blank(folded, taken), clock, {
      awaited: awaitedSlot?.type === 'date' || awaitedSlot?.type === 'date-time',
      dates: (awaitedSlot?.type === 'date' ? awaitedSlot : dateSlot)?.dates ?? 'any',
    });
    const times = parseTimes(blank(folded, taken), {
      awaited: awaitedSlot?.type === 'time' || awaitedSlot?.type === 'date-time',
    });
    for (const slot of slots.filter((item) => item.type === 'date-time')) {
      const date = dates.values.find((item) => !overlaps(item, taken));
      const time = times.values.find((item) => !overlaps(item, taken));
      const partial = partials[slot.name] ?? {};
      const day = date ? isoDate(date.value) : partial.date;
      const clockTime = time ? isoTime(time.value.hour, time.value.minute) : partial.time;
      if (!date && !time) continue;
      const spans = [date, time].filter((item): item is ParsedValue<CalendarDate> | ParsedValue<TimeOfDay> =>
        Boolean(item),
      );
      const span = {
        start: Math.min(...spans.map((item) => item.start)),
        end: Math.max(...spans.map((item) => item.end)),
      };
      if (day && clockTime) {
        const [hour, minute] = clockTime.split(':').map(Number) as [number, number];
        delete partials[slot.name];
        record(
          slot,
          zonedDateTime(parseIsoDate(day)!, hour, minute, clock.timeZone),
          span,
          date ? date.parser : 'time',
        );
      } else {
        partials[slot.name] = { ...(day ? { date: day } : {}), ...(clockTime ? { time: clockTime } : {}) };
        taken.push(span);
        filled.add(slot.name);
        misses.push({
          slot: slot.name,
          error: day ? 'missing-time' : 'missing-date',
          text: text.slice(span.start, span.end).trim(),
        });
      }
    }
    assign(['date'], dates.values, (value) => isoDate(value));
    assign(['time'], times.values, (value) => isoTime(value.hour, value.minute));
    const dateTarget = awaitedSlot && ['date', 'date-time'].includes(awaitedSlot.type) ? awaitedSlot : null;
    if (dateTarget) for (const found of dates.misses) miss(dateTarget, found);
    const timeTarget = awaitedSlot && ['time', 'date-time'].includes(awaitedSlot.type) ? awaitedSlot : null;
    if (timeTarget) for (const found of times.misses) miss(timeTarget, found);
  }
  if (awaitedSlot?.type === 'phone' && !filled.has(awaitedSlot.name)) {
    for (const found of parsePhones(blank(text, taken), {
      country: awaitedSlot.country ?? '39',
      awaited: true,
    }).misses)
      miss(awaitedSlot, found);
  }
  for (const slot of slots.filter((item) => item.type === 'enum' && item.options)) {
    const found = parseEnum(blank(folded, taken), slot.options!);
    const values = found.values.filter((item) => target([slot], item, true) === slot);
    for (const item of values) record(slot, item.value, item, item.parser);
    if (slot === awaitedSlot) for (const item of found.misses) miss(slot, item);
  }
  for (const slot of slots.filter((item) => item.type === 'regex' && item.pattern)) {
    const pattern = typeof slot.pattern === 'string' ? new RegExp(slot.pattern, 'i') : slot.pattern!;
    for (const m of matchAll(pattern, blank(text, taken))) {
      if (overlaps(m, taken) || target([slot], m, true) !== slot) continue;
      record(slot, m.groups?.value ?? m[0], m, 'regex');
      break;
    }
    if (slot === awaitedSlot && !filled.has(slot.name) && /\S/.test(blank(text, taken)) && /\d/.test(text))
      misses.push({ slot: slot.name, error: 'no-match', text: text.trim() });
  }
  for (const slot of slots.filter((item) => item.type === 'custom' && item.parse)) {
    if (filled.has(slot.name)) continue;
    const found = slot.parse!(blank(text, taken));
    if (!found) continue;
    if ('error' in found) {
      if (slot === awaitedSlot)
        misses.push({ slot: slot.name, error: 'invalid', message: found.error, text: text.trim() });
      continue;
    }
    const span = { start: found.start ?? 0, end: found.end ?? text.length };
    if (target([slot], span, true) === slot) record(slot, found.value, span, 'custom');
  }
  if (numericSlots.length) {
    const numbers = parseNumbers(blank(folded, taken)).values;
    // "una persona", "a table for one": an article before a slot's keyword is 1.
    for (const slot of numericSlots) {
      for (const keyword of slot.keywords ?? []) {
        const article = new RegExp(`\\b(?:un|una|uno|a|an)\\s+(?=${escapeRegExp(fold(keyword))}\\b)`);
        for (const m of matchAll(article, blank(folded, taken)))
          numbers.push({ value: 1, start: m.start, end: m.end - 1, parser: 'number:words' });
      }
    }
    numbers.sort((a, b) => a.start - b.start);
    // A number belongs to a numeric slot by a keyword near it, when it is the one asked for, or when the form has only one.
    assign(['integer', 'number'], numbers, (value) => value, numericSlots.length === 1);
  }
  // A text slot that is not asked takes the clause with one of its keywords ("il cambio non va").
  for (const slot of slots.filter(
    (item) => item.type === 'text' && item !== awaitedSlot && item.keywords?.length,
  )) {
    const rest = blank(text, taken);
    for (const m of matchAll(/[^.,;!?\n]+/, rest)) {
      const clause = fold(m[0]);
      const hit = slot.keywords!.some((keyword) =>
        new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(fold(keyword))}(?![\\p{L}\\p{N}])`, 'u').test(clause),
      );
      const value = m[0].replace(/\s+/g, ' ').trim();
      if (!hit || !/\p{L}(?:.*\p{L}){2}/u.test(value)) continue;
      const start = m.start + m[0].indexOf(value[0]!);
      record(slot, value, { start, end: m.end }, 'text:keyword');
      break;
    }
  }
  if (awaitedSlot?.type === 'text' && !filled.has(awaitedSlot.name)) {
    const rest = remainder(text, taken);
    if (rest) record(awaitedSlot, rest, { start: 0, end: text.length }, 'text');
  }
  return { extracted, misses, partials };
}

/** Whether one of `keywords` is within three words of `span`. */
function nearKeyword(folded: string, span: Span, keywords: readonly string[] | undefined): boolean {
  if (!keywords?.length) return false;
  const before = folded.slice(0, span.start).split(/\s+/).filter(Boolean).slice(-3).join(' ');
  const after = folded.slice(span.end).split(/\s+/).filter(Boolean).slice(0, 3).join(' ');
  return keywords.some((keyword) => {
    const word = fold(keyword);
    return ` ${before} `.includes(word) || ` ${after} `.includes(word);
  });
}

/** The free text of a message once the values read from it are taken out, or `null` when nothing is left. */
function remainder(text: string, taken: readonly Span[]): string | null {
  const rest = blank(text, taken)
    .replace(/\s+/g, ' ')
    .replace(/^[\s,.;:!?-]+|[\s,;:-]+$/g, '')
    .trim();
  return /\p{L}(?:.*\p{L}){2}/u.test(rest) ? rest : null;
}

/** Bounds and the custom validator; `null` when the value is fine. */
export function validate(
  slot: SlotDefinition,
  value: unknown,
  context: Context | null,
): { error: SlotErrorCode; message?: string } | null {
  if (slot.type === 'integer' && (typeof value !== 'number' || !Number.isInteger(value)))
    return { error: 'not-integer' };
  if (slot.min !== undefined && compare(value, slot.min) < 0) return { error: 'out-of-range' };
  if (slot.max !== undefined && compare(value, slot.max) > 0) return { error: 'out-of-range' };
  if (slot.validate) {
    const verdict = slot.validate(value, context);
    if (verdict !== true)
      return { error: 'invalid', message: typeof verdict === 'string' ? verdict : verdict.error };
  }
  return null;
}

function compare(value: unknown, bound: number | string): number {
  if (typeof value === 'number' && typeof bound === 'number') return value - bound;
  return String(value).localeCompare(String(bound));
}
