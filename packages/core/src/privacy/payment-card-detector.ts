import { passesLuhn } from './checksums.js';
import type { TextSpan } from './text-span.js';
import { findWordRuns, type WordRunRule } from './word-runs.js';

/**
 * The ways a card number is printed: one group of 13–19 digits; groups of four with a last group of
 * 1–4 up to 16 digits (`4111 1111 1111 1111`, Amex `3714 4963 5398 431`); 19 digits as 4-4-4-4-3;
 * Amex 4-6-5 and Diners 4-6-4. A number written after a card (an expiry, a CVV) is not read as part
 * of it unless the whole is one of these layouts and passes Luhn.
 */
function isCardLayout(lengths: readonly number[]): boolean {
  const total = lengths.reduce((sum, length) => sum + length, 0);
  if (total < 13 || total > 19) return false;
  if (lengths.length === 1) return true;
  const shape = lengths.join('-');
  if (shape === '4-6-5' || shape === '4-6-4' || shape === '4-4-4-4-3') return true;
  const last = lengths[lengths.length - 1]!;
  return total <= 16 && last <= 4 && lengths.slice(0, -1).every((length) => length === 4);
}

/** A payment card number: 13–19 digits in a printed layout, spaces or dashes between groups, Luhn-checked. */
export const PAYMENT_CARD_RULE: WordRunRule = {
  word: /^\d+$/,
  separator: /^[ \u00a0-]$/,
  maxLength: 19,
  minLength: 13,
  hint: /\d{4}/,
  startsValue: () => true,
  accept(words) {
    return isCardLayout(words.map((word) => word.length)) && passesLuhn(words.join(''));
  },
};

/** The payment card numbers in `text`. */
export function findPaymentCards(text: string): TextSpan[] {
  return findWordRuns(text, PAYMENT_CARD_RULE);
}
