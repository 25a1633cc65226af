import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The message catalogs of the server and its web app: `packages/server/locales/<language>/<namespace>.json`,
 * shipped with the package. The same path works from the sources (`src/i18n/`) and from the
 * compiled package (`dist/i18n/`). A folder is a language: adding one needs nothing else.
 */
export const LOCALES_DIRECTORY = fileURLToPath(new URL('../../locales/', import.meta.url));

/** The languages that have catalogs (folder names), `en` first. */
export function catalogLanguages(directory: string = LOCALES_DIRECTORY): string[] {
  if (!existsSync(directory)) return ['en'];
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a === 'en' ? -1 : b === 'en' ? 1 : a.localeCompare(b)));
}

/** One catalog as JSON; `{}` when the language has no such namespace. */
export function readCatalog(
  language: string,
  namespace: string,
  directory: string = LOCALES_DIRECTORY,
): Record<string, unknown> {
  const path = join(directory, language, `${namespace}.json`);
  if (!existsSync(path)) return {};
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/**
 * Checks a deployment's language (`--locale`, `web.locale`): it must have catalogs. Throws a
 * `TypeError` naming the languages there are and how to add one.
 */
export function checkLocale(locale: string, option: string): string {
  const languages = catalogLanguages();
  const language = locale.split(/[-_]/)[0]?.toLowerCase() ?? '';
  if (!languages.includes(language))
    throw new TypeError(
      `${option} is "${locale}", a language with no catalogs: use one of ${languages.join(', ')}, or add its folder of JSON files to ${LOCALES_DIRECTORY} (docs/languages.md).`,
    );
  return locale;
}
