import type { TextSpan } from './text-span.js';

/**
 * The spans of `text` matched by a global `pattern` and kept by `check`. After a match the check
 * rejects, the search goes on from the match's next character, not from its end.
 */
export function findMatches(text: string, pattern: RegExp, check?: (match: string) => boolean): TextSpan[] {
  const spans: TextSpan[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match[0] === '') {
      pattern.lastIndex++;
      continue;
    }
    if (!check || check(match[0])) spans.push({ start: match.index, end: match.index + match[0].length });
    // A match its check rejects may hide one that starts inside it: look again from its next character.
    else pattern.lastIndex = match.index + 1;
  }
  return spans;
}
