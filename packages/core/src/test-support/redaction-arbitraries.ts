import fc from 'fast-check';
import { expect } from 'vitest';
import { codiceFiscaleCheck, ibanRemainder, passesLuhn } from '../privacy/checksums.js';
import { IBAN_LENGTHS } from '../privacy/iban-detector.js';
import { Redactor } from '../privacy/redactor.js';

/**
 * fast-check arbitraries for the redaction tests (private to this repository's tests): valid values of
 * each detector in the ways people write them, and the Italian and English sentences around them.
 */

const WORDS = [
  'ciao',
  'grazie',
  'per',
  'il',
  'rimborso',
  'e',
  'basta',
  'sono',
  'mio',
  'codice',
  'scrivi',
  'a',
  'chiamami',
  'al',
  'numero',
  'carta',
  'scade',
  'volte',
  'ordine',
  'di',
  'su',
  'conto',
  'la',
  'è',
  'perché',
  'hello',
  'thanks',
  'my',
  'is',
  'to',
  'the',
  'refund',
  'card',
  'call',
  'me',
  'on',
  'at',
  'and',
  'please',
  'number',
  'account',
  'expires',
  'twice',
  'in',
  'ok',
  'IBAN',
  'CF',
  'tel',
];

/**
 * Numbers that stand beside a value in the tests: 1–2 digits, or 6 starting with 1 or 2 (so two of
 * them side by side never read as a phone number).
 */
const NEIGHBOUR_NUMBER = fc.oneof(
  fc.integer({ min: 1, max: 99 }),
  fc.integer({ min: 100_000, max: 299_999 }),
);

/**
 * Words, numbers, a date, a price, an expiry: what a sentence holds besides personal data. No
 * four-digit number: one written just before a card in fours can read as a card with its first
 * groups (the tests of each detector show it).
 */
const TOKEN = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...WORDS) },
  { weight: 2, arbitrary: NEIGHBOUR_NUMBER.map(String) },
  { weight: 1, arbitrary: fc.constantFrom('12/28', '01/12/26', '€ 12,50', '10:30', 'v1.2.3') },
);

/** Words of a sentence, separated by single spaces. */
export const wordsArbitrary = fc
  .array(TOKEN, { minLength: 1, maxLength: 5 })
  .map((tokens) => tokens.join(' '));

/** What may stand between the words before a value and the value. */
const BEFORE = fc.constantFrom(' ', ': ', ' (', ', ', '\n', ' "', ' «', ' - ', ' — ');
/** What may stand between a value and the words after it. */
const AFTER = fc.constantFrom(' ', ', ', '. ', ') ', '; ', '! ', '\n', '" ', '» ', '? ', ' - ', '/');

/** The text around a value: words and a separator before it, a separator and words after it. */
export const contextArbitrary = fc.record({
  before: fc.tuple(wordsArbitrary, BEFORE).map(([words, separator]) => words + separator),
  after: fc.tuple(AFTER, wordsArbitrary).map(([separator, words]) => separator + words),
});

/** The text around a value, with only words (no numbers) right beside it. */
export const wordContextArbitrary = fc.record({
  before: fc.tuple(wordsArbitrary, fc.constantFrom(...WORDS)).map(([words, word]) => `${words} ${word} `),
  after: fc.tuple(fc.constantFrom(...WORDS), wordsArbitrary).map(([word, words]) => ` ${word} ${words}`),
});

const digitsArbitrary = (length: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: length, maxLength: length }).map((d) => d.join(''));

/** `text` cut into groups of the given sizes (the last takes the rest), joined by `separator`. */
export function grouped(text: string, sizes: readonly number[], separator = ' '): string {
  const groups: string[] = [];
  let at = 0;
  for (const size of sizes) {
    if (at >= text.length) break;
    groups.push(text.slice(at, at + size));
    at += size;
  }
  if (at < text.length) groups.push(text.slice(at));
  return groups.join(separator);
}

/** A valid IBAN of a listed country (random account, computed check digits), unspaced. */
export const ibanArbitrary = fc.constantFrom(...IBAN_LENGTHS.entries()).chain(([country, length]) =>
  fc
    .array(fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), {
      minLength: length - 4,
      maxLength: length - 4,
    })
    .map((account) => {
      const bban = account.join('');
      const check = 98 - ibanRemainder(`${bban}${country}00`);
      return `${country}${String(check).padStart(2, '0')}${bban}`;
    }),
);

