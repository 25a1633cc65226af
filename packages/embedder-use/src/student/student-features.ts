/**
 * What the USE-lite student reads of a text: lower-cased words (`a-z`, digits, accents folded), each
 * a row of the embedding table when it is in the vocabulary, else the average of its hashed
 * character 3- and 4-grams; and every pair of adjacent words, hashed into the bigram rows.
 */

/** The sizes of the student's feature space (stored in the weights file). */
export interface FeatureSpace {
  /** The known words, each its own row (row = index). */
  vocabulary: ReadonlyMap<string, number>;
  /** Rows for hashed word pairs, after the vocabulary's. */
  bigramBuckets: number;
  /** Rows for hashed character n-grams of unknown words, after the bigrams'. */
  charBuckets: number;
}

/**
 * The features of one text: `rows[i]` weighs `weights[i]` (a known word or a bigram weighs 1; an
 * unknown word's n-grams share a weight of 1); `count` is the number of words + bigrams (for the
 * sqrt-n scaling). No words: no rows.
 */
export interface Features {
  rows: number[];
  weights: number[];
  count: number;
}

/** Splits a text into lower-cased words; accents are folded ("café" → "cafe"), apostrophes split. */
export function studentWords(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .match(/[a-z0-9]+/g) ?? []
  );
}

/** FNV-1a, 32 bits, of a string's UTF-16 code units. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The hashed character 3- and 4-grams of a word, with its boundaries marked (`<word>`). */
export function charGrams(word: string): string[] {
  const marked = `<${word}>`;
  const out: string[] = [];
  for (const n of [3, 4])
    for (let start = 0; start + n <= marked.length; start++) out.push(marked.slice(start, start + n));
  return out;
}

export function featuresOf(text: string, space: FeatureSpace): Features {
  const words = studentWords(text);
  const rows: number[] = [];
  const weights: number[] = [];
  const vocabularySize = space.vocabulary.size;
  const charStart = vocabularySize + space.bigramBuckets;
  for (const word of words) {
    const row = space.vocabulary.get(word);
    if (row !== undefined) {
      rows.push(row);
      weights.push(1);
      continue;
    }
    const grams = charGrams(word);
    for (const gram of grams) {
      rows.push(charStart + (fnv1a(gram) % space.charBuckets));
      weights.push(1 / grams.length);
    }
  }
  for (let i = 0; i + 1 < words.length; i++) {
    rows.push(vocabularySize + (fnv1a(`${words[i]} ${words[i + 1]}`, 0x9747b28c) % space.bigramBuckets));
    weights.push(1);
  }
  return { rows, weights, count: words.length + Math.max(0, words.length - 1) };
}
