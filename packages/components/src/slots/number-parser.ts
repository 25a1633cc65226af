import { findWordNumbers } from './number-words.js';
import type { ParsedValue, ParseOutcome } from './parse-types.js';
import { matchAll } from './text.js';

/*
 * Numbers in digits ("4", "3,5", "3.5", "1.250", "-2") and in words ("quattro", "ventitré",
 * "twenty-one", "one hundred and five"). A comma is a decimal mark; a dot followed by exactly three
 * digits groups thousands ("1.250" is 1250), otherwise it is a decimal mark.
 */

const DIGITS = /(?<![\w.,:/+-])-?\d+(?:[.,]\d+)*(?![\w:/]|[.,]\d)/;

function numberOf(text: string): number | null {
  let normalised = text;
  if (text.includes(',') && text.includes('.')) {
    const decimal = text.lastIndexOf(',') > text.lastIndexOf('.') ? ',' : '.';
    const group = decimal === ',' ? '.' : ',';
    normalised = text.split(group).join('').replace(decimal, '.');
  } else if (text.includes(',')) {
    if (text.split(',').length > 2) normalised = text.split(',').join('');
    else normalised = text.replace(',', '.');
  } else if (text.includes('.')) {
    const groups = text.split('.');
    if (groups.length > 2 || (groups[1]!.length === 3 && !groups[0]!.startsWith('0')))
      normalised = groups.join('');
  }
  const value = Number(normalised);
  return Number.isFinite(value) ? value : null;
}

/** Every number in `folded` text, in digits or in words, in order. */
export function parseNumbers(folded: string): ParseOutcome<number> {
  const values: ParsedValue<number>[] = [];
  for (const m of matchAll(DIGITS, folded)) {
    const value = numberOf(m[0]);
    if (value !== null) values.push({ value, start: m.start, end: m.end, parser: 'number' });
  }
  for (const word of findWordNumbers(folded)) {
    values.push({ value: word.value, start: word.start, end: word.end, parser: 'number:words' });
  }
  values.sort((a, b) => a.start - b.start);
  return { values, misses: [] };
}
