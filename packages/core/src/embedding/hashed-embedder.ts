import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { Embedder } from './embedder.js';
import { normalizeInPlace } from './vector-math.js';
import { type AnalysedLanguage, contentStems, isAnalysedLanguage, languageWords } from './word-analysis.js';

/** An inclusive `[min, max]` n-gram length range, or `false` to disable that feature family. */
export type NgramRange = readonly [min: number, max: number] | false;

export interface HashedEmbedderOptions {
  /** Length of the vectors (number of hash buckets). Default 4096. */
  dimensions?: number;
  /** Word n-gram lengths. Default `[1, 2]` (unigrams and bigrams). */
  wordNgrams?: NgramRange;
  /** Character n-gram lengths, taken inside each `<word>`. Default `[3, 5]`. */
  charNgrams?: NgramRange;
  /** Weight of each word n-gram relative to a character n-gram (weight 1). Default 1. */
  wordWeight?: number;
  /**
   * Analyse words as this language writes them (`'it'`, `'es'`, `'fr'`, `'de'`, `'pt'`): elided words
   * dropped (`dell'ordine` → `ordine`); word n-grams made of the stems (Snowball) of the words that are
   * not stop words, so that the inflections of a word hash alike. Default: none (every word as written, accents folded), what
   * English trees and trees of several languages use. `defaultEmbedderFor(tree)` picks it from the
   * tree's language.
   */
  language?: AnalysedLanguage;
}

/** A vector as its non-zero entries: `indices` ascending, `values[k]` at `indices[k]`. */
export interface SparseVector {
  indices: Uint32Array;
  values: Float32Array;
}

const VERSION = 'hashed-v1';
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
// Distinct seeds keep word and character features in separate hash spaces.
const WORD_SEED = Math.imul(FNV_OFFSET ^ 0x57, FNV_PRIME);
const CHAR_SEED = Math.imul(FNV_OFFSET ^ 0x43, FNV_PRIME);
const SPACE = 0x20;
const BOW = 0x3c; // '<'
const EOW = 0x3e; // '>'
const NON_ASCII = /[\u0080-\uffff]/;
const NONSPACING_MARKS = /\p{Mn}/gu;
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/u;

/**
 * Lower-cased words with accents removed (NFKD, then non-spacing marks dropped), split on anything
 * that is not a letter, digit or remaining combining mark: `"Perché l'IVA?"` → `['perche', 'l', 'iva']`.
 */
export function tokenize(text: string): string[] {
  const folded = NON_ASCII.test(text) ? text.normalize('NFKD').replace(NONSPACING_MARKS, '') : text;
  return folded
    .toLowerCase()
    .split(SEPARATORS)
    .filter((token) => token.length > 0);
}

/** MurmurHash3 finaliser: spreads FNV-1a's weak low bits over the whole word. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function checkRange(name: string, range: NgramRange | undefined, fallback: NgramRange): NgramRange {
  if (range === undefined) return fallback;
  if (range === false) return false;
  const [min, max] = range;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min || max > 16) {
    throw new TreeAgentError('INVALID_INPUT', `${name} must be integers with 1 <= min <= max <= 16`, {
      details: { [name]: range },
    });
  }
  return [min, max];
}

const rangeId = (range: NgramRange): string => (range === false ? 'off' : `${range[0]}-${range[1]}`);

/**
 * Deterministic, offline, dependency-free embedder: signed feature hashing of word n-grams and
 * fastText-style character n-grams (`<word>`), sublinear term frequency (1 + ln tf), L2-normalised.
 * Accent- and case-insensitive, so it suits Italian and English alike.
 *
 * @example
 * const embedder = new HashedEmbedder();
 * const [a, b] = embedder.embed(['Vorrei fare un reso', 'come faccio il reso?']);
 * cosineSimilarity(a, b); // clearly above unrelated pairs
 */
