/**
 * The page's language: the first of `candidates` (the deployment's setting, the page's `?lang=`, the
 * browser's `navigator.languages`, in that order) whose language has catalogs, matched by its
 * primary subtag (`it-IT` takes `it`); `en` when none has. `locale` is what `Intl` formats with:
 * the candidate itself when it names a region of the chosen language (`it-CH`), else the language.
 *
 * @example
 * chooseLocale([undefined, null, ['it-IT', 'en']], ['en', 'it']) // { language: 'it', locale: 'it-IT' }
 */
export function chooseLocale(
  candidates: readonly (string | null | undefined | readonly string[])[],
  available: readonly string[],
): { language: string; locale: string } {
  for (const candidate of candidates.flat()) {
    if (!candidate) continue;
    const tag = candidate.trim();
    const language = tag.split(/[-_]/)[0]?.toLowerCase() ?? '';
    if (!available.includes(language)) continue;
    return { language, locale: isValidLocale(tag) ? tag.replace('_', '-') : language };
  }
  return { language: 'en', locale: 'en' };
}

/** The `lang` parameter of a query string (`?lang=es`), or `null`. */
export function languageOfQuery(search: string): string | null {
  return new URLSearchParams(search).get('lang');
}

function isValidLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag.replace('_', '-')).length === 1;
  } catch {
    return false;
  }
}
