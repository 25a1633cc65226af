import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contextArbitrary,
  expectRedactedInSentences,
  expectUnchanged,
  ibanArbitrary,
  wordsArbitrary,
  writtenIbanArbitrary,
} from '../test-support/redaction-arbitraries.js';
import { isValidIban } from './checksums.js';
import { IBAN_LENGTHS } from './iban-detector.js';
import { Redactor } from './redactor.js';

const redactor = new Redactor();
const stored = (text: string) => redactor.redact(text).text;

describe('IBAN detector', () => {
  it("the review's examples: an IBAN followed by more words is redacted and the words are kept", () => {
    expect(stored('IT60X0542811101000000123456 e grazie')).toBe('[iban] e grazie');
    expect(stored('accredito su IT60X0542811101000000123456 per il rimborso')).toBe(
      'accredito su [iban] per il rimborso',
    );
    expect(stored('DE89370400440532013000 e basta')).toBe('[iban] e basta');
    expect(stored('IT60 X054 2811 1010 0000 0123 456 e grazie')).toBe('[iban] e grazie');
  });

  it('in Italian and English sentences: punctuation, neighbouring numbers, spaced and lower-case forms', () => {
    expect(stored('Il mio IBAN è IT60X0542811101000000123456, grazie!')).toBe(
      'Il mio IBAN è [iban], grazie!',
    );
    expect(stored('IBAN:IT60X0542811101000000123456.')).toBe('IBAN:[iban].');
    expect(stored('(IT60 X054 2811 1010 0000 0123 456) 2 volte')).toBe('([iban]) 2 volte');
    expect(stored('iban it60 x054 2811 1010 0000 0123 456 12/28')).toBe('iban [iban] 12/28');
    expect(stored('IT 60 X 05428 11101 000000123456 ok')).toBe('[iban] ok');
    expect(stored('IT60-X054-2811-1010-0000-0123-456 e basta')).toBe('[iban] e basta');
    expect(stored('My IBAN is GB29 NWBK 6016 1331 9268 19 thanks')).toBe('My IBAN is [iban] thanks');
    expect(stored('pay to NL91ABNA0417164300 12 euros')).toBe('pay to [iban] 12 euros');
    expect(stored('two: DE89370400440532013000 IT60X0542811101000000123456.')).toBe('two: [iban] [iban].');
    // A spaced IBAN is read whole: no phone number is read out of its last groups.
    expect(redactor.redact('IT60 X054 2811 1010 0000 0123 456').found).toEqual(['iban']);
  });

  it('a word glued to the IBAN, or a wrong check, leaves it alone', () => {
    for (const text of [
      'IT60X0542811101000000123457 e grazie', // wrong check digits
      'XIT60X0542811101000000123456',
      'IT60X0542811101000000123456X',
      'IT60 X054 2811 1010 0000 0123 45', // a character missing
    ]) {
      expect(redactor.redact(text), text).toEqual({ text, found: [] });
    }
  });

  it("a listed country's IBAN is read at its length; another country's unspaced or in fours", () => {
    expect(IBAN_LENGTHS.get('IT')).toBe(27);
    // Examples of the ISO 13616 registry.
    for (const iban of [
      'AT611904300234573201',
      'BE68539007547034',
      'CH9300762011623852957',
      'ES9121000418450200051332',
      'FR1420041010050500013M02606',
      'MT84MALT011000012345MTLCAST001S',
      'NO9386011117947',
      'PL61109010140000071219812874',
    ]) {
      expect(isValidIban(iban), iban).toBe(true);
      expect(IBAN_LENGTHS.get(iban.slice(0, 2)), iban).toBe(iban.length);
      expect(stored(`conto ${iban} e basta`), iban).toBe('conto [iban] e basta');
    }
    // ZZ is no country: its IBAN-shaped value is read unspaced or in groups of four only.
    const zz = `ZZ${String(98 - Number(BigInt('1234567890123456353500') % 97n)).padStart(2, '0')}1234567890123456`;
    expect(isValidIban(zz)).toBe(true);
    expect(stored(`x ${zz} y`)).toBe('x [iban] y');
    expect(stored(`x ${zz.replace(/(.{4})/g, '$1 ').trim()} y`)).toBe('x [iban] y');
  });

  it('property: a valid IBAN, however written, between any words and separators is fully redacted and the words kept', () => {
    expectRedactedInSentences(writtenIbanArbitrary, contextArbitrary, 'iban');
  });

  it('property: text with no IBAN is unchanged, an IBAN with a wrong check digit included', () => {
    expectUnchanged(
      fc
        .tuple(wordsArbitrary, ibanArbitrary, wordsArbitrary)
        .map(
          ([before, iban, after]) =>
            `${before} ${`${iban.slice(0, 2)}${(Number(iban[2]) + 1) % 10}${iban.slice(3)}`} ${after}`,
        ),
    );
  });
});