export class HashedEmbedder implements Embedder {
  /**
   * Encodes the version and every option, e.g. `hashed-v1:d=4096:w=1-2:c=3-5:ww=1`, with
   * `:lang=it` for a language (so that caches and fits of two languages never mix).
   */
  readonly id: string;
  readonly dimensions: number;
  readonly wordNgrams: NgramRange;
  readonly charNgrams: NgramRange;
  readonly wordWeight: number;
  /** The language whose words are analysed, or none. */
  readonly language: AnalysedLanguage | undefined;
  private wordFeatures: Uint32Array = new Uint32Array(256);
  private charFeatures: Uint32Array = new Uint32Array(1024);
  /** `embedSparse`'s work vector (all zeros between calls) and the buckets it touched. */
  private scratch: Float32Array | null = null;
  private touched: Uint32Array = new Uint32Array(1024);

  constructor(options: HashedEmbedderOptions = {}) {
    const dimensions = options.dimensions ?? 4096;
    if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > 2 ** 24) {
      throw new TreeAgentError('INVALID_INPUT', 'dimensions must be an integer between 1 and 2^24', {
        details: { dimensions },
      });
    }
    const wordWeight = options.wordWeight ?? 1;
    if (!Number.isFinite(wordWeight) || wordWeight <= 0) {
      throw new TreeAgentError('INVALID_INPUT', 'wordWeight must be a positive number', {
        details: { wordWeight },
      });
    }
    if (options.language !== undefined && !isAnalysedLanguage(options.language)) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `HashedEmbedder language must be one of 'it', 'es', 'fr', 'de', 'pt' (or left out for words as written), got ${JSON.stringify(options.language)}`,
        { details: { language: options.language } },
      );
    }
    this.language = options.language;
    this.dimensions = dimensions;
    this.wordNgrams = checkRange('wordNgrams', options.wordNgrams, [1, 2]);
    this.charNgrams = checkRange('charNgrams', options.charNgrams, [3, 5]);
    this.wordWeight = wordWeight;
    this.id = `${VERSION}:d=${dimensions}:w=${rangeId(this.wordNgrams)}:c=${rangeId(this.charNgrams)}:ww=${wordWeight}${this.language ? `:lang=${this.language}` : ''}`;
  }

  embed(texts: readonly string[]): Float32Array[] {
    return texts.map((text) => this.embedOne(text));
  }

  /** Embeds one text into a unit-length vector (all zeros when it has no letters or digits). */
  embedOne(text: string): Float32Array {
    const vector = new Float32Array(this.dimensions);
    const tokens = this.words(text);
    if (tokens.length === 0) return vector;
    const wordCount = this.collectWords(this.stems(tokens));
    const charCount = this.collectChars(tokens);
    this.accumulate(vector, this.wordFeatures, wordCount, this.wordWeight);
    this.accumulate(vector, this.charFeatures, charCount, 1);
    return normalizeInPlace(vector);
  }

  /**
   * The non-zero entries of `embedOne(text)`, indices ascending: the same values, bit for bit,
   * computed without a dense vector (what `treeagent lint` uses on large trees, where a 4096-float
   * vector per chunk would be most of the work).
   */
  embedSparse(text: string): SparseVector {
    const tokens = this.words(text);
    if (tokens.length === 0) return { indices: new Uint32Array(0), values: new Float32Array(0) };
    this.scratch ??= new Float32Array(this.dimensions);
    const wordCount = this.collectWords(this.stems(tokens));
    const charCount = this.collectChars(tokens);
    this.touched = ensureCapacity(this.touched, wordCount + charCount);
    let touched = this.accumulate(this.scratch, this.wordFeatures, wordCount, this.wordWeight, 0);
    touched = this.accumulate(this.scratch, this.charFeatures, charCount, 1, touched);
    const buckets = this.touched.subarray(0, touched).sort();
    // normalizeInPlace, on the non-zero entries in index order (the zeros add nothing to the norm).
    const scratch = this.scratch;
    let sum = 0;
    let nonZero = 0;
    let previous = -1;
    for (let k = 0; k < buckets.length; k++) {
      const at = buckets[k]!;
      if (at === previous) continue;
      previous = at;
      const value = scratch[at]!;
      if (value !== 0) nonZero++;
      sum += value * value;
    }
    const length = Math.sqrt(sum);
    const scale = length === 0 || !Number.isFinite(length) ? 1 : 1 / length;
    const indices = new Uint32Array(nonZero);
    const values = new Float32Array(nonZero);
    let k = 0;
    previous = -1;
    for (let m = 0; m < buckets.length; m++) {
      const at = buckets[m]!;
      if (at === previous) continue;
      previous = at;
      const value = scratch[at]!;
      scratch[at] = 0;
      if (value === 0) continue;
      indices[k] = at;
      values[k++] = value * scale;
    }
    return { indices, values };
  }

  /** The words hashed: `tokenize`'s, or `languageWords`' (elisions dropped) in the embedder's language. */
  private words(text: string): string[] {
    return this.language ? languageWords(text, this.language) : tokenize(text);
  }

  /**
   * What word n-grams are made of: in the embedder's language, the stems of the words that are not
   * stop words (inflections of a word hash alike; "il mio" makes no bigram); without one, the words.
   * Character n-grams are taken in all the words, which keeps their spelling (and typos) close.
   */
  private stems(words: string[]): string[] {
    return this.language ? contentStems(words, this.language) : words;
  }

  private collectWords(tokens: readonly string[]): number {
    const range = this.wordNgrams;
    if (range === false) return 0;
    const [min, max] = range;
    this.wordFeatures = ensureCapacity(this.wordFeatures, tokens.length * (max - min + 1));
    const out = this.wordFeatures;
    let count = 0;
    for (let start = 0; start < tokens.length; start++) {
      let h = WORD_SEED;
      const last = Math.min(tokens.length, start + max);
      for (let end = start; end < last; end++) {
        if (end > start) h = Math.imul(h ^ SPACE, FNV_PRIME);
        const token = tokens[end]!;
        for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), FNV_PRIME);
        if (end - start + 1 >= min) out[count++] = fmix32(h);
      }
    }
    return count;
  }

  private collectChars(tokens: readonly string[]): number {
    const range = this.charNgrams;
    if (range === false) return 0;
    const [min, max] = range;
    let capacity = 0;
    for (const token of tokens) capacity += (token.length + 2) * (max - min + 1);
    this.charFeatures = ensureCapacity(this.charFeatures, capacity);
    const out = this.charFeatures;
    let count = 0;
    for (const token of tokens) {
      const padded = token.length + 2; // '<' + token + '>'
      for (let start = 0; start < padded; start++) {
        let h = CHAR_SEED;
        const last = Math.min(padded, start + max);
        for (let end = start; end < last; end++) {
          const code = end === 0 ? BOW : end === padded - 1 ? EOW : token.charCodeAt(end - 1);
          h = Math.imul(h ^ code, FNV_PRIME);
          if (end - start + 1 >= min) out[count++] = fmix32(h);
        }
      }
    }
    return count;
  }

  /**
   * Counts equal features (sorted runs) and adds ±weight·(1 + ln tf) into their bucket; with
   * `touched` (the count so far), records each bucket it adds to in `this.touched` and returns the
   * new count.
   */
  private accumulate(
    vector: Float32Array,
    features: Uint32Array,
    count: number,
    weight: number,
    touched?: number,
  ): number {
    if (count === 0) return touched ?? 0;
    const sorted = features.subarray(0, count).sort();
    const dimensions = this.dimensions;
    let i = 0;
    while (i < count) {
      const h = sorted[i]!;
      let j = i + 1;
      while (j < count && sorted[j] === h) j++;
      const value = weight * (1 + Math.log(j - i));
      // Bit 31 picks the sign; the other 31 bits pick the bucket, so the two are independent.
      const bucket = (h & 0x7fffffff) % dimensions;
      vector[bucket] += h & 0x80000000 ? -value : value;
      if (touched !== undefined) this.touched[touched++] = bucket;
      i = j;
    }
    return touched ?? 0;
  }
}

function ensureCapacity(buffer: Uint32Array, needed: number): Uint32Array {
  if (buffer.length >= needed) return buffer;
  let size = buffer.length;
  while (size < needed) size *= 2;
  return new Uint32Array(size);
}
