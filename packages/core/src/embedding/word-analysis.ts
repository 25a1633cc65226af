import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stopwords as frenchStopWords } from '@orama/stopwords/french';
import { stopwords as germanStopWords } from '@orama/stopwords/german';
import { stopwords as italianStopWords } from '@orama/stopwords/italian';
import { stopwords as portugueseStopWords } from '@orama/stopwords/portuguese';
import { stopwords as spanishStopWords } from '@orama/stopwords/spanish';

/** The languages the hashed embedder can analyse (stems, elision, stop words). */
export const ANALYSED_LANGUAGES = ['it', 'es', 'fr', 'de', 'pt'] as const;

/** One of `ANALYSED_LANGUAGES`. */
export type AnalysedLanguage = (typeof ANALYSED_LANGUAGES)[number];

const NONSPACING_MARKS = /\p{Mn}/gu;
/** Words are letters, digits and combining marks; apostrophes stay inside a word for elision. */
const SEPARATORS = /[^\p{L}\p{N}\p{M}'’]+/u;
const APOSTROPHES = /['’]/;

const fold = (word: string): string => word.normalize('NFKD').replace(NONSPACING_MARKS, '');

interface Analyser {
  stem: (word: string) => string;
  /** Stop words, accents folded. */
  stopWords: ReadonlySet<string>;
  /** Elided words written before an apostrophe ("dell'", "l'", "qu'"), accents folded. */
  elisions: ReadonlySet<string>;
}

const analyser = (
  stem: (word: string) => string,
  stopWords: readonly string[],
  elisions: string,
): Analyser => ({
  stem,
  stopWords: new Set(stopWords.map(fold)),
  elisions: new Set(elisions.split(' ').filter(Boolean)),
});

/**
 * Snowball stemmers and stop-word lists (`@orama/stemmers`, `@orama/stopwords`), with the elided
 * articles, prepositions and pronouns each language writes before an apostrophe.
 */
const ANALYSERS: Record<AnalysedLanguage, Analyser> = {
  it: analyser(
    italian,
    italianStopWords,
    'l un d c m t s v ci dell all dall nell sull coll pell dov com quest quell nessun buon bell sant tutt anch',
  ),
  fr: analyser(french, frenchStopWords, 'l d j m n s t c qu jusqu lorsqu puisqu quoiqu presqu quelqu'),
  es: analyser(spanish, spanishStopWords, 'd l'),
  pt: analyser(portuguese, portugueseStopWords, 'd n'),
  de: analyser(german, germanStopWords, ''),
};

/**
 * The words of `text` in `language`: lower-cased, accents folded, elided words dropped
 * (`dell'ordine` → `ordine`): `languageWords("Dov'è l'ordine?", 'it')` → `['e', 'ordine']`.
 */
export function languageWords(text: string, language: AnalysedLanguage): string[] {
  const { elisions } = ANALYSERS[language];
  const words: string[] = [];
  for (const token of fold(text.normalize('NFC').toLowerCase()).split(SEPARATORS)) {
    const parts = token.split(APOSTROPHES).filter((part) => part.length > 0);
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k]!;
      // Elision: the part before an apostrophe is an article or preposition cut short ("dell'").
      if (k < parts.length - 1 && elisions.has(part)) continue;
      words.push(part);
    }
  }
  return words;
}

/**
 * The stems (Snowball) of `words` (`languageWords`' ) that are not stop words of `language`; of all
 * of them when nothing else is left, so that "dove?" still says something.
 */
export function contentStems(words: readonly string[], language: AnalysedLanguage): string[] {
  const { stem, stopWords } = ANALYSERS[language];
  const content = words.filter((word) => !stopWords.has(word));
  return (content.length > 0 ? content : words).map((word) => stem(word));
}

/**
 * The stems of `text`'s content words in `language`: elided words and stop words dropped, accents
 * folded before stemming, so that a message typed without them ("perche") stems like its chunk:
 * `analyseWords("Dov'è il mio ordine? Gli ordini arrivano?", 'it')` → `['ordin', 'ordin', 'arriv']`.
 */
export function analyseWords(text: string, language: AnalysedLanguage): string[] {
  return contentStems(languageWords(text, language), language);
}

/** Whether `value` is one of `ANALYSED_LANGUAGES`. */
export function isAnalysedLanguage(value: unknown): value is AnalysedLanguage {
  return (ANALYSED_LANGUAGES as readonly unknown[]).includes(value);
}
