import { TreeAgentError } from '../errors/tree-agent-error.js';
import { HashedEmbedder } from './hashed-embedder.js';
import { detectTreeLanguage, type TreeChunks } from './tree-language.js';
import { ANALYSED_LANGUAGES, type AnalysedLanguage, isAnalysedLanguage } from './word-analysis.js';

/**
 * The language a tree's default embedder analyses words in: `'auto'` (default) detects it from the
 * tree's exploration chunks; `'en'` or `'none'` hash words as written (English, or several languages).
 */
export type RoutingLanguage = 'auto' | 'none' | 'en' | AnalysedLanguage;

/**
 * The embedder a tree routes with when none is given: the `HashedEmbedder`, analysing words in the
 * tree's language (Italian, Spanish, French, German or Portuguese: stems, elision, stop words) when
 * `language` says so or, with `'auto'`, when `detectTreeLanguage` finds one of these; words as written
 * otherwise (English, trees of several languages).
 *
 * @example
 * const embedder = defaultEmbedderFor(tree); // an Italian tree: embedder.id ends in ':lang=it'
 */
export function defaultEmbedderFor(tree: TreeChunks, language: RoutingLanguage = 'auto'): HashedEmbedder {
  if (language === 'none' || language === 'en') return new HashedEmbedder();
  if (isAnalysedLanguage(language)) return new HashedEmbedder({ language });
  if (language !== 'auto')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `language must be 'auto', 'none', 'en' or one of ${ANALYSED_LANGUAGES.map((l) => `'${l}'`).join(', ')}, got ${JSON.stringify(language)}: set it to the language the tree is written in, or leave it out to detect it.`,
      { details: { language } },
    );
  const detected = detectTreeLanguage(tree).language;
  return isAnalysedLanguage(detected) ? new HashedEmbedder({ language: detected }) : new HashedEmbedder();
}
