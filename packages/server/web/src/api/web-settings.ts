import type { WebSettings } from '../../../src/web-app/web-settings';

export type { WebSettings };

/**
 * The server's settings of the web app (`GET /web-settings.json`, beside `index.html`). When they
 * cannot be read, the page shows the customer's view: it reveals nothing a user should not see.
 */
export async function loadWebSettings(): Promise<WebSettings> {
  try {
    const response = await fetch('/web-settings.json', { headers: { Accept: 'application/json' } });
    if (!response.ok) return { view: 'customer' };
    const settings = (await response.json()) as Partial<WebSettings>;
    return {
      view: settings.view === 'developer' ? 'developer' : 'customer',
      ...(typeof settings.locale === 'string' ? { locale: settings.locale } : {}),
      ...(typeof settings.assistantName === 'string' ? { assistantName: settings.assistantName } : {}),
    };
  } catch {
    return { view: 'customer' };
  }
}
