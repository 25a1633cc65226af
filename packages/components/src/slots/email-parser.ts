import type { ParsedValue, ParseMiss, ParseOutcome } from './parse-types.js';
import { matchAll } from './text.js';

const EMAIL =
  /(?<![\w.+-])[a-z0-9](?:[a-z0-9._%+-]*[a-z0-9])?@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}(?![\w@-])/i;
const AT_WORD = /(?<!\S)\S*@\S*/;

/** Every e-mail address in `text` (lower-cased); a word with an `@` that is no address is a miss. */
export function parseEmails(text: string): ParseOutcome<string> {
  const values: ParsedValue<string>[] = [];
  const misses: ParseMiss[] = [];
  for (const m of matchAll(EMAIL, text)) {
    if (m[0].includes('..')) {
      misses.push({ error: 'invalid-email', start: m.start, end: m.end });
      continue;
    }
    values.push({ value: m[0].toLowerCase(), start: m.start, end: m.end, parser: 'email' });
  }
  for (const m of matchAll(AT_WORD, text)) {
    const word = m[0].replace(/[.,;:!?)]+$/, '');
    if (!values.some((value) => value.start <= m.start + word.length && m.start < value.end))
      misses.push({ error: 'invalid-email', start: m.start, end: m.start + word.length });
  }
  return { values, misses };
}
