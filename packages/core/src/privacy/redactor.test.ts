import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';

const redactor = new Redactor();
const stored = (text: string) => redactor.redact(text).text;

// Each detector's formats, sentences and properties: in its own test file (iban-detector.test.ts, …).
describe('Redactor: custom patterns', () => {
  it('custom patterns, with their own placeholder', () => {
    const custom = new Redactor({ patterns: [{ name: 'customer', pattern: /CUST-\d{6}/ }] });
    expect(custom.redact('cliente CUST-123456 e CUST-654321').text).toBe('cliente [customer] e [customer]');
    expect(custom.redact('cliente CUST-123456').found).toEqual(['customer']);
  });
});

describe('Redactor: false positives that must not be redacted', () => {
  const untouched = [
    'ordine 12345 del 2026-12-01',
    'il 01/12/2026 alle 10:30',
    'costa € 1.234,56 o 1234.56 EUR',
    'versione 1.2.3, build 20261201',
    'modello ABCDEF12G34H567I', // looks like a codice fiscale, wrong check character
    'IT60X0542811101000000123457', // IBAN with a wrong check
    'carta 4111 1111 1111 1112', // fails Luhn
    'tracking 1Z999AA10123456784',
    'codice 12345678', // 8 digits, starts with 1: no phone
    'scrivi a mario at example dot com',
    'il civico 30 di via Roma, CAP 20121',
    'anno 2025, 300 biciclette',
  ];
  for (const text of untouched) {
    it(JSON.stringify(text), () => expect(redactor.redact(text)).toEqual({ text, found: [] }));
  }
});

describe('Redactor: overlapping detectors', () => {
  it('run in DETECTOR_NAMES order: the earlier wins, the later sees its placeholder', () => {
    // The last groups of a spaced IBAN read as an Italian landline; the IBAN runs first.
    const spaced = 'IT60 X054 2811 1010 0000 0123 456 e grazie';
    expect(redactor.redact(spaced)).toEqual({ text: '[iban] e grazie', found: ['iban'] });
    // A number both a card (Luhn) and an international phone number: the card runs first.
    expect(stored('0039 3331 2340 04')).toBe('[payment-card]');
    expect(new Redactor({ detectors: ['phone'] }).redact('0039 3331 2340 04').text).toBe('[phone]');
  });

  it('whatever order redaction.detectors lists them in', () => {
    const reversed = new Redactor({ detectors: ['phone', 'iban'] });
    expect(reversed.redact('IT60 X054 2811 1010 0000 0123 456 e grazie').text).toBe('[iban] e grazie');
  });

  it('custom patterns run last, on the built-in placeholders; a rejected match does not hide a later one', () => {
    const custom = new Redactor({
      patterns: [{ name: 'ticket', pattern: /[A-Z]{3}-[A-Z]{3}/, check: (match) => !match.startsWith('X') }],
    });
    // XAB-CDE is rejected; CDE-FGH, which starts inside it, is found.
    expect(custom.redact('codici XAB-CDE-FGH e 333 1234567').text).toBe('codici XAB-[ticket] e [phone]');
  });
});

describe('Redactor: options', () => {
  it('only the chosen detectors run', () => {
    const emailOnly = new Redactor({ detectors: ['email'] });
    expect(emailOnly.redact('a@b.it 333 1234567').text).toBe('[email] 333 1234567');
  });

  it("liveTurn keeps a detector's values for the live turn only", () => {
    const keepEmail = new Redactor({ liveTurn: ['email'] });
    const text = 'mail a@b.it tel 333 1234567';
    expect(keepEmail.redactLive(text).text).toBe('mail a@b.it tel [phone]');
    expect(keepEmail.redact(text).text).toBe('mail [email] tel [phone]');
  });

  it('rejects unknown detectors, bad names and empty-matching patterns, saying how to fix them', () => {
    expect(() => new Redactor({ detectors: ['passport' as never] })).toThrow(/unknown detector "passport"/);
    expect(() => new Redactor({ liveTurn: ['nope'] })).toThrow(/"nope" is not a detector in use/);
    expect(() => new Redactor({ patterns: [{ name: 'a b', pattern: 'x' }] })).toThrow(/not valid/);
    expect(() => new Redactor({ patterns: [{ name: 'x', pattern: 'a*' }] })).toThrow(/empty string/);
    expect(() => new Redactor({ patterns: [{ name: 'x', pattern: '(' }] })).toThrow(
      /not a valid regular expression/,
    );
  });
});
