import { defineTree, HashedEmbedder } from '@treeagent/core';
import type { SourceStore, VectorStore } from '@treeagent/core/adapter';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addSource, removeSource, searchSources } from '../knowledge/manage-sources.js';
import { refreshSource } from '../knowledge/refresh-source.js';
import type { SourcesContext } from '../knowledge/sources-context.js';
import { helpCenter, page, TestSite } from './test-site.js';

/** The stores a scenario writes to, on a fresh database. */
export interface ScenarioStores {
  vectorStore: VectorStore;
  sourceStore: SourceStore;
  close(): Promise<void>;
}

export const helpTree = defineTree({
  name: 'help',
  nodes: [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
    {
      id: 3,
      type: 'query',
      parent: 2,
      chunks: ['help center'],
      query: { query: 'help', chunkQty: 3, threshold: 0 },
    },
  ],
});

/** The hashed embedder, counting the texts it embeds (to prove what a refresh re-embeds). */
export class CountingEmbedder extends HashedEmbedder {
  embedded: string[] = [];
  override embed(texts: readonly string[]) {
    this.embedded.push(...texts);
    return super.embed(texts);
  }
}

/**
 * The crawl of the test help center into real stores, refreshed after the site changed: the same
 * scenario for SQLite and PostgreSQL.
 */
