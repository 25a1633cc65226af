import i18next, { type i18n as I18n } from 'i18next';
import { catalogLanguages, readCatalog } from './catalog-files.js';

let instance: I18n | null = null;

/** The `server` namespace of every language, loaded once on first use. */
function messages(): I18n {
  if (instance) return instance;
  const resources = Object.fromEntries(
    catalogLanguages().map((language) => [language, { server: readCatalog(language, 'server') }]),
  );
  instance = i18next.createInstance();
  void instance.init({
    resources,
    lng: 'en',
    fallbackLng: 'en',
    ns: ['server'],
    defaultNS: 'server',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  return instance;
}

/**
 * A customer-visible message of the server (limits, refusals) in `language`, from the `server`
 * catalogs (`packages/server/locales/<language>/server.json`); English when the language lacks it.
 *
 * @example
 * serverMessage('it', 'rateLimitedSession', { max: 30 }) // "Troppi messaggi in questa conversazione…"
 */
export function serverMessage(language: string, key: string, values: Record<string, unknown> = {}): string {
  return messages().getFixedT(language, 'server')(key, values);
}
