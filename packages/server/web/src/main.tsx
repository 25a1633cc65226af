import { render } from 'preact';
import { ApiClient } from './api/api-client';
import { loadWebSettings } from './api/web-settings';
import { App } from './app/app';
import { LANGUAGES } from './i18n/catalogs';
import { setLocale } from './i18n/i18n';
import { chooseLocale, languageOfQuery } from './i18n/locale-choice';
import './styles.css';

// The language before anything is drawn: the deployment's, then ?lang=, then the browser's, then English.
const settings = await loadWebSettings();
const { language, locale } = chooseLocale(
  [settings.locale, languageOfQuery(location.search), navigator.languages],
  LANGUAGES,
);
setLocale(language, locale);

render(<App api={new ApiClient()} />, document.getElementById('root')!);
