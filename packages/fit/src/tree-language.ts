import type { Tree } from '@treeagent/core';

/**
 * Function words of English and of the languages a tree is most often written in besides it. A word
 * that two of these lists share ("a", "in", "no", "se", …) is left out of both: it tells nothing.
 */
const words = (list: string) => list.split(' ');

const FUNCTION_WORDS: Record<string, readonly string[]> = {
  en: words(
    "the to of and is my i you your what how can do does it for on with this that me are be have has was will would could should please when where why which who an at from get need want tell know if or not i'm what's don't can't much many there they we our about some any like",
  ),
  it: words(
    'il lo la gli le di che e è un una per con mi ti non come quanto quando dove perché voglio vorrei posso mio mia del della al alla sono ho ha cosa qual quale ci si anche',
  ),
  es: words(
    'el los las del que y en por para con mi es una cómo qué cuánto dónde quiero puedo sobre hay está yo su más',
  ),
  fr: words(
    "le les des du et est je tu vous mon ma mes pour avec pas comment combien où quand pourquoi veux voudrais peux une sur au aux ce c'est j'ai",
  ),
  de: words(
    'der die das und ist ich du sie mein meine für mit nicht wie was wann wo warum kann möchte ein eine zu von auf',
  ),
  pt: words(
    'o os as do da dos das que em para com meu minha não como quanto onde quando quero posso uma é você',
  ),
  nl: words('de het een en is ik je mijn voor met niet hoe wat wanneer waar waarom kan wil van op'),
};

/** Each function word, mapped to its language; words of several languages are not in it. */
const LANGUAGE_OF: ReadonlyMap<string, string> = (() => {
  const seen = new Map<string, Set<string>>();
  for (const [language, words] of Object.entries(FUNCTION_WORDS))
    for (const word of words) seen.set(word, (seen.get(word) ?? new Set()).add(language));
  const out = new Map<string, string>();
  for (const [word, languages] of seen) if (languages.size === 1) out.set(word, [...languages][0]!);
  return out;
})();

/** What `englishShare` found in a tree's exploration chunks. */
export interface LanguageCount {
  /** Exploration chunks read. */
  chunks: number;
  /** Chunks with at least one function word of the languages above (the others say nothing). */
  decided: number;
  /** Decided chunks whose function words are mostly English. */
  english: number;
}

/**
 * Counts the exploration chunks written in English: a chunk is English when most of its function
 * words (articles, pronouns, question words…) are English ones; a chunk with none ("pto balance") is
 * not counted either way.
 */
export function countEnglish(texts: readonly string[]): LanguageCount {
  let decided = 0;
  let english = 0;
  for (const text of texts) {
    const votes = new Map<string, number>();
    for (const word of text.toLowerCase().split(/[^\p{L}']+/u)) {
      const language = LANGUAGE_OF.get(word);
      if (language) votes.set(language, (votes.get(language) ?? 0) + 1);
    }
    if (votes.size === 0) continue;
    decided++;
    const englishVotes = votes.get('en') ?? 0;
    const others = Math.max(0, ...[...votes].filter(([l]) => l !== 'en').map(([, count]) => count));
    if (englishVotes > others) english++;
  }
  return { chunks: texts.length, decided, english };
}

/** At least this share of the decided chunks is English: the tree is English. */
export const ENGLISH_TREE_SHARE = 0.8;

/**
 * Whether a tree is written in English, with the count that says so: at least `ENGLISH_TREE_SHARE`
 * of its exploration chunks that have any function word are English, and at least half of all of
 * them have one.
 */
export function isEnglishTree(tree: Tree): LanguageCount & { isEnglish: boolean } {
  const count = countEnglish(tree.chunks.filter((chunk) => !chunk.forRag).map((chunk) => chunk.text));
  const isEnglish =
    count.decided > 0 &&
    count.decided * 2 >= count.chunks &&
    count.english >= ENGLISH_TREE_SHARE * count.decided;
  return { ...count, isEnglish };
}
