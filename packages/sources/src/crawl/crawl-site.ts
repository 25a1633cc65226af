import { createHash } from 'node:crypto';
import { TreeAgentError } from '@treeagent/core';
import type { IngestDocument } from '@treeagent/core/ingest';
import { readHtml } from '../documents/read-html.js';
import {
  type FetchedResponse,
  PoliteFetcher,
  type PolitenessOptions,
  type Validators,
} from './polite-fetcher.js';
import { ALLOW_ALL, parseRobots, type RobotsRules } from './robots.js';
import { parseSitemap } from './sitemap.js';
import { userAgent as defaultUserAgent } from './user-agent.js';

/** What to crawl and how (docs/knowledge.md, "Websites"). */
export interface CrawlOptions extends Omit<PolitenessOptions, 'userAgent'> {
  /** `crawl`: follow links from `start`; `sitemap`: read the pages `start` (a sitemap or sitemap index) lists. */
  mode: 'crawl' | 'sitemap';
  start: string;
  /** Pages stored at most. Default 200. */
  maxPages?: number;
  /** Links followed from the start page at most this deep (crawl mode). Default 5. */
  maxDepth?: number;
  /**
   * Only pages whose path (with its query) matches one of these are stored (others are still
   * followed for their links). `*` matches anything; a pattern matches from the start of the path.
   */
  include?: readonly string[];
  /** Pages whose path matches one of these are neither stored nor followed. */
  exclude?: readonly string[];
  /** Other hosts that count as the same site (default: only the start URL's host). */
  hosts?: readonly string[];
  /** The page or mailto: in the user agent (`TreeAgent-Sources/<version> (+contact)`). */
  contact?: string;
  /** Keep only each page's main content (Readability). Default true. */
  mainContent?: boolean;
  /**
   * Pages stored by the previous refresh (by URL): they are asked for again with their validators
   * (`If-None-Match`, `If-Modified-Since`) and their content hash compared, even when no link
   * reaches them any more (in crawl mode), so a removed page is seen as removed (404/410).
   */
  previous?: ReadonlyMap<string, Validators & { contentHash: string }>;
  /** Called for each page as it is read (one at a time, in the order they complete). */
  onPage(page: CrawledPage): Promise<void>;
}

/** One page's outcome. `url` is its canonical URL (the `<link rel=canonical>` or where redirects ended). */
export type CrawledPage =
  | {
      kind: 'changed';
      url: string;
      title: string;
      document: IngestDocument;
      etag: string | null;
      lastModified: string | null;
      contentHash: string;
    }
  | { kind: 'unchanged'; url: string; etag: string | null; lastModified: string | null };

/** What a crawl did besides the pages it handed over. */
export interface CrawlReport {
  /** Canonical URLs of the pages handed over (changed or unchanged). */
  pages: string[];
  /** Pages that could not be read this time (5xx, timeouts, too big): the previous copy stays. */
  failed: { url: string; reason: string }[];
  /** Pages not stored, and why: robots.txt, a pattern, a duplicate, noindex, gone (404/410), not HTML, the page limit. */
  skipped: { url: string; reason: string }[];
}

/**
 * Crawls one website politely: robots.txt first (a site whose robots.txt cannot be read because of
 * a server error is not crawled), then from the start URL or the sitemap, within the limits,
 * patterns and site; duplicate pages (same canonical URL or same text) are stored once. Fails with
 * `INVALID_INPUT` when the start URL, the sitemap or robots.txt cannot be read at all, before any
 * page is handed over, so the caller keeps what it had.
 */
