import { describe, expect, it } from 'vitest';
import { isValidCodiceFiscale, isValidIban, passesLuhn } from './detectors.js';
import { Redactor } from './redactor.js';

const redactor = new Redactor();
const stored = (text: string) => redactor.redact(text).text;

describe('Redactor: each detector', () => {
  it('e-mail addresses', () => {
    expect(stored('scrivimi a mario.rossi+ordini@example.co.uk grazie')).toBe('scrivimi a [email] grazie');
    expect(stored('a@b.it')).toBe('[email]');
  });

  it('phone numbers: international and Italian formats', () => {
    for (const phone of [
      '+39 333 123 4567',
      '+393331234567',
      '0039 06 1234 5678',
      '333 1234567',
      '333-123-4567',
      '02 1234 5678',
      '06.12345678',
      '+44 20 7946 0958',
      '+1 (415) 555-2671',
    ]) {
      expect(stored(`chiamami al ${phone}, grazie`), phone).toBe('chiamami al [phone], grazie');
    }
  });

  it('IBAN, with or without spaces, checked modulo 97', () => {
    expect(stored('IBAN IT60X0542811101000000123456.')).toBe('IBAN [iban].');
    expect(stored('iban: IT60 X054 2811 1010 0000 0123 456')).toBe('iban: [iban]');
    expect(stored('DE89370400440532013000')).toBe('[iban]');
    expect(isValidIban('IT60X0542811101000000123457')).toBe(false);
  });

  it('payment card numbers, Luhn-checked', () => {
    expect(stored('carta 4111 1111 1111 1111 scad 12/28')).toBe('carta [payment-card] scad 12/28');
    expect(stored('5555-5555-5555-4444')).toBe('[payment-card]');
    expect(stored('371449635398431')).toBe('[payment-card]');
    expect(passesLuhn('4111111111111112')).toBe(false);
  });

  it('codice fiscale, with its check character and omocodia', () => {
    expect(isValidCodiceFiscale('RSSMRA85T10A562S')).toBe(true);
    expect(stored('il mio CF è RSSMRA85T10A562S')).toBe('il mio CF è [codice-fiscale]');
    expect(stored('cf rssmra85t10a562s')).toBe('cf [codice-fiscale]');
    // Omocodia: the digits replaced by letters (check character recomputed).
    expect(isValidCodiceFiscale('RSSMRA85T10A56NH')).toBe(true);
    expect(stored('RSSMRA85T10A56NH')).toBe('[codice-fiscale]');
  });

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
