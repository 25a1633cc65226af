import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contextArbitrary,
  expectRedactedInSentences,
  expectUnchanged,
  wordsArbitrary,
  writtenEmailArbitrary,
} from '../test-support/redaction-arbitraries.js';
import { Redactor } from './redactor.js';

const redactor = new Redactor();
const stored = (text: string) => redactor.redact(text).text;

describe('e-mail detector', () => {
  it('name@domain.tld in Italian and English sentences, with punctuation and numbers around it', () => {
    expect(stored('scrivimi a mario.rossi+ordini@example.co.uk grazie')).toBe('scrivimi a [email] grazie');
    expect(stored('a@b.it')).toBe('[email]');
    expect(stored('mail: (giulia_b@example.it), 2 volte.')).toBe('mail: ([email]), 2 volte.');
    expect(stored('write to j.doe@example.com. Thanks')).toBe('write to [email]. Thanks');
    expect(stored('write to j.doe @ example.com 12 times')).toBe('write to [email] 12 times');
  });

  it('names and domains in any script, and quoted names, are redacted whole, never their tail', () => {
    expect(stored('scrivimi a josé.garcía@correo.es grazie')).toBe('scrivimi a [email] grazie');
    expect(stored('Mail: müller@beispiel.de.')).toBe('Mail: [email].');
    expect(stored('ñandú@correo.es, gracias')).toBe('[email], gracias');
    expect(stored('info@café.it')).toBe('[email]');
    expect(stored('пишите mario@пример.рф сегодня')).toBe('пишите [email] сегодня');
    expect(stored('mail xn--mario@xn--e1afmkfd.xn--p1ai ok')).toBe('mail [email] ok');
    expect(stored('write to "mario"@example.com or "mario rossi"@example.com')).toBe(
      'write to [email] or [email]',
    );
    expect(stored("write to o'brien@example.ie, or all'info@azienda.it")).toBe(
      'write to [email], or [email]',
    );
    expect(stored('…josé@correo.es «müller@beispiel.de»')).toBe('…[email] «[email]»');
    expect(stored('scrivi a josé.garcía (at) correo (dot) es')).toBe('scrivi a [email]');
  });

  it('spelled out with [at] / (at) / [dot], and with " at " after a name that is not a plain word', () => {
    expect(stored('scrivi a mario[at]example.com e grazie')).toBe('scrivi a [email] e grazie');
    expect(stored('scrivi a mario (at) example (dot) com, grazie')).toBe('scrivi a [email], grazie');
    expect(stored('write to mario [at] example [dot] co [dot] uk now')).toBe('write to [email] now');
    expect(stored('scrivi a mario.rossi at example.com grazie')).toBe('scrivi a [email] grazie');
    expect(stored('mail mario.rossi at example dot com.')).toBe('mail [email].');
    expect(stored('write to j_doe85 AT example.org')).toBe('write to [email]');
  });

  it('" at " after a plain word is English, and is left alone', () => {
    for (const text of [
      'scrivi a mario at example dot com',
      'find us at example.com',
      'buy it at amazon.co.uk today',
      'meet me at 10:30',
    ]) {
      expect(redactor.redact(text), text).toEqual({ text, found: [] });
    }
  });

  it('property: an address, however written, between any words and separators is redacted and the words kept', () => {
    expectRedactedInSentences(writtenEmailArbitrary, contextArbitrary, 'email');
  });

  it('property: words, numbers, dates and prices with "at" among them are unchanged', () => {
    expectUnchanged(
      fc.tuple(wordsArbitrary, wordsArbitrary).map(([before, after]) => `${before} at ${after}`),
    );
  });
});
