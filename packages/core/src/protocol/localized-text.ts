/**
 * A text the customer reads, in one language or per language (docs/multilingual-trees.md): a plain
 * string, or an object from language code to text, `{ it: 'Ciao!', en: 'Hi!' }`. The engine sends
 * the session's language, then the tree's default language, then the first text the object has —
 * never an empty message.
 */
export type LocalizedText = string | { readonly [language: string]: string };
