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
  /** What may stand between two words of a value, at most 2 characters (the whole separator is tested). */
  separator: RegExp;
  /** The fewest characters a value's words have, joined without separators. */
  minLength: number;
  /** The most characters a value's words have, joined without separators (bounds the search). */
  maxLength: number;
  /** A pattern every text holding a value matches: a text that does not is not searched. */
  hint?: RegExp;
  /** A word every value has one of (a digit): a word farther than `maxLength` from one starts none. */
  anchor?: RegExp;
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

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A letter, a digit or `_` (ASCII by char code, the rest of Unicode by its categories). */
function isWordCharacter(code: number, text: string, at: number): boolean {
  if (code < 128) {
    return (
      (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95
    );
  }
  return LETTER_OR_DIGIT.test(String.fromCodePoint(text.codePointAt(at)!));
}

let lastText: string | null = null;
let lastWords: Word[] = [];

/** The words of `text`; the detectors that run one after another on the same text share one cut. */
function wordsOf(text: string): Word[] {
  if (text === lastText) return lastWords;
  const words: Word[] = [];
  let start = -1;
  for (let at = 0; at <= text.length; at++) {
    const inWord = at < text.length && isWordCharacter(text.charCodeAt(at), text, at);
    if (inWord && start < 0) start = at;
    else if (!inWord && start >= 0) {
      words.push({ text: text.slice(start, at), start, end: at });
      start = -1;
    }
  }
  lastText = text;
  lastWords = words;
  return words;
}

/** The index of the first word from `from` on that matches `anchor`, or -1. */
function nextAnchor(words: readonly Word[], from: number, anchor: RegExp): number {
  for (let i = from; i < words.length; i++) if (anchor.test(words[i]!.text)) return i;
  return -1;
}

/** The spans of `text` holding a value by `rule`: sorted, not overlapping. */
export function findWordRuns(text: string, rule: WordRunRule): TextSpan[] {
  if (rule.hint && !rule.hint.test(text)) return [];
  const words = wordsOf(text);
  const spans: TextSpan[] = [];
  let anchor = -1;
  for (let first = 0; first < words.length; first++) {
    const start = words[first]!;
    if (start.text.length > rule.maxLength || !rule.word.test(start.text)) continue;
    if (rule.anchor) {
      if (anchor < first) anchor = nextAnchor(words, first, rule.anchor);
      if (anchor < 0) break;
      if (words[anchor]!.start - start.start > rule.maxLength * 3) continue;
    }
    const before = text[start.start - 1] ?? '';
    if (!rule.startsValue(start.text, before)) continue;
    const texts = [start.text];
    const separators: string[] = [];
    let length = start.text.length;
    for (let next = first + 1; next < words.length; next++) {
      const word = words[next]!;
      length += word.text.length;
      const gap = word.start - words[next - 1]!.end;
      if (length > rule.maxLength || gap > 2 || !rule.word.test(word.text)) break;
      const separator = text.slice(words[next - 1]!.end, word.start);
      if (!rule.separator.test(separator)) break;
      texts.push(word.text);
      separators.push(separator);
    }
    // From the longest reading down; readings shorter than a value are not checked.
    let joined = texts.join('').length;
    for (let count = texts.length; count >= 1 && joined >= rule.minLength; count--) {
      const accepted = separators.slice(0, count - 1);
      if (rule.accept(texts.slice(0, count), accepted, before)) {
        spans.push({
          start: start.start - (rule.prefixLength?.(before, accepted) ?? 0),
          end: words[first + count - 1]!.end,
        });
        // The next reading starts after this one: a value's last groups never start another.
        first += count - 1;
        break;
      }
      joined -= texts[count - 1]!.length;
    }
  }
  return spans;
}
