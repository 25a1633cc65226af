import { describe, expect, it } from 'vitest';
import {
  contextArbitrary,
  expectRedactedInSentences,
  expectUnchanged,
  wordContextArbitrary,
  wordsArbitrary,
  writtenForeignPhoneArbitrary,
  writtenItalianPhoneArbitrary,
} from '../test-support/redaction-arbitraries.js';
import { Redactor } from './redactor.js';

const redactor = new Redactor();
const stored = (text: string) => redactor.redact(text).text;

describe('phone detector', () => {
  it('international and Italian formats', () => {
    for (const phone of [
      '+39 333 123 4567',
      '+393331234567',
      '0039 06 1234 5678',
      '333 1234567',
      '333-123-4567',
      '333.123.4567',
      '02 1234 5678',
      '06.12345678',
      '(02) 1234 5678',
      '+44 20 7946 0958',
      '+44 (0)20 7946 0958',
      '+1 (415) 555-2671',
    ]) {
      expect(stored(`chiamami al ${phone}, grazie`), phone).toBe('chiamami al [phone], grazie');
    }
  });

  it('international numbers with a one-digit area or mobile prefix, and Spanish national numbers', () => {
    for (const phone of [
      '+33 6 12 34 56 78',
      '+33 1 23 45 67 89',
      '+31 6 12345678',
      '+43 1 5138888',
      '+34 6 12 34 56 78',
      '+33 (0)6 12 34 56 78',
      '0033 6 12 34 56 78',
      '+34 91 123 45 67',
      '612 345 678',
      '612 34 56 78',
      '91 123 45 67',
      '976-123-456',
      '612345678',
    ]) {
      expect(stored(`llámame al ${phone}, gracias`), phone).toBe('llámame al [phone], gracias');
    }
    // Only the group right after the country code may be one digit.
    expect(stored('+33 6 12 34 56 78 2 volte')).toBe('[phone] 2 volte');
    expect(stored('chiama il 612 345 678 9 volte')).toBe('chiama il [phone] 9 volte');
  });

  it("the review's example: a phone number followed by another number is redacted and the number kept", () => {
    expect(stored('chiamami al 333 1234567 45 volte')).toBe('chiamami al [phone] 45 volte');
    expect(stored('chiamami al 333 1234567 2 volte')).toBe('chiamami al [phone] 2 volte');
    expect(stored('+39 333 123 4567 5 minuti')).toBe('[phone] 5 minuti');
    expect(stored('+39 333 1234567 12 volte')).toBe('[phone] 12 volte');
    expect(stored('02 1234 5678 12 volte')).toBe('[phone] 12 volte');
    expect(stored('call +1 415 555 2671 20 times')).toBe('call [phone] 20 times');
    expect(stored('tel. 333 1234567 ordine 123456')).toBe('tel. [phone] ordine 123456');
    expect(stored('ordine 12 333 1234567')).toBe('ordine 12 [phone]');
  });

  it('a group of two digits or more after a number that could still be longer is read with it', () => {
    // 06 1234 567 is a 9-digit landline; with 12 it is an 11-digit one. The whole is redacted.
    expect(stored('06 1234 567 12 volte')).toBe('[phone] volte');
    // A single digit is never a group of a phone number.
    expect(stored('06 1234 567 1 volta')).toBe('[phone] 1 volta');
  });

  it('numbers that are not phone numbers are left alone', () => {
    for (const text of [
      'codice 12345678',
      '3.14159265',
      '3.000.000.000 di euro',
      'il 03.12.2026 alle 10.30',
      'ordine 12345 del 2026-12-01',
      '+39 12', // too short
      'costa 1.234,56',
      '650 000 000 euros', // an amount with spaces between thousands, not a Spanish number
      'cuesta 650.000.000 euros',
      'codice 712.345.678',
      '99 12 34 56 78', // two-digit numbers side by side
      'il 9 12 2026',
      '+33 6', // too short
    ]) {
      expect(redactor.redact(text), text).toEqual({ text, found: [] });
    }
  });

  it('property: an Italian number, however written, between any words, separators and numbers is redacted and they are kept', () => {
    expectRedactedInSentences(writtenItalianPhoneArbitrary, contextArbitrary, 'phone');
  });

  it('property: a +1 or +44 number between any words is redacted and the words are kept', () => {
    expectRedactedInSentences(writtenForeignPhoneArbitrary, wordContextArbitrary, 'phone');
  });

  it('property: words, short numbers, dates and prices are unchanged', () => {
    expectUnchanged(wordsArbitrary);
  });
});
