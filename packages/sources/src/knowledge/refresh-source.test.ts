import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashedEmbedder, InMemoryVectorStore } from '@treeagent/core';
import { InMemorySourceStore } from '@treeagent/core/adapter';
import { ingestDocuments } from '@treeagent/core/ingest';
import { openSqlite } from '@treeagent/sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeCrawlScenario, helpTree } from '../test-support/crawl-scenario.js';
import { page, TestSite } from '../test-support/test-site.js';
import { addSource, removeSource } from './manage-sources.js';
import { refreshSource } from './refresh-source.js';
import type { SourcesContext } from './sources-context.js';

describeCrawlScenario('SQLite (openSqlite: a real file)', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-crawl-'));
  const stores = openSqlite(directory);
  return {
    vectorStore: stores.vectorStore,
    sourceStore: stores.sourceStore,
    close: async () => {
      await stores.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

describeCrawlScenario('the in-memory stores', async () => ({
  vectorStore: new InMemoryVectorStore(),
  sourceStore: new InMemorySourceStore(),
  close: async () => {},
}));

describe('a refresh leaves the collection and the source consistent', () => {
  const site = new TestSite();
  const folder = mkdtempSync(join(tmpdir(), 'treeagent-file-sources-'));
  beforeAll(async () => {
    await site.start();
  });
  afterAll(async () => {
    await site.stop();
    rmSync(folder, { recursive: true, force: true });
  });
  const contextOf = (embedder: HashedEmbedder = new HashedEmbedder()): SourcesContext => ({
    tree: helpTree,
    sourceStore: new InMemorySourceStore(),
    vectorStore: new InMemoryVectorStore(),
    embedder,
    addressPolicy: { allowPrivateHosts: ['127.0.0.1'] },
  });
  const chunks = async (context: SourcesContext) =>
    (await context.vectorStore.scroll({ collection: 'help:3', limit: 1000 })).chunks;
  const file = (name: string, content: string | Uint8Array) => {
    const path = join(folder, name);
    writeFileSync(path, content);
    return path;
  };

  test('a crawl that fails part-way lists every chunk it wrote, and removing the source removes them all', async () => {
    site.set('/robots.txt', { status: 404 });
    site.set('/', page('Start', { Welcome: 'Welcome to the help.' }, { links: ['/a', '/b', '/c'] }));
    site.set('/a', page('Alpha', { One: 'Alpha page about bells.' }));
    site.set('/b', page('Bravo', { Two: 'Bravo page about brakes.' }));
    site.set('/c', page('Charlie', { Three: 'Charlie page about chains.' }));
    class FailingEmbedder extends HashedEmbedder {
      override embed(texts: readonly string[]) {
        if (texts.some((text) => text.includes('Charlie'))) throw new Error('embedder down');
        return super.embed(texts);
      }
    }
    const context = contextOf(new FailingEmbedder());
    const source = await addSource(
      { kind: 'crawl', location: `${site.origin}/`, nodeId: 3, options: { delayMs: 0, concurrency: 1 } },
      context,
    );
    const report = await refreshSource(source.id, context);
    expect(report.source).toMatchObject({ status: 'failed', error: expect.stringMatching(/embedder down/) });
    const stored = await chunks(context);
    expect(stored.length).toBeGreaterThan(0);
    expect(report.source.chunks).toBe(stored.length);
    expect((await context.sourceStore.getSource(source.id))!.chunks).toBe(stored.length);
    await removeSource(source.id, context);
    expect(await chunks(context)).toEqual([]);
  });

  test('an empty page fails alone, named, and keeps its previous chunks; the crawl goes on', async () => {
    site.set('/', page('Start', { Welcome: 'Welcome to the help.' }, { links: ['/a', '/b'] }));
    site.set('/a', page('Alpha', { One: 'Alpha page about bells.' }));
    site.set('/b', page('Bravo', { Two: 'Bravo page about brakes.' }));
    const context = contextOf();
    const source = await addSource(
      { kind: 'crawl', location: `${site.origin}/`, nodeId: 3, options: { delayMs: 0 } },
      context,
    );
    await refreshSource(source.id, context);
    const before = (await chunks(context)).length;
    site.set('/b', { html: '' });
    const report = await refreshSource(source.id, context);
    expect(report.source.status).toBe('ready');
    expect(report.failed).toEqual([
      { url: `${site.origin}/b`, reason: `${site.origin}/b answered 200 with an empty body` },
    ]);
    expect((await chunks(context)).length).toBe(before);
    expect(report.source.chunks).toBe(before);
  });

  test('two files with the same name are two sources with their own chunks; removing one keeps the other', async () => {
    const context = contextOf();
    const first = await addSource(
      {
        kind: 'file',
        location: file('a.md', '# FAQ\n\nThe shop opens at nine.'),
        nodeId: 3,
        options: { name: 'faq.md' },
      },
      context,
    );
    const second = await addSource(
      {
        kind: 'file',
        location: file('b.md', '# FAQ\n\nDelivery takes three days.'),
        nodeId: 3,
        options: { name: 'faq.md' },
      },
      context,
    );
    await refreshSource(first.id, context);
    await refreshSource(second.id, context);
    const texts = async () => (await chunks(context)).map((chunk) => chunk.text).join('\n');
    expect(await texts()).toMatch(/opens at nine[\s\S]*three days|three days[\s\S]*opens at nine/);
    await removeSource(second.id, context);
    expect(await texts()).toContain('opens at nine');
    expect(await texts()).not.toContain('three days');
    // Unchanged file, but its chunks are gone from the collection: written again, not "unchanged".
    await context.vectorStore.delete(
      'help:3',
      (await chunks(context)).map((chunk) => chunk.id),
    );
    const report = await refreshSource(first.id, context);
    expect(report).toMatchObject({ changed: 1, unchanged: 0 });
    expect(await texts()).toContain('opens at nine');
    expect((await refreshSource(first.id, context)).unchanged).toBe(1);
  });

  test('chunks stored under the bare URL (before source ids) move under the source on refresh, and go with it', async () => {
    const context = contextOf();
    const source = await addSource(
      { kind: 'file', location: file('old.md', 'Legacy text about saddles.'), nodeId: 3 },
      context,
    );
    await ingestDocuments([{ source: 'old.md', text: 'Legacy text about saddles.' }], {
      tree: helpTree,
      nodeId: 3,
      vectorStore: context.vectorStore,
      embedder: context.embedder,
    });
    await context.sourceStore.savePages(
      source.id,
      [
        {
          url: 'old.md',
          title: 'old.md',
          etag: null,
          lastModified: null,
          contentHash: 'x',
          chunks: 1,
          fetchedAt: new Date(),
        },
      ],
      [],
    );
    await refreshSource(source.id, context);
    expect((await chunks(context)).map((chunk) => chunk.extra._source)).toEqual([
      `old.md (source ${source.id})`,
    ]);
    await removeSource(source.id, context);
    expect(await chunks(context)).toEqual([]);
  });

  test('a file source is titled by its name (a Markdown file by its first heading), never by its path on the server', async () => {
    const context = contextOf();
    for (const location of [
      file('manual.txt', 'Oil the chain every two weeks.'),
      file('guide.md', '# Fitting guide\n\nRaise the saddle.'),
    ])
      await refreshSource((await addSource({ kind: 'file', location, nodeId: 3 }, context)).id, context);
    const stored = await chunks(context);
    expect(stored.map((chunk) => chunk.extra.title).sort()).toEqual(['Fitting guide', 'manual.txt']);
    expect(JSON.stringify(stored)).not.toContain(folder);
  });

  test('a file over the size limit, or binary with a text extension, fails with a reason naming it', async () => {
    const context = { ...contextOf(), maxFileBytes: 1_000 };
    const big = await addSource(
      { kind: 'file', location: file('big.txt', 'x'.repeat(2_000)), nodeId: 3 },
      context,
    );
    expect((await refreshSource(big.id, context)).source).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/big\.txt is 2000 bytes, over the limit of 1000 bytes/),
    });
    const allowed = await addSource(
      { kind: 'file', location: file('big.txt', 'x'.repeat(2_000)), nodeId: 3, options: { maxBytes: 5_000 } },
      context,
    );
    expect((await refreshSource(allowed.id, context)).source.status).toBe('ready');
    const fake = await addSource(
      {
        kind: 'file',
        location: file('fake.md', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d])),
        nodeId: 3,
      },
      context,
    );
    expect((await refreshSource(fake.id, context)).source).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/fake\.md is not text/),
    });
  });
});
