import type { Context } from 'hono';

/**
 * What the page at `/` is: `customer`, the chat page a deployment's users see (no staff links, no
 * session id, no timings, no debug, no inspector); `developer`, the chat page with the pages' links,
 * the session, "Save as test", the tree and, in debug mode, the debug view (`treeagent dev`).
 */
export type WebView = 'customer' | 'developer';

/** The settings the web app reads before it draws anything: `GET /web-settings.json`. */
export interface WebSettings {
  view: WebView;
  /** The deployment's language (`locale` of `createApp`, `treeagent serve --locale`): the pages use it whatever the browser asks. */
  locale?: string;
  /** The assistant's name on the customer's chat page (its header, title and browser tab); default: the tree's name. */
  assistantName?: string;
}

/** The path of the web app's settings (beside `index.html`, not under `/api`: no API key needed). */
export const WEB_SETTINGS_PATH = '/web-settings.json';

/** Answers `GET /web-settings.json`; never cached, so a restart with another view shows at once. */
export function webSettingsResponse(c: Context, settings: WebSettings): Response {
  return c.json(settings, 200, { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
}
