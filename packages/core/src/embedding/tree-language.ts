/** What language detection reads of a tree (a `Tree` is one): its chunks, `forRag` ones skipped. */
export interface TreeChunks {
  readonly chunks: readonly { readonly text: string; readonly forRag?: boolean }[];
}

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
    'el los las del que y en por para con mi es una cómo qué cuánto cuándo cuál dónde quiero puedo necesito tengo sobre hay está yo su mis más pero también',
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

/** The language most of a chunk's function words belong to (ties: none), or none without any. */
function chunkLanguage(text: string): string | null {
  const votes = new Map<string, number>();
  for (const word of text.toLowerCase().split(/[^\p{L}']+/u)) {
    const language = LANGUAGE_OF.get(word);
    if (language) votes.set(language, (votes.get(language) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestVotes = 0;
  for (const [language, count] of votes) {
    if (count > bestVotes) [best, bestVotes] = [language, count];
    else if (count === bestVotes) best = null;
  }
  return best;
}

/**
 * Counts the exploration chunks written in English: a chunk is English when most of its function
 * words (articles, pronouns, question words…) are English ones; a chunk with none ("pto balance") is
 * not counted either way.
 */
export function countEnglish(texts: readonly string[]): LanguageCount {
  const { decided, languages } = countLanguages(texts);
  return { chunks: texts.length, decided, english: languages.get('en') ?? 0 };
}

/** Decided chunks per language (`en`, `it`, `es`, `fr`, `de`, `pt`, `nl`), as `countEnglish` decides them. */
export function countLanguages(texts: readonly string[]): {
  decided: number;
  languages: Map<string, number>;
} {
  let decided = 0;
  const languages = new Map<string, number>();
  for (const text of texts) {
    if (!hasFunctionWord(text)) continue;
    decided++;
    const language = chunkLanguage(text);
    if (language) languages.set(language, (languages.get(language) ?? 0) + 1);
  }
  return { decided, languages };
}

function hasFunctionWord(text: string): boolean {
  return text
    .toLowerCase()
    .split(/[^\p{L}']+/u)
    .some((word) => LANGUAGE_OF.has(word));
}

/** At least this share of the decided chunks is in one language: the tree is in that language. */
export const ENGLISH_TREE_SHARE = 0.8;

/** The language of a tree's exploration chunks, and the count that says so. */
export interface TreeLanguage {
  /** `en`, `it`, `es`, `fr`, `de`, `pt` or `nl`; none when no language has enough of the chunks. */
  language: string | null;
  /** Exploration chunks read. */
  chunks: number;
  /** Chunks with at least one function word. */
  decided: number;
  /** Decided chunks in `language` (0 without one). */
  inLanguage: number;
}

/**
 * The language a tree is written in: the one that at least `ENGLISH_TREE_SHARE` of its exploration
 * chunks with any function word are in, when at least a quarter of all of them have one (short chunks
 * such as "bici da corsa" have none). What the default embedder analyses words in.
 */
export function detectTreeLanguage(tree: TreeChunks): TreeLanguage {
  const texts = explorationTexts(tree);
  const { decided, languages } = countLanguages(texts);
  let language: string | null = null;
  let inLanguage = 0;
  if (decided > 0 && decided * 4 >= texts.length)
    for (const [candidate, count] of languages)
      if (count >= ENGLISH_TREE_SHARE * decided) [language, inLanguage] = [candidate, count];
  return { language, chunks: texts.length, decided, inLanguage };
}

const explorationTexts = (tree: TreeChunks): string[] =>
  tree.chunks.filter((chunk) => !chunk.forRag).map((chunk) => chunk.text);

/**
 * Whether a tree is written in English, with the count that says so: at least `ENGLISH_TREE_SHARE`
 * of its exploration chunks that have any function word are English, and at least half of all of
 * them have one (stricter than `detectTreeLanguage`: it decides the fit's base).
 */
export function isEnglishTree(tree: TreeChunks): LanguageCount & { isEnglish: boolean } {
  const count = countEnglish(explorationTexts(tree));
  const isEnglish =
    count.decided > 0 &&
    count.decided * 2 >= count.chunks &&
    count.english >= ENGLISH_TREE_SHARE * count.decided;
  return { ...count, isEnglish };
}
