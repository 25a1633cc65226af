import type { ParsedValue, ParseMiss, ParseOutcome } from './parse-types.js';
import { editDistance, escapeRegExp, fold, matchAll } from './text.js';

/** The allowed values of an enum slot, each with its synonyms (the value itself included). */
export function enumSynonyms(options: Record<string, string[]> | string[]): Map<string, string[]> {
  const entries = Array.isArray(options)
    ? options.map((value) => [value, [] as string[]] as const)
    : Object.entries(options);
  const out = new Map<string, string[]>();
  for (const [value, synonyms] of entries)
    out.set(value, [...new Set([value, ...synonyms].map((text) => fold(text).trim()))]);
  return out;
}

/**
 * The values of an enum slot named in `folded` text: by a synonym (word boundaries, case and
 * accents ignored; the longest synonym wins), or with one typo in a one-word synonym of five
 * letters or more. Two different values in one message are a miss (`ambiguous`).
 */
export function parseEnum(
  folded: string,
  options: Record<string, string[]> | string[],
): ParseOutcome<string> {
  const found: ParsedValue<string>[] = [];
  const synonyms = [...enumSynonyms(options)].flatMap(([value, texts]) =>
    texts.map((text) => ({ value, text })),
  );
  synonyms.sort((a, b) => b.text.length - a.text.length);
  const taken: { start: number; end: number }[] = [];
  for (const { value, text } of synonyms) {
    if (!text) continue;
    for (const m of matchAll(
      new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(text)}(?![\\p{L}\\p{N}])`, 'u'),
      folded,
    )) {
      if (taken.some((span) => m.start < span.end && span.start < m.end)) continue;
      taken.push(m);
      found.push({ value, start: m.start, end: m.end, parser: 'enum' });
    }
  }
  if (!found.length) {
    for (const m of matchAll(/\p{L}{5,}/u, folded)) {
      const near = synonyms.find(
        ({ text }) => !text.includes(' ') && text.length >= 5 && editDistance(m[0], text, 1) <= 1,
      );
      if (near) found.push({ value: near.value, start: m.start, end: m.end, parser: 'enum:typo' });
    }
  }
  found.sort((a, b) => a.start - b.start);
  const distinct = new Set(found.map((item) => item.value));
  const misses: ParseMiss[] =
    distinct.size > 1 ? [{ error: 'ambiguous', start: found[0]!.start, end: found.at(-1)!.end }] : [];
  return { values: distinct.size > 1 ? [] : found.slice(0, 1), misses };
}
