import { describe, expect, test } from 'vitest';
import { extractSlots } from './extract-slots.js';
import type { SlotDefinition, SlotErrorCode } from './slot-definition.js';

/*
 * The parser table: what each slot type reads from a message, in Italian and English, and what it
 * must not read. Every case runs the real extraction with one slot of the type, asked for unless the
 * case says `{ awaited: false }`. The clock is Tuesday 1 December 2026, 11:00 in Rome.
 */

const clock = { now: new Date('2026-12-01T10:00:00Z'), timeZone: 'Europe/Rome' };

type Expected = string | number | null | { error: SlotErrorCode };
type Case = [text: string, expected: Expected, slot?: Partial<SlotDefinition> & { awaited?: boolean }];

const BIKES = {
  corsa: ['bici da corsa', 'road bike', 'strada'],
  mtb: ['mountain bike', 'mtb'],
  city: ['city bike', 'bici da città', 'olandese'],
  elettrica: ['e-bike', 'bici elettrica', 'pedalata assistita'],
};

const cases: Record<string, Case[]> = {
  date: [
    ['domani', '2026-12-02'],
    ['dopodomani', '2026-12-03'],
    ['oggi', '2026-12-01'],
    ['stasera', '2026-12-01'],
    ['ieri', '2026-11-30'],
    ["l'altro ieri", '2026-11-29'],
    ['domani alle 8', '2026-12-02'],
    ['giovedì prossimo', '2026-12-03'],
    ['giovedi', '2026-12-03'],
    ['venerdì', '2026-12-04'],
    ['sabato prossimo', '2026-12-05'],
    ['la prossima domenica', '2026-12-06'],
    ['lunedì', '2026-12-07'],
    ['martedì', '2026-12-08'],
    ['questo martedì', '2026-12-01'],
    ['tra 3 giorni', '2026-12-04'],
    ['fra tre giorni', '2026-12-04'],
    ['tra una settimana', '2026-12-08'],
    ['tra due settimane', '2026-12-15'],
    ['tra un mese', '2027-01-01'],
    ['il 12 marzo', '2027-03-12'],
    ['12 marzo 2027', '2027-03-12'],
    ['il 3 dicembre', '2026-12-03'],
    ['il primo dicembre', '2026-12-01'],
    ['1° gennaio', '2027-01-01'],
    ['il tre marzo', '2027-03-03'],
    ['25 dic', '2026-12-25'],
    ['il 15 agosto del 2027', '2027-08-15'],
    ['venerdì 12 marzo', '2027-03-12'],
    ['12/03', '2027-03-12'],
    ['12/03/2027', '2027-03-12'],
    ['12-03-27', '2027-03-12'],
    ['12.03.2027', '2027-03-12'],
    ['2027-03-12', '2027-03-12'],
    ['il 5', '2026-12-05'],
    ['il 30', '2026-12-30'],
    ['the 3rd of March', '2027-03-03'],
    ['March 3rd', '2027-03-03'],
    ['March 3, 2027', '2027-03-03'],
    ['3 March', '2027-03-03'],
    ['on the 24th of December', '2026-12-24'],
    ['December 24th', '2026-12-24'],
    ['the twenty-first of December', '2026-12-21'],
    ['tomorrow', '2026-12-02'],
    ['today', '2026-12-01'],
    ['the day after tomorrow', '2026-12-03'],
    ['yesterday', '2026-11-30'],
    ['next Thursday', '2026-12-03'],
    ['on Friday', '2026-12-04'],
    ['this Tuesday', '2026-12-01'],
    ['in 3 days', '2026-12-04'],
    ['in two weeks', '2026-12-15'],
    ['in a week', '2026-12-08'],
    ['a week from today', '2026-12-08'],
    ['the 5th', '2026-12-05'],
    ['3/25', '2027-03-25'],
    ['1st of January 2027', '2027-01-01'],
    ['Jan 15', '2027-01-15'],
    ['31 febbraio', { error: 'invalid-date' }],
    ['30 february', { error: 'invalid-date' }],
    ['32/01/2027', { error: 'invalid-date' }],
    ['a breve', null],
    ['ieri', { error: 'past-date' }, { dates: 'future' }],
    ['il 12 marzo 2020', { error: 'past-date' }, { dates: 'future' }],
    ['domani', { error: 'future-date' }, { dates: 'past' }],
    ['il 12 marzo', '2026-03-12', { dates: 'past' }],
    ['il 5', null, { awaited: false }],
    ['ciao', null],
    ['il prima possibile', null],
    ['maggio', null],
    ['may I come?', null],
    ['siamo in 5', null],
    ['alle 20.30', null],
    ['costa 3.5 euro', null],
  ],
  time: [
    ['alle 8', '08:00'],
    ['alle 20', '20:00'],
    ['alle 20:30', '20:30'],
    ['alle 20.30', '20:30'],
    ['ore 14', '14:00'],
    ['alle otto', '08:00'],
    ['alle otto e mezza', '08:30'],
    ['alle 8 e un quarto', '08:15'],
    ['alle 9 meno un quarto', '08:45'],
    ['alle 10 e tre quarti', '10:45'],
    ["all'una", '01:00'],
    ['alle 3 del pomeriggio', '15:00'],
    ['alle 8 di sera', '20:00'],
    ['alle 7 di mattina', '07:00'],
    ['alle 11 di notte', '23:00'],
    ['verso le 18', '18:00'],
    ['mezzogiorno', '12:00'],
    ['a mezzanotte', '00:00'],
    ['domani alle 8', '08:00'],
    ['14:45', '14:45'],
    ['8', '08:00'],
    ['le 9', '09:00'],
    ['17.15', '17:15'],
    ['at 8', '08:00'],
    ['at 8pm', '20:00'],
    ['8 pm', '20:00'],
    ['7:30 am', '07:30'],
    ['12 am', '00:00'],
    ['at eight', '08:00'],
    ['half past seven', '07:30'],
    ['quarter past eight', '08:15'],
    ['quarter to nine', '08:45'],
    ['ten past 6 in the evening', '18:10'],
    ['noon', '12:00'],
    ['midnight', '00:00'],
    ["8 o'clock", '08:00'],
    ['at 6 in the morning', '06:00'],
    ['alle 25', { error: 'invalid-time' }],
    ['alle 10:75', { error: 'invalid-time' }],
    ['8', null, { awaited: false }],
    ['siamo in 8', null],
    ['ciao', null],
    ['3,5 euro', null],
    ['il 12 marzo', null],
  ],
  integer: [
    ['4', 4],
    ['quattro', 4],
    ['quattro persone', 4, { awaited: false, keywords: ['persone'] }],
    ['siamo in 5', 5],
    ['no, siamo in 5', 5],
    ['per 12 persone', 12],
    ['ventitré', 23],
    ['ventuno', 21],
    ['trentotto', 38],
    ['cento', 100],
    ['centoventi', 120],
    ['duemila', 2000],
    ['una persona', 1, { keywords: ['persona'] }],
    ['per una persona', 1, { awaited: false, keywords: ['persona'] }],
    ['twenty-one', 21],
    ['twenty one', 21],
    ['four people', 4],
    ['a table for two', 2],
    ['one hundred and five', 105],
    ['a hundred', 100],
    ['we are 6', 6],
    ['3 ruote', 3],
    ['3,5', { error: 'not-integer' }],
    ['15', { error: 'out-of-range' }, { min: 1, max: 12 }],
    ['0', { error: 'out-of-range' }, { min: 1 }],
    ['un tavolo', null],
    ['a table', null],
    ['ciao', null],
    ['nessuno', null],
    ['uno', 1],
  ],
  number: [
    ['3,5', 3.5],
    ['3.5', 3.5],
    ['1.250', 1250],
    ['1.250,50', 1250.5],
    ['1,250.50', 1250.5],
    ['-2', -2],
    ['0,75 litri', 0.75],
    ['peso 12 kg', 12],
    ['dieci', 10],
    ['twelve', 12],
    ['circa 80', 80],
    ['100', { error: 'out-of-range' }, { max: 99 }],
    ['niente', null],
    ['abc', null],
  ],
  phone: [
    ['+39 333 1234567', '+393331234567'],
    ['+393331234567', '+393331234567'],
    ['0039 333 1234567', '+393331234567'],
    ['333 1234567', '+393331234567'],
    ['3331234567', '+393331234567'],
    ['333 123 4567', '+393331234567'],
    ['333-123-4567', '+393331234567'],
    ['333.123.4567', '+393331234567'],
    ['il mio numero è 347 9876543', '+393479876543'],
    ['chiamatemi al 02 1234567', '+39021234567'],
    ['06 12345678', '+390612345678'],
    ['800 123456', '+39800123456'],
    ['+44 20 7946 0958', '+442079460958'],
    ['+1 (415) 555-0132', '+14155550132'],
    ['my number is +33 6 12 34 56 78', '+33612345678'],
    ['415 555 0132', '+14155550132', { country: '1' }],
    ['333 12', { error: 'invalid-phone' }],
    ['12345', { error: 'invalid-phone' }],
    ['+39 12', { error: 'invalid-phone' }],
    ['+39 123 456 7890', { error: 'invalid-phone' }],
    ['12345', null, { awaited: false }],
    ['non ce l’ho sottomano', null],
    ['chiamatemi', null],
    ['il 12/03/2027', { error: 'invalid-phone' }],
    ['chiamatemi domani', null],
  ],
  email: [
    ['mario.rossi@example.com', 'mario.rossi@example.com'],
    ['scrivimi a Mario.Rossi@Example.it grazie', 'mario.rossi@example.it'],
    ['my e-mail is jane+bikes@mail.co.uk', 'jane+bikes@mail.co.uk'],
    ['a_b-c@sub.domain.org', 'a_b-c@sub.domain.org'],
    ['mario@', { error: 'invalid-email' }],
    ['mario@example', { error: 'invalid-email' }],
    ['@example.com', { error: 'invalid-email' }],
    ['mario..rossi@example.com', { error: 'invalid-email' }],
    ['mario at example dot com', null],
    ['nessuna email', null],
  ],
  enum: [
    ['una bici da corsa', 'corsa', { options: BIKES }],
    ['ho una MTB', 'mtb', { options: BIKES }],
    ['mountain bike', 'mtb', { options: BIKES }],
    ['la mia city bike', 'city', { options: BIKES }],
    ['una bici da città', 'city', { options: BIKES }],
    ['bici da citta', 'city', { options: BIKES }],
    ['è una e-bike', 'elettrica', { options: BIKES }],
    ['pedalata assistita', 'elettrica', { options: BIKES }],
    ['road bike', 'corsa', { options: BIKES }],
    ['Road Bike', 'corsa', { options: BIKES }],
    ['olandesse', 'city', { options: BIKES }],
    ['elettrica', 'elettrica', { options: BIKES }],
    ['corsa', 'corsa', { options: BIKES }],
    ['strada', 'corsa', { options: BIKES }],
    ['small', 'small', { options: ['small', 'medium', 'large'] }],
    ['Large please', 'large', { options: ['small', 'medium', 'large'] }],
    ['medum', 'medium', { options: ['small', 'medium', 'large'] }],
    ['mtb o corsa', { error: 'ambiguous' }, { options: BIKES }],
    ['una bici', null, { options: BIKES }],
    ['monopattino', null, { options: BIKES }],
    ['stradale', null, { options: { corsa: ['strada'] } }],
    ['xl', null, { options: ['small', 'medium', 'large'] }],
  ],
  regex: [
    ['il codice è AB12345', 'AB12345', { pattern: /[A-Z]{2}\d{5}/ }],
    ['ab12345', 'ab12345', { pattern: '[a-z]{2}\\d{5}' }],
    ['ordine n. 123456', '123456', { pattern: /\b(?<value>\d{6})\b/ }],
    ['telaio WTU123X4567', 'WTU123X4567', { pattern: /\bW[A-Z]{2}\d{3}[A-Z]\d{4}\b/ }],
    ['codice 12', { error: 'no-match' }, { pattern: /[A-Z]{2}\d{5}/ }],
    ['non lo trovo', null, { pattern: /[A-Z]{2}\d{5}/ }],
    ['AB1234', { error: 'no-match' }, { pattern: /\b[A-Z]{2}\d{5}\b/ }],
  ],
  text: [
    ['la catena salta', 'la catena salta'],
    ['Il freno posteriore non frena.', 'Il freno posteriore non frena.'],
    ['ruota bucata', 'ruota bucata'],
    ['the chain keeps slipping', 'the chain keeps slipping'],
    ['ok', null],
    ['?', null],
    ['no', null],
    ['la catena salta', null, { awaited: false }],
  ],
  'date-time': [
    ['domani alle 8', '2026-12-02T08:00:00+01:00'],
    ['giovedì prossimo alle 20:30', '2026-12-03T20:30:00+01:00'],
    ['the 3rd of March at 9am', '2027-03-03T09:00:00+01:00'],
    ['il 12 luglio alle 10', '2027-07-12T10:00:00+02:00'],
    ['tomorrow at noon', '2026-12-02T12:00:00+01:00'],
    ['domani', { error: 'missing-time' }],
    ['alle 8', { error: 'missing-date' }],
    ['ciao', null],
  ],
  custom: [
    [
      'taglia 54',
      54,
      {
        parse: (text) =>
          /taglia (\d+)/.exec(text) ? { value: Number(/taglia (\d+)/.exec(text)![1]) } : null,
      },
    ],
    [
      'taglia 99',
      { error: 'invalid' },
      {
        parse: (text) =>
          /taglia (\d+)/.exec(text) ? { value: Number(/taglia (\d+)/.exec(text)![1]) } : null,
        validate: (value) => ((value as number) < 70 ? true : 'Taglia troppo grande.'),
      },
    ],
    ['niente', null, { parse: () => null }],
    ['XS', { error: 'invalid' }, { parse: () => ({ error: 'Solo taglie numeriche.' }) }],
  ],
};

