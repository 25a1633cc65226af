/**
 * Tells the language of a message (docs/multilingual-trees.md, "Detection"): the session's language
 * is detected from the first message that shows one when the client gave no locale.
 */
export interface LanguageDetector {
  /** Stable identifier (name and version of the identifier and its tables). */
  readonly id: string;
  /**
   * The language among `candidates` (language codes, the tree's `languages`) the text is written in,
   * or `null` when the text shows none of them ("ok", "👍", a number).
   */
  detect(text: string, candidates: readonly string[]): Promise<string | null> | string | null;
}
