import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const LOCALES = new URL('../../locales/', import.meta.url);
/** Every language with a widget catalog (the widget bundles them all). */
const LANGUAGES = readdirSync(LOCALES).filter((language) =>
  existsSync(new URL(`${language}/widget.json`, LOCALES)),
);

function catalog(language: string): Record<string, unknown> {
  return JSON.parse(
    readFileSync(new URL(`../../locales/${language}/widget.json`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((match) => match[1]).sort();

describe("the widget's catalogs (locales/<lng>/widget.json)", () => {
  it('are flat, and every language has every key, with the same {{placeholders}}', () => {
    expect(LANGUAGES).toEqual(expect.arrayContaining(['en', 'it', 'es']));
    const english = catalog('en');
    for (const language of LANGUAGES) {
      const texts = catalog(language);
      expect(Object.keys(texts).sort(), language).toEqual(Object.keys(english).sort());
      for (const [key, text] of Object.entries(texts)) {
        expect(typeof text, `${language}: ${key}`).toBe('string');
        expect(placeholders(text as string), `${language}: ${key}`).toEqual(
          placeholders(english[key] as string),
        );
      }
    }
  });
});
