import type { TextSpan } from './text-span.js';

/**
 * Finding a value written as a run of words — digit groups (`4111 1111 1111 1111`), letter-and-digit
 * groups (`IT60 X054 …`) — without crossing into the words around it (docs/privacy.md).
 *
 * A text is cut into words (maximal runs of letters, digits and `_`), so a value always starts and
 * ends at a word boundary. From each word that may start a value, the next words are joined while the
 * separator between them is one the value allows and the joined length stays within the longest
 * value; the candidates are then checked from the longest down, so a failed check retries the shorter
 * readings (the IBAN without the next word, the card without its expiry). Readings go from left to
 * right, the longest valid one at each word, and the next starts after it: the last groups of a value
 * never start another (`4111 1111 1111 1111 12` is a card and a number, whether or not
 * `1111 1111 1111 12` passes Luhn).
 */

/** How a detector reads a value written as words. */
export interface WordRunRule {
  /** A word that may be part of a value (the whole word is tested). */
  word: RegExp;
  /** What may stand between two words of a value (the whole separator is tested). */
  separator: RegExp;
  /** The most characters a value's words have, joined without separators (bounds the search). */
  maxLength: number;
  /** A cheap test of the first word (and the character before it), before any candidate is built. */
  startsValue(word: string, before: string): boolean;
  /** Whether these words, joined by these separators, are one value; `before` precedes the first word. */
  accept(words: readonly string[], separators: readonly string[], before: string): boolean;
  /** Characters before the first word that belong to an accepted value (a phone number's `+`). */
  prefixLength?(before: string, separators: readonly string[]): number;
}

interface Word {
  text: string;
  start: number;
  end: number;
}

const WORD = /[\p{L}\p{N}_]+/gu;

function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(text); match; match = WORD.exec(text)) {
    words.push({ text: match[0], start: match.index, end: match.index + match[0].length });
  }
  return words;
}

/** The spans of `text` holding a value by `rule`: sorted, not overlapping. */
export function findWordRuns(text: string, rule: WordRunRule): TextSpan[] {
  const words = wordsOf(text);
  const spans: TextSpan[] = [];
  for (let first = 0; first < words.length; first++) {
    const start = words[first]!;
    const before = text[start.start - 1] ?? '';
    if (start.text.length > rule.maxLength || !rule.word.test(start.text)) continue;
    if (!rule.startsValue(start.text, before)) continue;
    const texts = [start.text];
    const separators: string[] = [];
    let length = start.text.length;
    for (let next = first + 1; next < words.length; next++) {
      const word = words[next]!;
      length += word.text.length;
      if (length > rule.maxLength || !rule.word.test(word.text)) break;
      const separator = text.slice(words[next - 1]!.end, word.start);
      if (!rule.separator.test(separator)) break;
      texts.push(word.text);
      separators.push(separator);
    }
    for (let count = texts.length; count >= 1; count--) {
      const accepted = separators.slice(0, count - 1);
      if (!rule.accept(texts.slice(0, count), accepted, before)) continue;
      spans.push({
        start: start.start - (rule.prefixLength?.(before, accepted) ?? 0),
        end: words[first + count - 1]!.end,
      });
      // The next reading starts after this one: a value's last groups never start another.
      first += count - 1;
      break;
    }
  }
  return spans;
}
