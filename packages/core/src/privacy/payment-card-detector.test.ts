import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contextArbitrary,
  expectRedactedInSentences,
  expectUnchanged,
  nearMissArbitrary,
  wordsArbitrary,
  writtenCardArbitrary,
} from '../test-support/redaction-arbitraries.js';
import { passesLuhn } from './checksums.js';
import { Redactor } from './redactor.js';

const redactor = new Redactor();
const stored = (text: string) => redactor.redact(text).text;

describe('payment card detector', () => {
  it("the review's example: a card followed by its expiry or CVV is redacted and they are kept", () => {
    expect(stored('4111 1111 1111 1111 12/28')).toBe('[payment-card] 12/28');
    expect(stored('carta 4111 1111 1111 1111 scad 12/28')).toBe('carta [payment-card] scad 12/28');
    expect(stored('card 4111111111111111 cvv 123')).toBe('card [payment-card] cvv 123');
    expect(stored('4111 1111 1111 1111 12 28')).toBe('[payment-card] 12 28');
    expect(stored('5555-5555-5555-4444 1234')).toBe('[payment-card] 1234');
  });

  it('in Italian and English sentences: punctuation, neighbouring numbers, the printed layouts', () => {
    expect(stored('Ho pagato con 5555 5555 5555 4444, grazie.')).toBe(
      'Ho pagato con [payment-card], grazie.',
    );
    expect(stored('I paid with (371449635398431) twice')).toBe('I paid with ([payment-card]) twice');
    expect(stored('Amex 3714 496353 98431 exp 12/28')).toBe('Amex [payment-card] exp 12/28');
    expect(stored('Amex 3714 4963 5398 431 ok')).toBe('Amex [payment-card] ok');
    expect(stored('Diners 3056 930902 5904 ok')).toBe('Diners [payment-card] ok');
    expect(stored('ordine 12 4111 1111 1111 1111 del 3/12')).toBe('ordine 12 [payment-card] del 3/12');
    expect(stored('n.4111111111111111;')).toBe('n.[payment-card];');
    // 19 digits printed 4-4-4-4-3.
    const nineteen = '4111 1111 1111 1111 003';
    expect(passesLuhn(nineteen.replace(/ /g, ''))).toBe(true);
    expect(stored(`carta ${nineteen} ok`)).toBe('carta [payment-card] ok');
  });

  it('a three-digit group after a spaced 16-digit card is read with it only when the 19 digits pass Luhn', () => {
    // 4111…1111 + 123: the 19 digits fail Luhn, so the CVV stays.
    expect(passesLuhn('4111111111111111123')).toBe(false);
    expect(stored('4111 1111 1111 1111 123')).toBe('[payment-card] 123');
    // 4111…1111 + 003 pass as 19 digits: one card of 19, nothing of it in clear.
    expect(passesLuhn('4111111111111111003')).toBe(true);
    expect(stored('4111 1111 1111 1111 003')).toBe('[payment-card]');
    // Readings go from left to right: a four-digit number written just before a card, with only a
    // space, that passes Luhn with the card's first 12 digits is read as the card, and the card's last
    // group stays (docs/privacy.md).
    expect(passesLuhn('1004411111111111')).toBe(true);
    expect(stored('1004 4111 1111 1111 1111')).toBe('[payment-card] 1111');
    expect(stored('il 01/12/2026 4220 4392 1123 6 ok')).toBe('il 01/12/[payment-card] 6 ok');
    // A card's last groups never start another reading: 1111 1111 1111 10 passes Luhn, yet 10 stays.
    expect(passesLuhn('11111111111110')).toBe(true);
    expect(stored('4111 1111 1111 1111 10')).toBe('[payment-card] 10');
  });

  it('numbers that are not cards are left alone', () => {
    for (const text of [
      '4111 1111 1111 1112', // fails Luhn
      '41111111111111111111', // 20 digits: no card
      '4111 1111 1111 1111 1111', // four-digit groups past 19 digits: no layout of a card
      'x4111111111111111',
      '4111 11111 111 11111', // not a printed layout
      'codice 1234 5678 9012 3456', // Luhn fails
    ]) {
      if (text === '4111 1111 1111 1111 1111') {
        // The first sixteen digits are a card; the last group stays.
        expect(stored(text)).toBe('[payment-card] 1111');
        continue;
      }
      expect(redactor.redact(text), text).toEqual({ text, found: [] });
    }
  });

  it('property: a valid card number, however printed, between any words and separators is fully redacted and the words kept', () => {
    expectRedactedInSentences(writtenCardArbitrary, contextArbitrary, 'payment-card');
  });

  it('property: text with no card is unchanged, numbers failing Luhn included', () => {
    expectUnchanged(
      fc
        .tuple(wordsArbitrary, nearMissArbitrary, wordsArbitrary)
        .map(([before, nearMiss, after]) => `${before}, ${nearMiss}. ${after}`),
    );
  });
});
