import { findMatches } from './regex-detector.js';
import { mergeSpans, type TextSpan } from './text-span.js';

const LOCAL = '[A-Za-z0-9._%+-]+';
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';

/** `name@domain.tld`. */
const EMAIL = new RegExp(`${LOCAL}@${LABEL}(?:\\.${LABEL})*\\.[A-Za-z]{2,}`, 'g');

/**
 * An address written to dodge harvesters: `name[at]domain.tld`, `name (at) domain (dot) tld`, `name @ domain.tld`, and
 * `name at domain.tld` or `name at domain dot tld` when the name is not a plain word or a number
 * (it holds a letter and a `.`, `_`, `+`, `-`, `%` or a digit). After a plain word, ` at ` is English
 * (`find us at example.com`) and is left alone.
 */
const SPELLED_AT = '[ \\u00a0]?[[({]at[\\])}][ \\u00a0]?|[ \\u00a0]@[ \\u00a0]|[ \\u00a0]at[ \\u00a0]';
const SPELLED_DOT = '\\.|[ \\u00a0]?[[({]dot[\\])}][ \\u00a0]?|[ \\u00a0]dot[ \\u00a0]';
const SPELLED_EMAIL = new RegExp(
  `(?<![\\p{L}\\p{N}_.%+-])(${LOCAL})(${SPELLED_AT})${LABEL}(?:(?:${SPELLED_DOT})${LABEL})*(?:${SPELLED_DOT})[A-Za-z]{2,}(?![\\p{L}\\p{N}_@])`,
  'giu',
);

const SPELLED_EMAIL_PARTS = new RegExp(SPELLED_EMAIL.source, 'iu');

function isSpelledEmail(match: string): boolean {
  const [, local = '', at = ''] = SPELLED_EMAIL_PARTS.exec(match) ?? [];
  return /[[({@]/.test(at) || (/[A-Za-z]/.test(local) && /[._%+\-\d]/.test(local));
}

/** The e-mail addresses in `text`, written with `@` or spelled out. */
export function findEmails(text: string): TextSpan[] {
  const spans = [...findMatches(text, EMAIL), ...findMatches(text, SPELLED_EMAIL, isSpelledEmail)];
  return mergeSpans(spans);
}
