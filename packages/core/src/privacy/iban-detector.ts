import { isValidIban } from './checksums.js';
import type { TextSpan } from './text-span.js';
import { findWordRuns, type WordRunRule } from './word-runs.js';

const IBAN_LENGTH_LIST = [
  'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27',
  'DK18 DO28 EE20 EG29 ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28 HR21 HU28',
  'IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22',
  'MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 PT25 QA29 RO24 RS22 RU33 SA24',
  'SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 YE30',
].join(' ');

/**
 * The length of an IBAN in each country of the ISO 13616 registry. A value of a listed country is
 * read at exactly its length, so the words after it are never taken in.
 */
export const IBAN_LENGTHS: ReadonlyMap<string, number> = new Map(
  IBAN_LENGTH_LIST.split(' ').map((entry) => [entry.slice(0, 2), Number(entry.slice(2))]),
);

/** A group of a spaced IBAN not printed in fours: it holds a digit, or is one letter (Italy's CIN). */
const isAccountGroup = (word: string) => /\d/.test(word) || word.length === 1;

/** Whether the words are one, or grouped as ISO 13616 prints an IBAN: fours, the last group 1–4. */
function inPrintFormat(words: readonly string[]): boolean {
  if (words.length === 1) return true;
  return words.every((word, i) => (i === words.length - 1 ? word.length <= 4 : word.length === 4));
}

/**
 * An IBAN: two letters, two check digits and the account, unspaced or in groups separated by single
 * spaces or dashes (`IT60 X054 …`, `IT 60 X 05428 …`), passing the modulo 97 check. A listed country's
 * IBAN has exactly its length; another country's is accepted unspaced or in groups of four. Grouped
 * otherwise, each group after the first holds a digit or is a single letter, so a word that happens to
 * be a country code (`at`, `it`, `se`) never starts an IBAN out of the words after it.
 */
export const IBAN_RULE: WordRunRule = {
  word: /^[A-Za-z0-9]+$/,
  separator: /^[ \u00a0-]$/,
  maxLength: 34,
  minLength: 15,
  hint: /[A-Za-z]{2}[ \u00a0-]?\d[ \u00a0-]?\d/,
  startsValue: (word) => /^[A-Za-z]{2}(?:\d|$)/.test(word),
  accept(words) {
    const iban = words.join('').toUpperCase();
    const length = IBAN_LENGTHS.get(iban.slice(0, 2));
    if (length === undefined ? !inPrintFormat(words) : iban.length !== length) return false;
    if (!inPrintFormat(words) && !words.slice(1).every(isAccountGroup)) return false;
    return isValidIban(iban);
  },
};

/** The IBANs in `text`. */
export function findIbans(text: string): TextSpan[] {
  return findWordRuns(text, IBAN_RULE);
}
