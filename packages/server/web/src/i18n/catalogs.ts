/**
 * The message catalogs of the web app: every `packages/server/locales/<language>/<namespace>.json`
 * but the widget's (its own bundle reads `widget.json`). A new folder of JSON files is a new
 * language: nothing else to register.
 */
const files = import.meta.glob<Record<string, unknown>>(['../../../locales/*/*.json', '!**/widget.json'], {
  eager: true,
  import: 'default',
});

/** `{ language: { namespace: catalog } }`, as i18next's `resources`. */
export const CATALOGS: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, catalog] of Object.entries(files)) {
  const [language, file] = path.split('/').slice(-2) as [string, string];
  CATALOGS[language] ??= {};
  CATALOGS[language][file.replace(/\.json$/, '')] = catalog;
}

/** The languages that have catalogs, `en` first. */
export const LANGUAGES = Object.keys(CATALOGS).sort((a, b) =>
  a === 'en' ? -1 : b === 'en' ? 1 : a.localeCompare(b),
);
