import type { LocalizedText } from '../protocol/localized-text.js';

/** A language code: a BCP 47 primary tag, optionally with a region or script (`it`, `en`, `pt-BR`). */
export const LANGUAGE_CODE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** True for a per-language text object (`{ it, en }`), false for a plain string or anything else. */
export function isLocalizedObject(value: unknown): value is { readonly [language: string]: string } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The text to send in `language`: the text itself when it is a string; otherwise the session's
 * language, then `fallback` (the tree's default language), then the first non-empty text of the
 * object. Empty texts are skipped, so a half-translated tree never sends an empty message.
 *
 * @example
 * textIn({ it: 'Ciao!', en: 'Hi!' }, 'en', 'it'); // 'Hi!'
 * textIn({ it: 'Ciao!' }, 'en', 'it'); // 'Ciao!'
 */
export function textIn(text: LocalizedText, language: string | null, fallback: string | null): string {
  if (typeof text === 'string') return text;
  for (const code of [language, fallback]) {
    if (code === null) continue;
    const exact = text[code];
    if (exact) return exact;
    const base = code.split('-')[0]!;
    if (text[base]) return text[base];
  }
  for (const value of Object.values(text)) if (value) return value;
  return '';
}

/**
 * The declared language that a requested locale (`it-IT`, `en`, `EN-gb`) stands for: the exact code,
 * else the same primary language; `null` when the tree does not speak it.
 */
export function matchLanguage(locale: string, languages: readonly string[]): string | null {
  const wanted = locale.trim().replace(/_/g, '-').toLowerCase();
  const exact = languages.find((language) => language.toLowerCase() === wanted);
  if (exact) return exact;
  const base = wanted.split('-')[0];
  return languages.find((language) => language.toLowerCase().split('-')[0] === base) ?? null;
}
