import type { Context } from 'hono';
import { catalogLanguages } from './catalog-files.js';

/**
 * The language of a request's customer-visible messages: the deployment's setting when there is
 * one, else the first language of the request's `Accept-Language` (by weight) that has catalogs,
 * else `en`. The web app sends the language it shows in `Accept-Language`.
 */
export function requestLanguage(c: Context, deployment?: string): string {
  const languages = catalogLanguages();
  const candidates = [deployment, ...acceptedLanguages(c.req.header('accept-language') ?? '')];
  for (const candidate of candidates) {
    const language = candidate?.split(/[-_]/)[0]?.toLowerCase();
    if (language && languages.includes(language)) return language;
  }
  return 'en';
}

/** The tags of an `Accept-Language` header, highest weight first. */
export function acceptedLanguages(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.trim(), weight: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);
}
