import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, MiddlewareHandler } from 'hono';
import { isOpenAiPath } from '../errors/error-response.js';
import { checkLocale } from '../i18n/catalog-files.js';
import { WEB_SETTINGS_PATH, type WebView, webSettingsResponse } from './web-settings.js';

/** Options of the web page the server hosts (the web app is built into `dist/web`: `WEB_DIRECTORY`). */
export interface WebOptions {
  /** Directory of the page's static files; `/` serves its `index.html`. */
  directory: string;
  /**
   * The `Content-Security-Policy` of the HTML pages; `false` sends none (for a page of your own that
   * needs inline scripts). Default `WEB_CONTENT_SECURITY_POLICY`: scripts, styles and connections to
   * this origin only, images also from `blob:` (downloaded files) and `data:`, no framing.
   */
  contentSecurityPolicy?: string | false;
  /**
   * What `/` shows: `customer`, the chat page for a deployment's users (no staff links, ids, timings
   * or debug; the staff pages stay under `/staff/` behind their login), or `developer`, the chat page
   * with the pages' links, the session and the inspector. Default `developer` in debug mode (and
   * `treeagent dev`), `customer` otherwise (`treeagent serve`).
   */
  view?: WebView;
  /** The pages' language whatever the browser asks (default: `createApp`'s `locale`; else `?lang=`, the browser, English). */
  locale?: string;
  /**
   * The assistant's name customers read on the chat page (header, title, browser tab), such as
   * "Ciclofficina Rossi"; default: the tree's name, which is an identifier (`bike-shop`).
   */
  assistantName?: string;
}

/** The default CSP of the web page: everything from this origin only; the app needs nothing else. */
export const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Files under `/assets/` carry a content hash in their name (Vite's build): cached for a year. */
const IMMUTABLE = /^\/assets\//;

/**
 * Serves the web page's static files (GET and HEAD), `/` being `index.html`. Requests under `/api`
 * and `/v1` never reach the files; paths with `..` are refused by `serveStatic`.
 *
 * - Hashed assets (`/assets/*`) are cached for a year (`immutable`); everything else, `index.html`
 *   first, is revalidated on each load (`no-cache`), so a new build shows at once.
 * - A browser navigation to a path that is no file (`/tree`, any page of the app's router) gets
 *   `index.html`, so every page of the app loads from its own URL; when the directory has no
 *   `index.html` (the app was not built), a 503 that says how to build it.
 * - HTML answers carry the Content-Security-Policy, `X-Content-Type-Options: nosniff` and
 *   `Referrer-Policy: same-origin`.
 */
export function webPage(options: WebOptions): MiddlewareHandler {
  const view = options.view ?? 'customer';
  const locale = options.locale === undefined ? undefined : checkLocale(options.locale, 'web.locale');
  const assistantName = options.assistantName?.trim().slice(0, 80) || undefined;
  const root = resolve(options.directory);
  const policy = options.contentSecurityPolicy ?? WEB_CONTENT_SECURITY_POLICY;
  const files = serveStatic({ root, index: 'index.html' });
  const page = serveStatic({ root, path: 'index.html' });
  const withHeaders = (response: Response, path: string) => {
    const headers = response.headers;
    headers.set('Cache-Control', IMMUTABLE.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    headers.set('X-Content-Type-Options', 'nosniff');
    if ((headers.get('Content-Type') ?? '').startsWith('text/html')) {
      if (policy) headers.set('Content-Security-Policy', policy);
      headers.set('Referrer-Policy', 'same-origin');
    }
    return response;
  };
  return async (c, next) => {
    const path = c.req.path;
    if (path === '/api' || path.startsWith('/api/') || isOpenAiPath(path)) return next();
    if (path === WEB_SETTINGS_PATH && c.req.method === 'GET')
      return webSettingsResponse(c, {
        view,
        ...(locale ? { locale } : {}),
        ...(assistantName ? { assistantName } : {}),
      });
    let missing = false;
    const found = await files(c, async () => {
      missing = true;
    });
    if (!missing && found) return withHeaders(found, path);
    if (!isNavigation(c)) return next();
    if (!existsSync(join(root, 'index.html'))) {
      return c.text(
        `The web app is not built: ${root} has no index.html. Build it with \`npm run build:web\` at the root of the Tree Agent repository (npm start does), or pass web: { directory } a folder that has one.`,
        503,
        { 'Cache-Control': 'no-store' },
      );
    }
    missing = false;
    const index = await page(c, async () => {
      missing = true;
    });
    return !missing && index ? withHeaders(index, path) : next();
  };
}

/** A browser loading a page: GET or HEAD, asking for HTML, for a path whose last segment has no extension. */
function isNavigation(c: Context): boolean {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return false;
  if (!(c.req.header('accept') ?? '').includes('text/html')) return false;
  const last = c.req.path.split('/').at(-1) ?? '';
  return !last.includes('.');
}
