import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TreeAgentError } from '@treeagent/core';

/**
 * The deployment's language of `treeagent serve` and `dev` (docs/languages.md): `--locale`, else the
 * `locale` key of the configuration (`--config`, else `treeagent.config.json` beside the tree), else
 * none (each page then follows `?lang=` and the browser). The server checks that it has catalogs.
 */
export function deploymentLocale(
  flag: string | undefined,
  treePath: string,
  config?: string,
): string | undefined {
  if (flag !== undefined) return flag;
  const path = config ?? join(dirname(treePath), 'treeagent.config.json');
  if (!existsSync(path)) return undefined;
  let locale: unknown;
  try {
    locale = (JSON.parse(readFileSync(path, 'utf8')) as { locale?: unknown }).locale;
  } catch {
    return undefined; // The model configuration's reader reports a file that is not JSON.
  }
  if (locale === undefined) return undefined;
  if (typeof locale !== 'string' || locale.trim() === '')
    throw new TreeAgentError(
      'INVALID_INPUT',
      `${path}: "locale" must be a language such as "it" or "en", got ${JSON.stringify(locale)}.`,
    );
  return locale.trim();
}

/** `{ locale }` for `serve()` when there is one, `{}` otherwise. */
export function localeOption(locale: string | undefined): { locale?: string } {
  return locale === undefined ? {} : { locale };
}
