import { describe, expect, test } from 'vitest';
import { page, TestSite } from '../test-support/test-site.js';
import { checkAddress, isInternalAddress } from './address-guard.js';
import { PoliteFetcher } from './polite-fetcher.js';
import { parseRobots } from './robots.js';
import { parseSitemap } from './sitemap.js';

describe('robots.txt', () => {
  const robots = parseRobots(
    'User-agent: *\nDisallow: /\n\nUser-agent: TreeAgent-Sources\nUser-agent: other\nDisallow: /search\nAllow: /search/help$\nDisallow: /*.pdf$\nCrawl-delay: 2\nSitemap: https://help.example/sitemap.xml',
    'TreeAgent-Sources/0.1.0 (+mailto:a@b.example)',
  );
  test("the crawler's own group applies, the longest rule wins, * and $ are wildcards", () => {
    expect(robots.allows('/returns')).toBe(true);
    expect(robots.allows('/search?q=bike')).toBe(false);
    expect(robots.allows('/search/help')).toBe(true);
    expect(robots.allows('/search/help/more')).toBe(false);
    expect(robots.allows('/files/manual.pdf')).toBe(false);
    expect(robots.crawlDelay).toBe(2);
    expect(robots.sitemaps).toEqual(['https://help.example/sitemap.xml']);
  });
  test('another crawler falls under *', () => {
    expect(parseRobots('User-agent: *\nDisallow: /', 'TreeAgent-Sources/0.1.0').allows('/x')).toBe(false);
    expect(parseRobots('User-agent: Googlebot\nDisallow: /', 'TreeAgent-Sources/0.1.0').allows('/x')).toBe(
      true,
    );
  });
});

test('a sitemap index and a urlset', () => {
  expect(
    parseSitemap('<sitemapindex><sitemap><loc>https://a.example/s1.xml</loc></sitemap></sitemapindex>'),
  ).toEqual({
    pages: [],
    sitemaps: ['https://a.example/s1.xml'],
  });
  expect(
    parseSitemap(
      '<urlset><url><loc> https://a.example/?a=1&amp;b=2 </loc><lastmod>2026-12-01</lastmod></url><url><loc>https://a.example/x</loc></url></urlset>',
    ),
  ).toEqual({
    pages: [
      { url: 'https://a.example/?a=1&b=2', lastModified: '2026-12-01' },
      { url: 'https://a.example/x', lastModified: null },
    ],
    sitemaps: [],
  });
});

describe('SSRF guard', () => {
  test('internal ranges, IPv4 and IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(isInternalAddress(address), address).toBe(true);
    for (const address of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111'])
      expect(isInternalAddress(address), address).toBe(false);
  });
  test('IPv6 forms that embed an internal IPv4 address are internal, hex or dotted', () => {
    for (const address of [
      '::ffff:7f00:1', // ::ffff:127.0.0.1 as the URL parser writes it
      '::ffff:a9fe:a9fe', // metadata 169.254.169.254
      '0:0:0:0:0:ffff:7f00:1',
      '::7f00:1', // IPv4-compatible ::127.0.0.1
      '::127.0.0.1',
      '::a9fe:a9fe',
      '::ffff:0:7f00:1', // IPv4-translated
      '64:ff9b::7f00:1', // NAT64
      '64:ff9b::169.254.169.254',
      '64:ff9b::a00:1', // NAT64 of 10.0.0.1
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '2002:a9fe:a9fe::1',
      '2002:c0a8:101::1', // 6to4 of 192.168.1.1
      '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1
      'fec0::1',
      'ff02::1',
      'not-an-address',
    ])
      expect(isInternalAddress(address), address).toBe(true);
    for (const address of ['::ffff:808:808', '64:ff9b::808:808', '2002:808:808::1', '2001:4860:4860::8888'])
      expect(isInternalAddress(address), address).toBe(false);
  });
  test('a URL with a mapped or NAT64 IPv6 literal of an internal address is refused', async () => {
    for (const href of [
      'http://[::ffff:127.0.0.1]:3922/',
      'http://[::ffff:169.254.169.254]/latest/meta-data/',
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://[2002:7f00:1::]/',
    ])
      await expect(checkAddress(new URL(href)), href).rejects.toThrow(/internal address/);
  });
  test('a name that resolves to loopback is refused; a non-http scheme too', async () => {
    await expect(checkAddress(new URL('http://localhost:8080/'))).rejects.toThrow(/internal address/);
    await expect(checkAddress(new URL('file:///etc/passwd'))).rejects.toThrow(/not an http\(s\) URL/);
    await expect(
      checkAddress(new URL('http://localhost/'), { allowPrivateHosts: ['localhost'] }),
    ).resolves.toBeUndefined();
  });
  test('a redirect to an internal address is refused at the hop', async () => {
    const site = await new TestSite().start();
    try {
      site.set('/go', { status: 302, location: 'http://169.254.169.254/latest/meta-data/' });
      const fetcher = new PoliteFetcher({
        userAgent: 'TreeAgent-Sources/0 (+test)',
        allowPrivateHosts: ['127.0.0.1'],
        delayMs: 0,
      });
      await expect(fetcher.get(`${site.origin}/go`)).rejects.toThrow(/169\.254\.169\.254.*internal address/);
    } finally {
      await site.stop();
    }
  });
});