export function describeCrawlScenario(name: string, open: () => Promise<ScenarioStores>): void {
  describe(`crawling a website into ${name}`, () => {
    const site = new TestSite();
    let stores: ScenarioStores;
    let context: SourcesContext & { embedder: CountingEmbedder };
    let sourceId = '';
    const chunkUrls = async () => {
      const urls: string[] = [];
      let offset: string | null = null;
      do {
        const result = await stores.vectorStore.scroll({ collection: 'help:3', limit: 100, offset });
        urls.push(...result.chunks.map((chunk) => String(chunk.extra.url).replace(site.origin, '')));
        offset = result.nextOffset;
      } while (offset);
      return urls.sort();
    };

    beforeAll(async () => {
      await site.start();
      helpCenter(site);
      stores = await open();
      context = {
        tree: helpTree,
        sourceStore: stores.sourceStore,
        vectorStore: stores.vectorStore,
        embedder: new CountingEmbedder(),
        addressPolicy: { allowPrivateHosts: ['127.0.0.1'] },
        contact: 'mailto:help@bikeshop.example',
      };
    });
    afterAll(async () => {
      await stores?.close();
      await site.stop();
    });

    test('an internal address is refused unless allowed, with the setting to change', async () => {
      await expect(
        addSource(
          { kind: 'crawl', location: `${site.origin}/`, nodeId: 3 },
          { ...context, addressPolicy: {} },
        ),
      ).rejects.toThrow(/internal address 127\.0\.0\.1.*allowPrivateHosts: \["127\.0\.0\.1"\]/);
      expect(site.requests).toEqual([]);
    });

    test('the first refresh: robots.txt, redirect, canonical and duplicate pages, limits, an erroring page', async () => {
      const source = await addSource(
        { kind: 'crawl', location: `${site.origin}/`, nodeId: 3, options: { delayMs: 0, concurrency: 2 } },
        context,
      );
      sourceId = source.id;
      const report = await refreshSource(source.id, context);
      const paths = (await stores.sourceStore.listPages(source.id)).map((item) =>
        item.url.replace(site.origin, ''),
      );
      expect(paths).toEqual([
        '/',
        '/changing',
        '/docs/',
        ...Array.from({ length: 12 }, (_, index) => `/docs/page-${index + 1}`).sort(),
        '/returns',
        '/shipping',
        '/vanishing',
        '/warranty',
      ]);
      // robots.txt: neither the `*` rule nor the crawler's own group's rule is fetched at all.
      expect(site.requestsFor('/private/secret')).toEqual([]);
      expect(site.requestsFor('/drafts/plan')).toEqual([]);
      expect(site.requestsFor('/robots.txt')).toHaveLength(1);
      expect(
        site.requests.every((request) =>
          /^TreeAgent-Sources\/\d+\.\d+\.\d+ \(\+mailto:help@bikeshop\.example\)$/.test(
            String(request.headers['user-agent']),
          ),
        ),
      ).toBe(true);
      expect(
        report.skipped.map((item) => [
          item.url.replace(site.origin, ''),
          item.reason.replace(site.origin, ''),
        ]),
      ).toEqual(
        expect.arrayContaining([
          ['/returns?ref=nav', 'duplicate of /returns (canonical URL)'],
          ['/returns-copy', 'duplicate of /returns (same text)'],
          ['/private/secret', 'disallowed by robots.txt'],
          ['/drafts/plan', 'disallowed by robots.txt'],
        ]),
      );
      expect(report.failed.map((item) => item.url.replace(site.origin, ''))).toEqual(['/broken']);
      expect(report.source).toMatchObject({ status: 'ready', pages: 19 });
      expect(report.source.error).toMatch(/1 page\(s\) could not be read.*\/broken answered 500/);
      expect(report.source.chunks).toBe((await chunkUrls()).length);
      // Answers cite: the chunk of the Refunds section carries the page's URL with the anchor, and its title.
      const [best] = await searchSources('refund card 14 days warehouse', 3, context, {
        limit: 1,
        threshold: 0,
      });
      expect(best!.extra).toMatchObject({
        title: 'Returns',
        url: `${site.origin}/returns#refunds`,
        heading: 'Refunds',
      });
      // The redirect is stored under where it ends.
      expect(await chunkUrls()).toContain('/warranty#coverage');
      expect(await chunkUrls()).not.toContain('/old-warranty#coverage');
    });

    test('the second refresh: only the changed page is re-embedded, a removed page loses its chunks, a failing page keeps them', async () => {
      site.set(
        '/changing',
        page('Opening hours', { Hours: 'From January the shop opens at 10 and closes at 19.' }),
      );
      site.set('/vanishing', { status: 404 });
      site.set('/shipping', { status: 503, body: 'maintenance' });
      const before = await chunkUrls();
      context.embedder.embedded = [];
      const requestsBefore = site.requests.length;
      const report = await refreshSource(sourceId, context);
      expect(context.embedder.embedded).toEqual(['From January the shop opens at 10 and closes at 19.']);
      expect(report).toMatchObject({ changed: 1, removed: 1 });
      const after = await chunkUrls();
      expect(after).not.toContain('/vanishing#sale');
      expect(after).toContain('/shipping#costs');
      expect(after.length).toBe(before.length - 1);
      expect(report.source).toMatchObject({ status: 'ready', pages: 18 });
      expect(report.source.error).toMatch(
        /\/shipping answered 503.*previous content is kept|previous content is kept.*\/shipping answered 503/,
      );
      // Unchanged pages answered 304 to If-None-Match: nothing downloaded twice.
      const second = site.requests.slice(requestsBefore);
      expect(second.filter((request) => request.status === 304).length).toBeGreaterThanOrEqual(15);
      expect(second.find((request) => request.path === '/returns')).toMatchObject({ status: 304 });
    });

    test('a refresh that cannot read the site keeps every chunk and says why', async () => {
      const before = await chunkUrls();
      site.set('/robots.txt', { status: 503 });
      const report = await refreshSource(sourceId, context);
      expect(report.source.status).toBe('failed');
      expect(report.source.error).toMatch(/robots\.txt answered 503: the site is not crawled/);
      expect(await chunkUrls()).toEqual(before);
      expect((await stores.sourceStore.getSource(sourceId))!.status).toBe('failed');
    });

    test('a sitemap source reads the listed pages robots.txt allows; deleting a source deletes its chunks', async () => {
      helpCenter(site);
      const sitemap = await addSource(
        { kind: 'sitemap', location: `${site.origin}/sitemap.xml`, nodeId: 3, options: { delayMs: 0 } },
        context,
      );
      await removeSource(sourceId, context);
      expect(await chunkUrls()).toEqual([]);
      const report = await refreshSource(sitemap.id, context);
      expect(report.source.status).toBe('ready');
      expect(
        (await stores.sourceStore.listPages(sitemap.id)).map((item) => item.url.replace(site.origin, '')),
      ).toEqual(['/returns', '/shipping', '/warranty']);
      expect(await stores.sourceStore.listSources()).toHaveLength(1);
    });

    test('limits and patterns: maxPages, include and exclude', async () => {
      const limited = await addSource(
        {
          kind: 'crawl',
          location: `${site.origin}/docs/`,
          nodeId: 3,
          options: { delayMs: 0, maxPages: 3, exclude: ['/docs/page-1*'] },
        },
        context,
      );
      await refreshSource(limited.id, context);
      const paths = (await stores.sourceStore.listPages(limited.id)).map((item) =>
        item.url.replace(site.origin, ''),
      );
      expect(paths).toHaveLength(3);
      expect(paths.some((path) => path.startsWith('/docs/page-1'))).toBe(false);
      const included = await addSource(
        {
          kind: 'crawl',
          location: `${site.origin}/`,
          nodeId: 3,
          options: { delayMs: 0, include: ['/docs/page-2'], maxDepth: 2 },
        },
        context,
      );
      await refreshSource(included.id, context);
      expect(
        (await stores.sourceStore.listPages(included.id)).map((item) => item.url.replace(site.origin, '')),
      ).toEqual(['/docs/page-2']);
    });
  });
}
