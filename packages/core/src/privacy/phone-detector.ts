import type { TextSpan } from './text-span.js';
import { findWordRuns, type WordRunRule } from './word-runs.js';

/**
 * An Italian national number (without the country code): mobile `3…` of 9–10 digits, landline `0…`
 * of `shortestLandline`–11 digits.
 */
function isItalianNumber(digits: string, shortestLandline: number): boolean {
  if (/^3[1-9]/.test(digits)) return digits.length >= 9 && digits.length <= 10;
  return /^0[1-9]/.test(digits) && digits.length >= shortestLandline && digits.length <= 11;
}

/**
 * A number after `+` or `00`: Italian (`39`) by the Italian rules, North American (`1`) with 10
 * digits after the country code, any other 8–15 digits with the country code (E.164).
 */
function isInternationalNumber(digits: string): boolean {
  if (digits.startsWith('39')) return isItalianNumber(digits.slice(2), 6);
  if (digits.startsWith('1')) return digits.length === 11;
  return digits.length >= 8 && digits.length <= 15;
}

/**
 * A Spanish national number: 9 digits, mobile `6…`/`7…`, landline `8…`/`9…`, unspaced (mobiles only)
 * or in groups of 2–3 digits separated by a space or a dash (`612 345 678`, `612 34 56 78`,
 * `91 123 45 67`). Not with dots, and no group after the first is all zeros: `650.000.000` and
 * `650 000 000` are amounts.
 */
function isSpanishNumber(words: readonly string[], separators: readonly string[]): boolean {
  if (words.join('').length !== 9) return false;
  if (words.length === 1) return /^[67]/.test(words[0]!);
  return (
    separators.every((separator) => /^[ \u00a0-]$/.test(separator)) &&
    words.every((word, i) => (word.length === 2 || word.length === 3) && (i === 0 || !/^0+$/.test(word)))
  );
}

/** A word in parentheses alone, `(0)`: the trunk prefix written in some international numbers. */
function isTrunkPrefix(words: readonly string[], separators: readonly string[], i: number): boolean {
  return (
    i > 0 && words[i] === '0' && separators[i - 1]!.includes('(') && (separators[i]?.includes(')') ?? false)
  );
}

/** Whether the parentheses pair up; a `(` just before the first word may open one. */
function parenthesesPair(separators: readonly string[], before: string): boolean {
  let open = before === '(';
  for (const separator of separators) {
    if (separator.includes('(')) {
      if (open) return false;
      open = true;
    }
    if (separator.includes(')')) {
      if (!open) return false;
      open = false;
    }
  }
  return !open || before === '(';
}

/**
 * A phone number: international (`+` or `00`, then the country code), Italian national (mobile
 * `3…`, landline `0…`, 9–11 digits) or Spanish national (`6…`–`9…`, 9 digits), its groups separated
 * by a space, `.` or `-`, an area code in parentheses allowed. Every group after the first has two
 * digits or more (but for the one right after a country code), so a number written after a phone
 * number (`2 volte`) is not read as part of it; a longer one is only when the whole still has a phone
 * number's length.
 */
export const PHONE_RULE: WordRunRule = {
  word: /^\d+$/,
  separator: /^(?:[ \u00a0.-]|[ \u00a0]?\(|\)[ \u00a0.-]?)$/,
  maxLength: 17,
  minLength: 8,
  hint: /\d{2}/,
  startsValue: (word, before) =>
    before === '+' ||
    /^00[1-9]/.test(word) ||
    /^3[1-9]\d/.test(word) ||
    /^0[1-9]/.test(word) ||
    /^[6-9]\d/.test(word),
  accept(words, separators, before) {
    if (!parenthesesPair(separators, before)) return false;
    const international = before === '+' || words[0]!.startsWith('00');
    let digits = '';
    let groups = 0;
    for (let i = 0; i < words.length; i++) {
      if (isTrunkPrefix(words, separators, i)) continue;
      // The group right after the country code may be one digit: the area or mobile prefix of
      // `+33 6 12 34 56 78`, `+43 1 5138888`, `+33 (0)6 …`.
      if (i > 0 && words[i]!.length < 2 && !(international && groups === 1)) return false;
      digits += words[i];
      groups++;
    }
    if (before === '+') return isInternationalNumber(digits);
    if (digits.startsWith('00')) return isInternationalNumber(digits.slice(2));
    if (/^[6-9]/.test(digits)) return isSpanishNumber(words, separators);
    return isItalianNumber(digits, 9);
  },
  prefixLength: (before, separators) =>
    before === '+' || (before === '(' && separators.some((separator) => separator.includes(')'))) ? 1 : 0,
};

/** The phone numbers in `text`. */
export function findPhoneNumbers(text: string): TextSpan[] {
  return findWordRuns(text, PHONE_RULE);
}
