/**
 * Text as the parsers read it: lower case, accents and apostrophes folded, **same length as the
 * original**, so a match's `start`/`end` point into both.
 */
export function fold(text: string): string {
  let out = '';
  for (const char of text) {
    let folded = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    if (folded.length !== char.length) folded = char;
    folded = folded.toLowerCase();
    if (folded.length !== char.length) folded = char;
    if (folded === '\u2019' || folded === '\u2018' || folded === '`') folded = "'";
    out += folded;
  }
  return out;
}

/** A span of the message that a parser took: `[start, end)`. */
export interface Span {
  start: number;
  end: number;
}

/** Whether `span` overlaps any of `taken`. */
export function overlaps(span: Span, taken: readonly Span[]): boolean {
  return taken.some((other) => span.start < other.end && other.start < span.end);
}

/** All matches of a global regular expression, with their spans. */
export function* matchAll(pattern: RegExp, text: string): Generator<RegExpExecArray & Span> {
  const global = new RegExp(
    pattern.source,
    pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
  );
  for (const match of text.matchAll(global)) {
    const start = match.index ?? 0;
    yield Object.assign(match, { start, end: start + match[0].length });
  }
}

/** `text` with the spans blanked out (same length), so later parsers do not see them. */
export function blank(text: string, spans: readonly Span[]): string {
  let out = text;
  for (const span of spans)
    out = out.slice(0, span.start) + ' '.repeat(span.end - span.start) + out.slice(span.end);
  return out;
}

/** Escapes a string for use in a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Levenshtein distance, stopping early above `limit`. */
export function editDistance(a: string, b: string, limit = 2): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      best = Math.min(best, current[j]!);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
