import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  codiceFiscaleArbitrary,
  contextArbitrary,
  expectRedactedInSentences,
  expectUnchanged,
  wordsArbitrary,
  writtenCodiceFiscaleArbitrary,
} from '../test-support/redaction-arbitraries.js';
import { isValidCodiceFiscale } from './checksums.js';
import { Redactor } from './redactor.js';

const redactor = new Redactor();
const stored = (text: string) => redactor.redact(text).text;

describe('codice fiscale detector', () => {
  it('with its check character and omocodia, in Italian and English sentences', () => {
    expect(isValidCodiceFiscale('RSSMRA85T10A562S')).toBe(true);
    expect(stored('il mio CF è RSSMRA85T10A562S')).toBe('il mio CF è [codice-fiscale]');
    expect(stored('cf rssmra85t10a562s, grazie')).toBe('cf [codice-fiscale], grazie');
    expect(stored('my tax code is (RSSMRA85T10A562S) 12 times')).toBe(
      'my tax code is ([codice-fiscale]) 12 times',
    );
    expect(stored('CF:RSSMRA85T10A562S.')).toBe('CF:[codice-fiscale].');
    // Omocodia: the digits replaced by letters (check character recomputed).
    expect(isValidCodiceFiscale('RSSMRA85T10A56NH')).toBe(true);
    expect(stored('RSSMRA85T10A56NH e basta')).toBe('[codice-fiscale] e basta');
  });

  it('written with spaces or dashes between its parts, it is redacted whole', () => {
    expect(stored('il mio CF è RSS MRA 85T10 A562S e grazie')).toBe('il mio CF è [codice-fiscale] e grazie');
    expect(stored('CF RSSMRA 85T10 A562S 12/28')).toBe('CF [codice-fiscale] 12/28');
    expect(stored('codice RSS-MRA-85T10-A562S.')).toBe('codice [codice-fiscale].');
    expect(stored('rss mra 85t10 a562s ok')).toBe('[codice-fiscale] ok');
  });

  it('codes with a wrong check character, words that only look alike, glued words are left alone', () => {
    for (const text of [
      'modello ABCDEF12G34H567I',
      'RSSMRA85T10A562T',
      'RSS MRA 85T10 A562T e grazie',
      'XRSSMRA85T10A562S',
      'RSSMRA85T10A562SX',
    ]) {
      expect(redactor.redact(text), text).toEqual({ text, found: [] });
    }
  });

  it('property: a valid codice fiscale, however written, between any words and separators is redacted and the words kept', () => {
    expectRedactedInSentences(writtenCodiceFiscaleArbitrary, contextArbitrary, 'codice-fiscale');
  });

  it('property: text with no codice fiscale is unchanged, a wrong check character included', () => {
    expectUnchanged(
      fc
        .tuple(wordsArbitrary, codiceFiscaleArbitrary, wordsArbitrary)
        .map(
          ([before, code, after]) =>
            `${before} ${code.slice(0, 15) + String.fromCharCode(65 + ((code.charCodeAt(15) - 64) % 26))} ${after}`,
        ),
    );
  });
});
