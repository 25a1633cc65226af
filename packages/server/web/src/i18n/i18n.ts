import i18next from 'i18next';
import { CATALOGS } from './catalogs';

/**
 * The app's one i18next instance, initialised synchronously with every catalog (they are bundled)
 * in English; `setLocale` switches it before the app renders (`main.tsx`).
 */
export const i18n = i18next.createInstance();
void i18n.init({
  resources: CATALOGS,
  lng: 'en',
  fallbackLng: 'en',
  defaultNS: 'common',
  initAsync: false,
  // Preact escapes text; escaping here would show `&amp;` to the user.
  interpolation: { escapeValue: false },
  returnNull: false,
});

let intlLocale = 'en';

/** Switches the interface to `language`, formatting with `locale` (`it-IT`), and sets `<html lang>`. */
export function setLocale(language: string, locale: string = language): void {
  void i18n.changeLanguage(language);
  intlLocale = locale;
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/** The locale dates, times and numbers are formatted in (`Intl`). */
export function currentLocale(): string {
  return intlLocale;
}