/** Validators: any type may refuse a parsed value. */
const validated: Case[] = [
  [
    'domani',
    { error: 'invalid' },
    {
      type: 'date',
      validate: (value) => (value === '2026-12-02' ? 'Il mercoledì siamo chiusi.' : true),
    } as Partial<SlotDefinition>,
  ],
  [
    'alle 23',
    { error: 'out-of-range' },
    { type: 'time', min: '08:00', max: '19:00' } as Partial<SlotDefinition>,
  ],
  ['alle 9', '09:00', { type: 'time', min: '08:00', max: '19:00' } as Partial<SlotDefinition>],
  ['2027-01-10', { error: 'out-of-range' }, { type: 'date', max: '2026-12-31' } as Partial<SlotDefinition>],
];

function run(type: string, [text, expected, options = {}]: Case) {
  const { awaited = true, ...rest } = options;
  const slot = { name: 'slot', question: '?', type, ...rest } as SlotDefinition;
  const result = extractSlots({ text, slots: [slot], values: {}, awaited: awaited ? 'slot' : null, clock });
  if (expected === null) {
    expect(result.extracted, `"${text}" must give no value`).toEqual([]);
    expect(result.misses, `"${text}" must give no miss`).toEqual([]);
  } else if (typeof expected === 'object') {
    expect(result.extracted, `"${text}" must give no value`).toEqual([]);
    expect(result.misses.map((miss) => miss.error)).toEqual([expected.error]);
  } else {
    expect(result.extracted.map((item) => item.value)).toEqual([expected]);
  }
}

const all = Object.entries(cases).flatMap(([type, list]) => list.map((item) => [type, item] as const));

describe('parser table', () => {
  test('has at least 200 cases, with cases that must not parse for every type', () => {
    const total = all.length + validated.length;
    expect(total).toBeGreaterThanOrEqual(200);
    for (const [type, list] of Object.entries(cases)) {
      expect(
        list.some(([, expected]) => expected === null),
        `${type} has negative cases`,
      ).toBe(true);
    }
  });
  test.each(all.map(([type, item]) => [type, item[0], item] as const))('%s: %s', (type, _text, item) =>
    run(type, item),
  );
  test.each(validated.map((item) => [item[2]!.type!, item[0], item] as const))(
    'validated %s: %s',
    (type, _text, item) => run(type, item),
  );
});
