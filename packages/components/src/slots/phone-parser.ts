import type { ParsedValue, ParseMiss, ParseOutcome } from './parse-types.js';
import { matchAll } from './text.js';

/*
 * Phone numbers: international ("+39 333 1234567", "0039 333 1234567", "+44 20 7946 0958") and
 * national in the slot's country (Italy by default: mobiles "333 123 4567", landlines
 * "02 1234567", toll-free "800 123456"). The value is E.164: "+393331234567".
 */

const CANDIDATE = /(?<![\w+])(?:\+\s?|00)?\(?\d[\d\s().\-/]{2,}\d(?![\d])/;

/** Whether a national number (no country code) is valid in Italy. */
function validItalian(digits: string): boolean {
  return /^3\d{8,9}$/.test(digits) || /^0\d{5,10}$/.test(digits) || /^80[03]\d{3,6}$/.test(digits);
}

/** The E.164 form of the digits of a candidate, or `null` when it is no valid number. */
function normalise(raw: string, country: string): string | null {
  const international = /^\s*(\+|00)/.test(raw);
  let digits = raw.replace(/\D/g, '');
  if (international) {
    if (raw.trim().startsWith('00')) digits = digits.slice(2);
    if (digits.length < 8 || digits.length > 15) return null;
    if (digits.startsWith('39') && !validItalian(digits.slice(2))) return null;
    return `+${digits}`;
  }
  if (country === '39') return validItalian(digits) ? `+39${digits}` : null;
  const national = digits.replace(/^0/, '');
  return national.length >= 6 && national.length <= 14 ? `+${country}${national}` : null;
}

/** Options of one phone parse. */
export interface PhoneParseOptions {
  /** Country calling code of numbers written without one. Default `39`. */
  country?: string;
  /** The slot is the one asked for: any run of digits that is no valid number is a miss. */
  awaited?: boolean;
}

/** Every phone number in `text` (the original or the folded text: digits are the same). */
export function parsePhones(text: string, options: PhoneParseOptions = {}): ParseOutcome<string> {
  const country = options.country ?? '39';
  const values: ParsedValue<string>[] = [];
  const misses: ParseMiss[] = [];
  for (const m of matchAll(CANDIDATE, text)) {
    // Separators inside a number are single: "12 / 03 / 2027" is no phone.
    if (/[\s().\-/]{3,}/.test(m[0])) continue;
    const value = normalise(m[0], country);
    const digits = m[0].replace(/\D/g, '').length;
    if (value) values.push({ value, start: m.start, end: m.end, parser: 'phone' });
    else if (digits >= 4 && (options.awaited || /^\s*(\+|00)/.test(m[0])))
      misses.push({ error: 'invalid-phone', start: m.start, end: m.end });
  }
  return { values, misses };
}

/** `+39 333 1234567` from `+393331234567`: the country code apart (Italy and the NANP). */
export function formatPhone(value: string): string {
  const italian = /^\+39(\d+)$/.exec(value);
  if (italian) return `+39 ${italian[1]!.slice(0, 3)} ${italian[1]!.slice(3)}`;
  const nanp = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(value);
  if (nanp) return `+1 ${nanp[1]} ${nanp[2]} ${nanp[3]}`;
  return value;
}
