import { describe, expect } from 'vitest';
import type { KnowledgePage, KnowledgeSource, SourceStore } from '../knowledge/source-store.js';
import { type ConformanceOptions, conformanceCases } from './skip-list.js';

/** A source store under test, and how to open another instance on the same storage. */
export interface SourceStoreFixture {
  store: SourceStore;
  /** Another instance on the same storage (a restart); absent for memory. */
  reopen?: () => Promise<SourceStore>;
  dispose(): Promise<void>;
}

const created = new Date('2026-12-06T08:00:00.000Z');

function source(id: string, overrides: Partial<KnowledgeSource> = {}): KnowledgeSource {
  return {
    id,
    kind: 'crawl',
    location: `https://help.example/${id}`,
    nodeId: 3,
    collection: 'help:3',
    options: { maxPages: 50, include: ['/docs/'], nested: { delayMs: 100 } },
    refreshMinutes: null,
    status: 'new',
    createdAt: created,
    refreshedAt: null,
    error: null,
    pages: 0,
    chunks: 0,
    ...overrides,
  };
}

function page(url: string, overrides: Partial<KnowledgePage> = {}): KnowledgePage {
  return {
    url,
    title: `Title of ${url}`,
    etag: null,
    lastModified: null,
    contentHash: 'f'.repeat(64),
    chunks: 2,
    fetchedAt: new Date('2026-12-06T09:00:00.000Z'),
    ...overrides,
  };
}

/**
 * The behaviour every `SourceStore` shares: sources are saved, replaced, listed oldest first and
 * deleted with their pages; pages are saved and removed in one write, per source; a persistent
 * store is seen by another instance.
 */
export function describeSourceStore(
  name: string,
  open: () => Promise<SourceStoreFixture>,
  options: ConformanceOptions = {},
): void {
  describe(`${name} (SourceStore conformance)`, () => {
    const cases = conformanceCases(`source store conformance of ${name}`, options);

    cases.test(
      'a source is saved, read back field by field, replaced by id and listed oldest first',
      async () => {
        const { store, dispose } = await open();
        try {
          const later = source('b-later', { createdAt: new Date(created.getTime() + 1000), kind: 'sitemap' });
          await store.saveSource(later);
          await store.saveSource(source('a-first'));
          expect(await store.getSource('a-first')).toEqual(source('a-first'));
          expect(await store.getSource('missing')).toBeNull();
          const refreshed = source('a-first', {
            status: 'failed',
            refreshedAt: new Date('2026-12-06T10:00:00.000Z'),
            error: 'https://help.example/a-first answered 503',
            pages: 12,
            chunks: 40,
            refreshMinutes: 1440,
          });
          await store.saveSource(refreshed);
          expect(await store.getSource('a-first')).toEqual(refreshed);
          expect((await store.listSources()).map((item) => item.id)).toEqual(['a-first', 'b-later']);
          const listed = await store.listSources();
          listed[0]!.options.maxPages = 1;
          expect((await store.getSource('a-first'))!.options.maxPages).toBe(50);
        } finally {
          await dispose();
        }
      },
    );

    cases.test('pages are saved and removed in one write, kept per source and listed by URL', async () => {
      const { store, dispose } = await open();
      try {
        await store.saveSource(source('s1'));
        await store.saveSource(source('s2'));
        await store.savePages(
          's1',
          [page('https://help.example/b', { etag: '"v1"' }), page('https://help.example/a')],
          [],
        );
        await store.savePages('s2', [page('https://help.example/a', { chunks: 9 })], []);
        expect((await store.listPages('s1')).map((item) => item.url)).toEqual([
          'https://help.example/a',
          'https://help.example/b',
        ]);
        const changed = page('https://help.example/b', {
          etag: '"v2"',
          lastModified: 'Sun, 06 Dec 2026 09:00:00 GMT',
          contentHash: 'e'.repeat(64),
        });
        await store.savePages('s1', [changed, page('https://help.example/c')], ['https://help.example/a']);
        expect(await store.listPages('s1')).toEqual([changed, page('https://help.example/c')]);
        expect(await store.listPages('s2')).toEqual([page('https://help.example/a', { chunks: 9 })]);
        expect(await store.listPages('never-saved')).toEqual([]);
      } finally {
        await dispose();
      }
    });

    cases.test('deleting a source deletes its pages and leaves the other sources', async () => {
      const { store, dispose } = await open();
      try {
        await store.saveSource(source('s1'));
        await store.saveSource(source('s2'));
        await store.savePages('s1', [page('https://help.example/a')], []);
        await store.savePages('s2', [page('https://help.example/a')], []);
        await store.deleteSource('s1');
        await store.deleteSource('never-saved');
        expect(await store.getSource('s1')).toBeNull();
        expect(await store.listPages('s1')).toEqual([]);
        expect((await store.listSources()).map((item) => item.id)).toEqual(['s2']);
        expect(await store.listPages('s2')).toHaveLength(1);
      } finally {
        await dispose();
      }
    });

    cases.test('sources and pages outlive the store object: a reopened store reads them', async () => {
      const { store, reopen, dispose } = await open();
      try {
        if (!reopen) throw new Error(`${name} has no reopen(): skip this test with the reason.`);
        await store.saveSource(source('kept', { status: 'ready', pages: 1, chunks: 2 }));
        await store.savePages('kept', [page('https://help.example/kept')], []);
        const other = await reopen();
        expect(await other.getSource('kept')).toEqual(
          source('kept', { status: 'ready', pages: 1, chunks: 2 }),
        );
        expect(await other.listPages('kept')).toEqual([page('https://help.example/kept')]);
      } finally {
        await dispose();
      }
    });

    cases.done();
  });
}
