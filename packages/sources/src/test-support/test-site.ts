import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A response of the test site: a page's HTML, or a status (a redirect's Location in `location`). */
export type SiteResponse =
  | { html: string | Uint8Array; type?: string }
  | { status: number; location?: string; body?: string };

/** One request the site received. */
export interface SiteRequest {
  path: string;
  headers: IncomingHttpHeaders;
  at: number;
  status: number;
}

/**
 * A real HTTP site on 127.0.0.1 for the crawler's tests: pages a test can change, remove or break
 * between two refreshes, ETag and Last-Modified with 304s, and a log of every request.
 */
export class TestSite {
  readonly routes = new Map<string, SiteResponse>();
  readonly requests: SiteRequest[] = [];
  #server: Server | null = null;
  origin = '';

  async start(): Promise<this> {
    this.#server = createServer((request, response) => {
      const path = request.url ?? '/';
      const route = this.routes.get(path);
      const log = (status: number) =>
        this.requests.push({ path, headers: request.headers, at: Date.now(), status });
      if (!route) {
        log(404);
        response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      if ('status' in route) {
        log(route.status);
        response
          .writeHead(route.status, {
            'content-type': 'text/plain',
            ...(route.location ? { location: route.location } : {}),
          })
          .end(route.body ?? '');
        return;
      }
      const etag = `"${createHash('sha256').update(route.html).digest('hex').slice(0, 16)}"`;
      if (request.headers['if-none-match'] === etag) {
        log(304);
        response.writeHead(304, { etag }).end();
        return;
      }
      log(200);
      response
        .writeHead(200, {
          'content-type': route.type ?? 'text/html; charset=utf-8',
          etag,
          'last-modified': 'Sun, 06 Dec 2026 08:00:00 GMT',
        })
        .end(route.html);
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.#server!.address() as AddressInfo).port}`;
    return this;
  }

  /** Sets a page: `page(title, body, extraHead)` builds a small HTML document. */
  set(path: string, response: SiteResponse): void {
    this.routes.set(path, response);
  }

  requestsFor(path: string): SiteRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}

/** A help-center page: navigation and footer around an article with a title and sections. */
export function page(
  title: string,
  sections: Record<string, string>,
  options: { head?: string; links?: string[] } = {},
): { html: string } {
  const nav = (options.links ?? []).map((href) => `<a href="${href}">${href}</a>`).join(' ');
  const body = Object.entries(sections)
    .map(
      ([heading, text]) =>
        `<h2 id="${heading.toLowerCase().replace(/[^a-z0-9]+/g, '-')}">${heading}</h2><p>${text}</p>`,
    )
    .join('\n');
  return {
    html: `<!doctype html><html><head><title>${title} | Bike Shop Help</title>${options.head ?? ''}</head><body>
<nav>${nav}</nav><main><article><h1>${title}</h1>${body}</article></main>
<footer><p>Bike Shop S.r.l. · VAT 01234567890 · cookie settings</p></footer></body></html>`,
  };
}

/** Builds the standard test help center on `site` (docs/knowledge.md's test site). */
export function helpCenter(site: TestSite, docsPages = 12): void {
  const docs = Array.from({ length: docsPages }, (_, index) => `/docs/page-${index + 1}`);
  const links = [
    '/returns',
    '/shipping',
    '/old-warranty',
    '/returns?ref=nav',
    '/returns-copy',
    '/private/secret',
    '/drafts/plan',
    '/changing',
    '/vanishing',
    '/broken',
    'https://example.com/elsewhere',
    '/docs/',
  ];
  site.set('/robots.txt', {
    html: 'User-agent: *\nDisallow: /private/\n\nUser-agent: TreeAgent-Sources\nDisallow: /private/\nDisallow: /drafts/\n',
    type: 'text/plain',
  });
  site.set(
    '/',
    page(
      'Help center',
      { Welcome: 'Find answers about returns, shipping and the warranty of your bike.' },
      { links },
    ),
  );
  const returns = {
    'Returning a bike':
      'Any bike can be returned within 30 days of delivery, unused and in its original box.',
    Refunds:
      'The refund reaches the card you paid with within 14 days of the return arriving at the warehouse.',
  };
  site.set(
    '/returns',
    page('Returns', returns, { head: `<link rel="canonical" href="${site.origin}/returns">`, links: ['/'] }),
  );
  site.set(
    '/returns?ref=nav',
    page('Returns', returns, { head: `<link rel="canonical" href="${site.origin}/returns">` }),
  );
  site.set('/returns-copy', page('Returns', returns));
  site.set(
    '/shipping',
    page('Shipping', { Costs: 'Shipping costs 9 euros in Italy and is free above 500 euros.' }),
  );
  site.set('/old-warranty', { status: 301, location: '/warranty' });
  site.set(
    '/warranty',
    page('Warranty', { Coverage: 'Every frame has a five-year warranty against manufacturing defects.' }),
  );
  site.set('/private/secret', page('Secret', { Secret: 'Internal pricing that robots.txt keeps out.' }));
  site.set('/drafts/plan', page('Draft', { Plan: 'A draft the crawler group of robots.txt keeps out.' }));
  site.set('/changing', page('Opening hours', { Hours: 'The shop opens at 9 and closes at 18.' }));
  site.set('/vanishing', page('Winter sale', { Sale: 'Winter sale: helmets at half price until January.' }));
  site.set('/broken', { status: 500, body: 'database down' });
  site.set('/docs/', page('Manuals', { Index: 'All the bike manuals.' }, { links: docs }));
  for (const [index, path] of docs.entries())
    site.set(
      path,
      page(`Manual ${index + 1}`, {
        Maintenance: `Manual number ${index + 1}: oil the chain of model ${index + 1} every ${index + 2} weeks.`,
      }),
    );
  site.set('/sitemap.xml', {
    html: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[
      '/returns',
      '/shipping',
      '/drafts/plan',
      '/warranty',
    ]
      .map((path) => `<url><loc>${site.origin}${path}</loc><lastmod>2026-12-01</lastmod></url>`)
      .join('')}</urlset>`,
    type: 'application/xml',
  });
}
