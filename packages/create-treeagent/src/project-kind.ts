/** The language of the generated tree's chunks and answers. */
export type Language = 'en' | 'it';
/** `minimal`: a few intents, a component, a form, a fallback. `support`: a customer-service assistant. */
export type Template = 'minimal' | 'support';

export const LANGUAGES: readonly Language[] = ['en', 'it'];
export const TEMPLATES: readonly Template[] = ['minimal', 'support'];
