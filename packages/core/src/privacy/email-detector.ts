import { findMatches } from './regex-detector.js';
import { mergeSpans, type TextSpan } from './text-span.js';

/**
 * A name's characters: letters and digits of any script (`josé`, `müller`, `ñandú`, `марио`), combining
 * marks, and `. _ % + - '` (`o'brien`, and so `all'info@…` is redacted whole).
 */
const LOCAL_CHAR = "[\\p{L}\\p{M}\\p{N}._%+'’-]";
const LOCAL = `${LOCAL_CHAR}+`;
/** A quoted name: `"mario"@example.com`, `"mario rossi"@example.com`. */
const QUOTED_LOCAL = '"[^"\\r\\n@]{1,64}"';
/** A domain label of any script (`café`, `пример`); punycode (`xn--…`) is letters, digits and `-`. */
const LABEL = '[\\p{L}\\p{M}\\p{N}](?:[\\p{L}\\p{M}\\p{N}-]*[\\p{L}\\p{M}\\p{N}])?';
const TLD = '(?:xn--[a-z0-9-]*[a-z0-9]|\\p{L}[\\p{L}\\p{M}]+)';

/**
 * `name@domain.tld`, starting where the name starts: never after a character a name holds, so an
 * address is redacted whole, never its tail (`mü[email]`).
 */
const EMAIL = new RegExp(
  `(?:(?<!${LOCAL_CHAR})${LOCAL}|${QUOTED_LOCAL})@${LABEL}(?:\\.${LABEL})*\\.${TLD}`,
  'giu',
);

/**
 * An address written to dodge harvesters: `name[at]domain.tld`, `name (at) domain (dot) tld`,
 * `name @ domain.tld`, and `name at domain.tld` or `name at domain dot tld` when the name is not a
 * plain word or a number (it holds a letter and a `.`, `_`, `+`, `-`, `%` or a digit). After a plain
 * word, ` at ` is English (`find us at example.com`) and is left alone.
 */
const SPELLED_AT = /[ \u00a0]?[[({]at[\])}][ \u00a0]?|[ \u00a0]@[ \u00a0]|[ \u00a0]at[ \u00a0]/gi;
const SPELLED_DOT = '\\.|[ \\u00a0]?[[({]dot[\\])}][ \\u00a0]?|[ \\u00a0]dot[ \\u00a0]';
const LOCAL_BEFORE = new RegExp(`${LOCAL}$`, 'u');
const DOMAIN_AFTER = new RegExp(
  `${LABEL}(?:(?:${SPELLED_DOT})${LABEL})*(?:${SPELLED_DOT})${TLD}(?![\\p{L}\\p{N}_@])`,
  'iuy',
);

/** Whether the name before a spelled ` at ` is an address's: bracketed forms take any name. */
function isSpelledName(local: string, at: string): boolean {
  return /[[({@]/.test(at) || (/\p{L}/u.test(local) && /[._%+\-\d]/.test(local));
}

/** The spelled-out addresses: found from each spelled `at`, the name before it and the domain after. */
function findSpelledEmails(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  SPELLED_AT.lastIndex = 0;
  for (let at = SPELLED_AT.exec(text); at; at = SPELLED_AT.exec(text)) {
    const local = LOCAL_BEFORE.exec(text.slice(Math.max(0, at.index - 65), at.index))?.[0] ?? '';
    if (local === '' || local.length > 64 || /[\p{L}\p{N}_]/u.test(text[at.index - local.length - 1] ?? '')) {
      continue;
    }
    DOMAIN_AFTER.lastIndex = at.index + at[0].length;
    const domain = DOMAIN_AFTER.exec(text);
    if (!domain || !isSpelledName(local, at[0])) continue;
    spans.push({ start: at.index - local.length, end: domain.index + domain[0].length });
    SPELLED_AT.lastIndex = domain.index + domain[0].length;
  }
  return spans;
}

/** The e-mail addresses in `text`, written with `@` or spelled out. */
export function findEmails(text: string): TextSpan[] {
  const plain = text.includes('@') ? findMatches(text, EMAIL) : [];
  return mergeSpans([...plain, ...findSpelledEmails(text)]);
}
