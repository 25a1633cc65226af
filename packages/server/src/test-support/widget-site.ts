import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A site on its own origin that embeds the widget under a strict Content-Security-Policy. */
export interface WidgetSite {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Starts a site on its own origin: one page that embeds the widget (`/`, `?locale=it` adds
 * `data-locale="it"` to the tag, `?lang=it` sets the page's `lang`) under a strict CSP (no inline
 * script or style, no eval; scripts and connections only from the site and the agent), and
 * `/site.js`, which records CSP violations in `window.__violations`.
 */
export async function startWidgetSite(agentUrlOf: () => string): Promise<WidgetSite> {
  const server = createServer((request, response) => {
    const agentUrl = agentUrlOf();
    const url = new URL(request.url ?? '/', 'http://site');
    if (url.pathname === '/site.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript' });
      response.end(
        "window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));",
      );
      return;
    }
    const policy = [
      "default-src 'none'",
      `script-src 'self' ${agentUrl}`,
      `connect-src ${agentUrl}`,
      "style-src 'self'",
      "img-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; ');
    const tag = (name: string) => {
      const value = url.searchParams.get(name);
      return value && /^[A-Za-z-]+$/.test(value) ? value : null;
    };
    const locale = tag('locale');
    response.writeHead(200, {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': policy,
    });
    response.end(`<!doctype html>
<html lang="${tag('lang') ?? 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Ciclofficina Rossi</title>
<script src="/site.js"></script></head>
<body><main><h1>Ciclofficina Rossi</h1><p>Bikes repaired in a day.</p><a href="#top">Top</a></main>
<script src="${agentUrl}/widget.js" data-name="Ciclofficina" data-accent="#7a1f5c"${locale ? ` data-locale="${locale}"` : ''}></script>
</body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