test('politeness: one host gets at most `concurrency` requests at once, their starts `delayMs` apart', async () => {
  const site = await new TestSite().start();
  try {
    for (let index = 0; index < 6; index++) site.set(`/p${index}`, page(`P${index}`, { A: 'text' }));
    const fetcher = new PoliteFetcher({
      userAgent: 'TreeAgent-Sources/0 (+test)',
      allowPrivateHosts: ['127.0.0.1'],
      delayMs: 60,
      concurrency: 1,
    });
    await Promise.all(Array.from({ length: 6 }, (_, index) => fetcher.get(`${site.origin}/p${index}`)));
    const starts = site.requests.map((request) => request.at).sort((a, b) => a - b);
    // Arrival times at the server jitter on a busy machine; the span of six starts 60 ms apart does not shrink.
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(250);
  } finally {
    await site.stop();
  }
});

test('a page over maxBytes is refused with the limit named', async () => {
  const site = await new TestSite().start();
  try {
    site.set('/big', page('Big', { A: 'x'.repeat(5000) }));
    const fetcher = new PoliteFetcher({
      userAgent: 'TreeAgent-Sources/0 (+test)',
      allowPrivateHosts: ['127.0.0.1'],
      delayMs: 0,
      maxBytes: 1000,
    });
    await expect(fetcher.get(`${site.origin}/big`)).rejects.toThrow(
      /over the limit of 1000 bytes \(maxBytes\)/,
    );
  } finally {
    await site.stop();
  }
});

test("a page is decoded by its charset: the Content-Type header's, else <meta charset>, else UTF-8", async () => {
  const site = await new TestSite().start();
  try {
    const latin1 = (html: string) => Buffer.from(html, 'latin1');
    site.set('/header', {
      html: latin1('<p>Caffè à la crème, 5 €uro</p>'.replace('€', 'E')),
      type: 'text/html; charset=iso-8859-1',
    });
    site.set('/meta', {
      html: latin1(
        '<html><head><meta charset="iso-8859-1"><title>Ñandú</title></head><body>Ñandú</body></html>',
      ),
      type: 'text/html',
    });
    site.set('/http-equiv', {
      html: latin1(
        '<html><head><meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"></head><body>año</body></html>',
      ),
      type: 'text/html',
    });
    site.set('/utf8', { html: '<p>Caffè ☕</p>', type: 'text/html' });
    site.set('/unknown', { html: '<p>Caffè</p>', type: 'text/html; charset=no-such-charset' });
    const fetcher = new PoliteFetcher({
      userAgent: 'TreeAgent-Sources/0 (+test)',
      allowPrivateHosts: ['127.0.0.1'],
      delayMs: 0,
    });
    expect((await fetcher.get(`${site.origin}/header`)).body).toBe('<p>Caffè à la crème, 5 Euro</p>');
    expect((await fetcher.get(`${site.origin}/meta`)).body).toContain('<body>Ñandú</body>');
    expect((await fetcher.get(`${site.origin}/http-equiv`)).body).toContain('<body>año</body>');
    expect((await fetcher.get(`${site.origin}/utf8`)).body).toBe('<p>Caffè ☕</p>');
    expect((await fetcher.get(`${site.origin}/unknown`)).body).toBe('<p>Caffè</p>');
  } finally {
    await site.stop();
  }
});
