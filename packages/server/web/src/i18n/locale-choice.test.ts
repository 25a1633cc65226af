import { describe, expect, it } from 'vitest';
import { chooseLocale, languageOfQuery } from './locale-choice';

const AVAILABLE = ['en', 'es', 'it'];

describe('the page’s language', () => {
  it('takes the deployment’s setting first, over the page’s ?lang= and the browser', () => {
    expect(chooseLocale(['it', 'es', ['en-US']], AVAILABLE)).toEqual({ language: 'it', locale: 'it' });
  });

  it('takes ?lang= when the deployment sets none, then the browser’s languages in order', () => {
    expect(chooseLocale([undefined, 'es', ['it-IT']], AVAILABLE)).toEqual({ language: 'es', locale: 'es' });
    expect(chooseLocale([undefined, null, ['de-DE', 'it-IT', 'en']], AVAILABLE)).toEqual({
      language: 'it',
      locale: 'it-IT',
    });
  });

  it('falls back to English when no candidate has catalogs', () => {
    expect(chooseLocale([undefined, 'xx', ['de-DE', 'fr']], AVAILABLE)).toEqual({
      language: 'en',
      locale: 'en',
    });
  });

  it('reads lang from the query string', () => {
    expect(languageOfQuery('?lang=es&x=1')).toBe('es');
    expect(languageOfQuery('')).toBeNull();
  });
});