export async function crawlSite(options: CrawlOptions): Promise<CrawlReport> {
  const start = new URL(options.start);
  start.hash = '';
  const hosts = new Set([start.host, ...(options.hosts ?? [])]);
  const inSite = (url: URL) => hosts.has(url.host) && (url.protocol === 'http:' || url.protocol === 'https:');
  const agent = defaultUserAgent(options.contact);
  const fetcher = new PoliteFetcher({ ...options, userAgent: agent });
  const maxPages = options.maxPages ?? 200;
  const maxDepth = options.maxDepth ?? 5;
  const include = (options.include ?? []).map(globOf);
  const exclude = (options.exclude ?? []).map(globOf);
  const pathOf = (url: URL) => `${url.pathname}${url.search}`;
  const excluded = (url: URL) => exclude.some((pattern) => pattern.test(pathOf(url)));
  const included = (url: URL) => !include.length || include.some((pattern) => pattern.test(pathOf(url)));
  const report: CrawlReport = { pages: [], failed: [], skipped: [] };
  const stored = new Set<string>();
  const hashes = new Map<string, string>();
  const visited = new Set<string>();
  const robotsByOrigin = new Map<string, RobotsRules>();

  const robotsOf = async (url: URL): Promise<RobotsRules> => {
    const known = robotsByOrigin.get(url.origin);
    if (known) return known;
    const response = await fetcher.get(`${url.origin}/robots.txt`, {}, inSite);
    if (response.status >= 500)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${url.origin}/robots.txt answered ${response.status}: the site is not crawled until its robots.txt can be read.`,
      );
    const rules = response.status >= 400 ? ALLOW_ALL : parseRobots(response.body, agent);
    if (rules.crawlDelay) fetcher.slowDown(url.host, Math.min(rules.crawlDelay, 30) * 1000);
    robotsByOrigin.set(url.origin, rules);
    return rules;
  };

  await robotsOf(start);
  let frontier = options.mode === 'sitemap' ? await sitemapPages(fetcher, start, inSite) : [start.href];
  for (const url of options.previous?.keys() ?? []) if (!frontier.includes(url)) frontier.push(url);

  const visit = async (href: string, depth: number): Promise<string[]> => {
    const url = new URL(href);
    url.hash = '';
    if (visited.has(url.href)) return [];
    visited.add(url.href);
    if (!inSite(url)) return [];
    if (excluded(url)) return skip(url.href, 'matches an exclude pattern');
    if (!(await robotsOf(url)).allows(pathOf(url))) return skip(url.href, 'disallowed by robots.txt');
    if (stored.size >= maxPages) return skip(url.href, `over the page limit (maxPages ${maxPages})`);
    const isStart = url.href === start.href && options.mode === 'crawl';
    let response: FetchedResponse;
    try {
      response = await fetcher.get(url.href, isStart ? {} : (options.previous?.get(url.href) ?? {}), inSite);
    } catch (error) {
      if (isStart) throw error;
      report.failed.push({ url: url.href, reason: (error as Error).message });
      return [];
    }
    visited.add(response.url);
    if (response.notModified) {
      if (stored.size >= maxPages) return skip(url.href, `over the page limit (maxPages ${maxPages})`);
      stored.add(url.href);
      report.pages.push(url.href);
      hashes.set(options.previous?.get(url.href)?.contentHash ?? url.href, url.href);
      await options.onPage({
        kind: 'unchanged',
        url: url.href,
        etag: response.etag,
        lastModified: response.lastModified,
      });
      return [];
    }
    if (response.status === 404 || response.status === 410)
      return skip(url.href, `gone (${response.status})`);
    if (response.status >= 400) {
      const reason = `${url.href} answered ${response.status}`;
      if (isStart)
        throw new TreeAgentError('INVALID_INPUT', `The start page ${reason}: nothing was crawled.`);
      report.failed.push({ url: url.href, reason });
      return [];
    }
    if (!/html/i.test(response.contentType))
      return skip(url.href, `not HTML (${response.contentType || 'no type'})`);
    // A page that cannot be read fails alone (its previous chunks stay), named with what was wrong.
    const unreadable = (reason: string): string[] => {
      if (isStart)
        throw new TreeAgentError('INVALID_INPUT', `The start page ${reason}: nothing was crawled.`);
      report.failed.push({ url: url.href, reason });
      return [];
    };
    if (!response.body.trim())
      return unreadable(`${url.href} answered ${response.status} with an empty body`);
    let page: ReturnType<typeof readHtml>;
    try {
      page = readHtml(response.body, {
        source: response.url,
        url: response.url,
        ...(options.mainContent === undefined ? {} : { mainContent: options.mainContent }),
      });
    } catch (error) {
      return unreadable(`${url.href} could not be read as HTML (${(error as Error).message})`);
    }
    const next =
      options.mode === 'crawl' && !page.nofollow && depth < maxDepth
        ? page.links.filter((link) => inSite(new URL(link)) && !visited.has(link))
        : [];
    const canonicalUrl =
      page.canonical && inSite(new URL(page.canonical)) ? page.canonical.replace(/#.*$/, '') : response.url;
    if (page.noindex) return skipAndFollow(url.href, 'noindex', next);
    if (!included(new URL(canonicalUrl))) return skipAndFollow(url.href, 'matches no include pattern', next);
    if (stored.has(canonicalUrl))
      return skipAndFollow(url.href, `duplicate of ${canonicalUrl} (canonical URL)`, next);
    const contentHash = createHash('sha256').update(page.document.text).digest('hex');
    const same = hashes.get(contentHash);
    if (same) return skipAndFollow(url.href, `duplicate of ${same} (same text)`, next);
    if (!page.document.text.trim()) return skipAndFollow(url.href, 'no text', next);
    if (stored.size >= maxPages) return skip(url.href, `over the page limit (maxPages ${maxPages})`);
    stored.add(canonicalUrl);
    visited.add(canonicalUrl);
    hashes.set(contentHash, canonicalUrl);
    report.pages.push(canonicalUrl);
    await options.onPage({
      kind: 'changed',
      url: canonicalUrl,
      title: page.title,
      document: { ...page.document, source: canonicalUrl, url: canonicalUrl },
      etag: response.etag,
      lastModified: response.lastModified,
      contentHash,
    });
    return next;
  };
  const skip = (url: string, reason: string): string[] => {
    report.skipped.push({ url, reason });
    return [];
  };
  const skipAndFollow = (url: string, reason: string, next: string[]): string[] => {
    report.skipped.push({ url, reason });
    return next;
  };

  const concurrency = Math.max(1, options.concurrency ?? 2);
  for (let depth = 0; frontier.length; depth++) {
    const next: string[] = [];
    for (let index = 0; index < frontier.length; index += concurrency) {
      const batch = frontier.slice(index, index + concurrency);
      for (const links of await Promise.all(batch.map((url) => visit(url, depth)))) next.push(...links);
    }
    frontier = [...new Set(next)].filter((url) => !visited.has(url));
  }
  return report;
}

async function sitemapPages(
  fetcher: PoliteFetcher,
  sitemap: URL,
  inSite: (url: URL) => boolean,
): Promise<string[]> {
  const pages: string[] = [];
  const queue = [sitemap.href];
  const read = new Set<string>();
  while (queue.length && read.size < 50) {
    const url = queue.shift()!;
    if (read.has(url)) continue;
    read.add(url);
    const response = await fetcher.get(url, {}, inSite);
    if (response.status >= 400)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `The sitemap ${url} answered ${response.status}: nothing was read.`,
      );
    const parsed = parseSitemap(response.body);
    if (!parsed.pages.length && !parsed.sitemaps.length)
      throw new TreeAgentError(
        'INVALID_INPUT',
        `${url} is not a sitemap (no <url><loc> nor <sitemap><loc>): give the sitemap's URL, or crawl the site instead.`,
      );
    queue.push(...parsed.sitemaps);
    for (const page of parsed.pages) {
      try {
        const target = new URL(page.url);
        if (inSite(target)) pages.push(target.href.replace(/#.*$/, ''));
      } catch {
        // A <loc> that is not a URL is left out.
      }
    }
  }
  return [...new Set(pages)];
}

function globOf(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}`,
  );
}