/** How an IBAN is written: unspaced, in fours, lower case, or in any groups (the country code whole). */
export const writtenIbanArbitrary = fc
  .tuple(
    ibanArbitrary,
    fc.constantFrom('unspaced', 'fours', 'lower', 'groups', 'dashes'),
    fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 12 }),
  )
  .map(([iban, form, sizes]) => {
    if (form === 'unspaced') return iban;
    if (form === 'fours') return grouped(iban, Array(9).fill(4));
    if (form === 'lower') return grouped(iban.toLowerCase(), Array(9).fill(4));
    if (form === 'dashes') return grouped(iban, Array(9).fill(4), '-');
    return grouped(iban, [2 + (sizes[0]! % 3), ...sizes.slice(1)]);
  })
  // Groups other than fours: each after the first holds a digit or is a single letter.
  .filter((written) => {
    const groups = written.split(/[ -]/);
    const fours = groups.every((group, i) =>
      i === groups.length - 1 ? group.length <= 4 : group.length === 4,
    );
    return fours || groups.slice(1).every((group) => /\d/.test(group) || group.length === 1);
  });

/** The digits of a card of a real brand's prefix and length, with its Luhn check digit. */
const CARD_BRANDS: readonly [prefix: string, length: number, layouts: readonly (readonly number[])[]][] = [
  ['4', 16, [[16], [4, 4, 4, 4]]],
  ['4', 19, [[19], [4, 4, 4, 4, 3]]],
  ['4', 13, [[13], [4, 4, 4, 1]]],
  ['51', 16, [[16], [4, 4, 4, 4]]],
  ['55', 16, [[16], [4, 4, 4, 4]]],
  ['2221', 16, [[16], [4, 4, 4, 4]]],
  ['6011', 16, [[16], [4, 4, 4, 4]]],
  ['34', 15, [[15], [4, 6, 5], [4, 4, 4, 3]]],
  ['37', 15, [[15], [4, 6, 5], [4, 4, 4, 3]]],
  ['36', 14, [[14], [4, 6, 4], [4, 4, 4, 2]]],
];

/** A valid card number as it is written: unspaced or in its brand's printed groups, spaces or dashes. */
export const writtenCardArbitrary = fc
  .tuple(fc.constantFrom(...CARD_BRANDS), fc.nat(), fc.constantFrom(' ', '-'))
  .chain(([[prefix, length, layouts], pick, separator]) =>
    digitsArbitrary(length - prefix.length - 1).map((body) => {
      const partial = prefix + body;
      const check = [...'0123456789'].find((digit) => passesLuhn(partial + digit))!;
      return grouped(partial + check, layouts[pick % layouts.length]!, separator);
    }),
  );

const letters = (length: number) =>
  fc
    .array(fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), { minLength: length, maxLength: length })
    .map((l) => l.join(''));
const OMOCODIA = 'LMNPQRSTUV';
const CF_DIGIT_POSITIONS = [6, 7, 9, 10, 12, 13, 14];

/** A valid codice fiscale (omocodia variants included), with its check character. */
export const codiceFiscaleArbitrary = fc
  .tuple(
    letters(6),
    digitsArbitrary(2),
    fc.constantFrom(...'ABCDEHLMPRST'),
    fc.integer({ min: 1, max: 71 }),
    letters(1),
    digitsArbitrary(3),
    fc.integer({ min: 0, max: 3 }),
  )
  .map(([name, year, month, day, place, town, substitutions]) => {
    const chars = [...`${name}${year}${month}${String(day).padStart(2, '0')}${place}${town}`];
    // Omocodia replaces digits by letters from the right.
    for (const position of CF_DIGIT_POSITIONS.slice(7 - substitutions)) {
      chars[position] = OMOCODIA[Number(chars[position])]!;
    }
    const first15 = chars.join('');
    return first15 + codiceFiscaleCheck(first15);
  });

/** How a codice fiscale is written: unspaced, lower case, or in its parts (`RSS MRA 85T10 A562S`). */
export const writtenCodiceFiscaleArbitrary = fc
  .tuple(codiceFiscaleArbitrary, fc.constantFrom('unspaced', 'lower', 'parts', 'halves', 'fives'))
  .filter(([code, form]) => form === 'unspaced' || form === 'lower' || /\d/.test(code))
  .map(([code, form]) => {
    if (form === 'unspaced') return code;
    if (form === 'lower') return code.toLowerCase();
    if (form === 'parts') return grouped(code, [3, 3, 5, 5]);
    if (form === 'halves') return grouped(code, [6, 5, 5]);
    return grouped(code, [6, 2, 3, 5]);
  });

