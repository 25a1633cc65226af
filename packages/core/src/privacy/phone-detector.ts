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
 * A phone number: international (`+` or `00`, then the country code) or Italian national (mobile
 * `3…`, landline `0…`, 9–11 digits), its groups separated by a space, `.` or `-`, an area code in
 * parentheses allowed. Every group after the first has two digits or more, so a number written after
 * a phone number (`2 volte`) is not read as part of it; a longer one is only when the whole still has
 * a phone number's length.
 */
export const PHONE_RULE: WordRunRule = {
  word: /^\d+$/,
  separator: /^(?:[ \u00a0.-]|[ \u00a0]?\(|\)[ \u00a0.-]?)$/,
  maxLength: 17,
  minLength: 8,
  hint: /\d{2}/,
  startsValue: (word, before) =>
    before === '+' || /^00[1-9]/.test(word) || /^3[1-9]\d/.test(word) || /^0[1-9]/.test(word),
  accept(words, separators, before) {
    if (!parenthesesPair(separators, before)) return false;
    let digits = '';
    for (let i = 0; i < words.length; i++) {
      if (isTrunkPrefix(words, separators, i)) continue;
      if (i > 0 && words[i]!.length < 2) return false;
      digits += words[i];
    }
    if (before === '+') return isInternationalNumber(digits);
    if (digits.startsWith('00')) return isInternationalNumber(digits.slice(2));
    return isItalianNumber(digits, 9);
  },
  prefixLength: (before, separators) =>
    before === '+' || (before === '(' && separators.some((separator) => separator.includes(')'))) ? 1 : 0,
};

/** The phone numbers in `text`. */
export function findPhoneNumbers(text: string): TextSpan[] {
  return findWordRuns(text, PHONE_RULE);
}
