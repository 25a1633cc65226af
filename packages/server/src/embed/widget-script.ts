import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'hono';

/**
 * The folder of the built widget (`widget.js`, `widget.mjs`): `packages/server/dist/widget`, built
 * from `packages/server/widget` by `npm run build:widget` and published with the package.
 */
export const WIDGET_DIRECTORY = fileURLToPath(new URL('../../dist/widget/', import.meta.url));

const FILES = { '/widget.js': 'widget.js', '/widget.mjs': 'widget.mjs' } as const;

/** What the built widget holds where the deployment's locale goes (`widget-i18n.ts`). */
const LOCALE_PLACEHOLDER = '__TREEAGENT_DEPLOYMENT_LOCALE__';

/** The paths the server serves the widget at. */
export const WIDGET_PATHS = Object.keys(FILES) as (keyof typeof FILES)[];

/**
 * Serves the widget's script: any site may load it (`Access-Control-Allow-Origin: *`, needed by
 * `import()` of the module; `Cross-Origin-Resource-Policy: cross-origin`); cached for an hour and
 * then revalidated by its `ETag` (the URL carries no version, so an update shows within the hour).
 * A server whose widget was not built answers 503 saying how to build it. With `locale` (the
 * deployment's language, BCP 47) the script speaks it unless the site chooses another.
 */
export function widgetScript(
  directory: string = WIDGET_DIRECTORY,
  locale?: string,
): (c: Context) => Response {
  if (locale !== undefined) checkLocale(locale);
  const cache = new Map<string, { body: string; etag: string }>();
  return (c) => {
    const name = FILES[c.req.path as keyof typeof FILES];
    let file = cache.get(name);
    if (!file) {
      let body: string;
      try {
        body = readFileSync(join(directory, name), 'utf8');
      } catch {
        return c.text(
          `The widget is not built: ${join(directory, name)} is missing. Build it with \`npm run build:widget -w @treeagent/server\` at the root of the Tree Agent repository.`,
          503,
          { 'Cache-Control': 'no-store' },
        );
      }
      if (locale) body = body.replaceAll(LOCALE_PLACEHOLDER, locale);
      file = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
      cache.set(name, file);
    }
    const headers = {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600, must-revalidate',
      ETag: file.etag,
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
    };
    if (c.req.header('if-none-match') === file.etag) return c.body(null, 304, headers);
    return c.body(file.body, 200, headers);
  };
}

/** A BCP 47 language tag the widget can use (`it`, `it-IT`, `pt-BR`), or a TypeError saying so. */
function checkLocale(locale: string): void {
  let canonical: string[] = [];
  try {
    canonical = Intl.getCanonicalLocales(locale);
  } catch {}
  if (canonical.length !== 1 || !/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(locale))
    throw new TypeError(
      `The widget's locale "${locale}" is not a language tag: write one like "it" or "it-IT" (treeagent serve --widget-locale, or the server option widget.locale).`,
    );
}