/** An Italian number of 10 digits (mobile `3…` or landline `0…`) as it is written, with or without `+39`. */
export const writtenItalianPhoneArbitrary = fc
  .tuple(
    fc.constantFrom('3', '0'),
    fc.integer({ min: 1, max: 9 }),
    digitsArbitrary(8),
    fc.integer({ min: 0, max: 2 }),
    fc.constantFrom('', '+39 ', '+39', '0039 '),
    fc.constantFrom(' ', '-', '.'),
    fc.boolean(),
  )
  .map(([kind, second, rest, areaExtra, prefix, separator, split]) => {
    const number = `${kind}${second}${rest}`;
    const head = kind === '3' ? 3 : 2 + areaExtra;
    const sizes = split ? [head, Math.ceil((10 - head) / 2)] : [head];
    return prefix + grouped(number, sizes, separator);
  });

/** A North American (`+1`) or British (`+44`) number as it is written. */
export const writtenForeignPhoneArbitrary = fc
  .tuple(fc.integer({ min: 2, max: 9 }), digitsArbitrary(9), fc.nat())
  .map(([first, rest, pick]) => {
    const us = `${first}${rest}`;
    const forms = [
      `+1 (${us.slice(0, 3)}) ${us.slice(3, 6)}-${us.slice(6)}`,
      `+1 ${grouped(us, [3, 3])}`,
      `+1${us}`,
      `+44 ${grouped(us, [2, 4])}`,
      `+44 (0)${grouped(us, [2, 4])}`,
      `0044 ${grouped(us, [4, 3])}`,
    ];
    return forms[pick % forms.length]!;
  });

const localPart = fc
  .tuple(letters(1), fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), { maxLength: 8 }))
  .map(([first, rest]) => first.toLowerCase() + rest.join(''));
const domain = fc
  .tuple(
    fc.array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), { minLength: 2, maxLength: 10 }),
    fc.constantFrom('it', 'com', 'co.uk', 'org', 'eu'),
  )
  .map(([label, tld]) => `${label.join('')}.${tld}`);

/** An e-mail address as it is written: with `@`, or spelled out (`[at]`, `(at)`, ` at ` after a dotted name). */
export const writtenEmailArbitrary = fc
  .tuple(
    localPart,
    localPart,
    domain,
    fc.constantFrom('@', '[at]', ' (at) ', ' [at] ', ' at ', ' @ '),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([first, last, host, at, dotted, spellDot]) => {
    // After a plain word, " at " is English: only a dotted name is an address.
    const name = dotted || at === ' at ' ? `${first}.${last}` : first;
    const dot = at.includes('(') ? ' (dot) ' : ' dot ';
    return `${name}${at}${spellDot && at !== '@' ? host.replace(/\./g, dot) : host}`;
  });

const digitCount = (text: string) => text.replace(/\D/g, '').length;

/**
 * A number that fails its check: an IBAN, a card or a codice fiscale with one character changed (a
 * 19-digit card is left out: its first 16 digits may pass Luhn, and then they are a card).
 */
export const nearMissArbitrary = fc.oneof(
  ibanArbitrary.map((iban) => `${iban.slice(0, 2)}${(Number(iban[2]) + 1) % 10}${iban.slice(3)}`),
  // Visa and Mastercard, without a group a phone number could start with (`0…`, `3…`).
  writtenCardArbitrary
    .filter((card) => /^[45]/.test(card) && !/[ -][03]/.test(card) && digitCount(card) <= 16)
    .map((card) => card.slice(0, -1) + String((Number(card.at(-1)) + 1) % 10)),
  codiceFiscaleArbitrary.map(
    (code) => code.slice(0, 15) + String.fromCharCode(65 + ((code.charCodeAt(15) - 65 + 1) % 26)),
  ),
);

const redactor = new Redactor();

/** Property: each value, between the words of each context, is replaced by `[placeholder]` and nothing else changes. */
export function expectRedactedInSentences(
  values: fc.Arbitrary<string>,
  contexts: fc.Arbitrary<{ before: string; after: string }>,
  placeholder: string,
  numRuns = 300,
): void {
  fc.assert(
    fc.property(values, contexts, (value, { before, after }) => {
      expect(redactor.redact(before + value + after).text).toBe(`${before}[${placeholder}]${after}`);
    }),
    { numRuns },
  );
}

/** Property: each text is left unchanged, and no detector reports a finding. */
export function expectUnchanged(texts: fc.Arbitrary<string>): void {
  fc.assert(
    fc.property(texts, (text) => {
      expect(redactor.redact(text)).toEqual({ text, found: [] });
    }),
  );
}
