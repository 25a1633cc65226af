/** The language of the generated tree's chunks and answers. */
export type Language = 'en' | 'it';
/** `minimal`: a few intents, a component, a form, a fallback. `support`: a customer-service assistant. */
export type Template = 'minimal' | 'support';

export const LANGUAGES: readonly Language[] = ['en', 'it'];
export const TEMPLATES: readonly Template[] = ['minimal', 'support'];
/**
 * How the tree is written: `json` (default) a JSON tree document the editor of `treeagent dev` edits,
 * with its callbacks in a typed module beside it; `ts` a TypeScript module (`defineTree`), which the
 * editor shows read-only.
 */
export type TreeFormat = 'json' | 'ts';
export const TREE_FORMATS: readonly TreeFormat[] = ['json', 'ts'];
