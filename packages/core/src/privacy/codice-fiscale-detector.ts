import { isValidCodiceFiscale } from './checksums.js';
import type { TextSpan } from './text-span.js';
import { findWordRuns, type WordRunRule } from './word-runs.js';

const CF_DIGIT = '[0-9LMNPQRSTUV]';
const CODICE_FISCALE = new RegExp(
  `^[A-Z]{6}${CF_DIGIT}{2}[ABCDEHLMPRST]${CF_DIGIT}{2}[A-Z]${CF_DIGIT}{3}[A-Z]$`,
);

/**
 * An Italian codice fiscale: 16 characters (omocodia variants included) with a valid check character,
 * unspaced or in groups separated by single spaces or dashes (`RSS MRA 85T10 A562S`). A spaced code
 * must hold a digit, so a run of ordinary words never reads as one.
 */
export const CODICE_FISCALE_RULE: WordRunRule = {
  word: /^[A-Za-z0-9]+$/,
  separator: /^[ \u00a0-]$/,
  maxLength: 16,
  minLength: 16,
  // Spaced or not, a code holds a digit, unless written unspaced with every digit replaced.
  hint: /\d|[A-Za-z]{6}[LMNPQRSTUVlmnpqrstuv]{2}[ABCDEHLMPRSTabcdehlmprst]/,
  anchor: /\d|^[A-Za-z]{6}[LMNPQRSTUVlmnpqrstuv]{2}[ABCDEHLMPRSTabcdehlmprst]/,
  startsValue: (word) => /^[A-Za-z]{1,6}$|^[A-Za-z]{6}[0-9LMNPQRSTUV]/i.test(word),
  accept(words) {
    const code = words.join('').toUpperCase();
    if (!CODICE_FISCALE.test(code)) return false;
    if (words.length > 1 && !/\d/.test(code)) return false;
    return isValidCodiceFiscale(code);
  },
};

/** The codici fiscali in `text`. */
export function findCodiciFiscali(text: string): TextSpan[] {
  return findWordRuns(text, CODICE_FISCALE_RULE);
}
