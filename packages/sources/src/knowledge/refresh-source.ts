import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { KnowledgePage, KnowledgeSource } from '@treeagent/core/adapter';
import { ingestDocuments } from '@treeagent/core/ingest';
import { type CrawledPage, crawlSite } from '../crawl/crawl-site.js';
import { checkDocumentSize, readDocument } from '../documents/read-documents.js';
import { deletePageChunks, hasChunks, pageChunkSource, storedIds } from './source-chunks.js';
import { type SourcesContext, unknownSource } from './sources-context.js';

/** What one refresh did. */
export interface RefreshReport {
  source: KnowledgeSource;
  /** Pages whose text changed (or new): their chunks were written. */
  changed: number;
  /** Pages unchanged (304, or the same text): nothing embedded. */
  unchanged: number;
  /** Pages gone since the last refresh: their chunks were deleted. */
  removed: number;
  /** Chunks embedded and written. */
  written: number;
  /** Pages that could not be read this time (their previous chunks stay), with the reason. */
  failed: { url: string; reason: string }[];
  /** Pages left out, with the reason (robots.txt, duplicates, patterns, limits…). */
  skipped: { url: string; reason: string }[];
}

/**
 * Reads a source again and brings its chunks up to date: only pages whose text changed are
 * re-embedded (a 304 to `If-None-Match`/`If-Modified-Since`, or the same content hash, writes
 * nothing, unless the page's chunks are no longer in the collection), pages that are gone lose their
 * chunks, and a page that cannot be read keeps its chunks. Each page is recorded as its chunks are
 * written, so a refresh that fails part-way leaves every chunk it wrote listed (and `removeSource`
 * removes them). When the source cannot be read at all (its start page, sitemap, robots.txt or
 * file), nothing else changes but its status (`failed`) and `error`, which says why.
 */
export async function refreshSource(id: string, context: SourcesContext): Promise<RefreshReport> {
  const now = context.now ?? (() => new Date());
  const found = await context.sourceStore.getSource(id);
  if (!found) throw unknownSource(id);
  let source: KnowledgeSource = { ...found, status: 'refreshing' };
  await context.sourceStore.saveSource(source);
  const previous = new Map((await context.sourceStore.listPages(id)).map((page) => [page.url, page]));
  const ids = previous.size ? await storedIds(context, source) : new Set<string>();
  // A page whose chunks are gone (or were stored before chunks were named by source) is read again in full.
  const intact = new Set(
    [...previous.values()].filter((page) => hasChunks(source, page, ids)).map((page) => page.url),
  );
  const report: RefreshReport = {
    source,
    changed: 0,
    unchanged: 0,
    removed: 0,
    written: 0,
    failed: [],
    skipped: [],
  };
  const seen = new Set<string>();
  const unchanged: KnowledgePage[] = [];
  const onPage = async (page: CrawledPage) => {
    seen.add(page.url);
    const before = previous.get(page.url);
    if (page.kind === 'unchanged' || (intact.has(page.url) && before?.contentHash === page.contentHash)) {
      if (!before) return;
      report.unchanged++;
      unchanged.push({
        ...before,
        etag: page.etag ?? before.etag,
        lastModified: page.lastModified ?? before.lastModified,
      });
      return;
    }
    const record: KnowledgePage = {
      url: page.url,
      title: page.title,
      etag: page.etag,
      lastModified: page.lastModified,
      contentHash: page.contentHash,
      chunks: 0,
      fetchedAt: now(),
    };
    // Recorded before its chunks are written, with no hash (so it is read again if this fails):
    // whatever happens next, the source lists every chunk it may have written.
    await context.sourceStore.savePages(
      id,
      [{ ...record, contentHash: '', chunks: before?.chunks ?? 0 }],
      [],
    );
    if (before && !intact.has(page.url)) await deletePageChunks(context, source, page.url, ids);
    const result = await ingestDocuments(
      [{ ...page.document, source: pageChunkSource(id, page.url), title: page.document.title ?? page.title }],
      {
        // A page new to this source has no chunks yet: no look-up of old ones (a scan on SQLite).
        unseen: !before,
        tree: context.tree,
        nodeId: source.nodeId,
        collection: source.collection,
        vectorStore: context.vectorStore,
        embedder: context.embedder,
        ...(context.embeddingCache ? { embeddingCache: context.embeddingCache } : {}),
      },
    );
    report.written += result.written;
    report.changed++;
    await context.sourceStore.savePages(id, [{ ...record, chunks: result.written + result.unchanged }], []);
  };
  const counts = async () => {
    const pages = await context.sourceStore.listPages(id);
    return { pages: pages.length, chunks: pages.reduce((sum, page) => sum + page.chunks, 0) };
  };
  try {
    if (source.kind === 'file') await onPage(await readFileSource(source, context));
    else {
      const crawl = await crawlSite({
        ...(source.options as Partial<Parameters<typeof crawlSite>[0]>),
        ...context.addressPolicy,
        mode: source.kind,
        start: source.location,
        ...(context.contact ? { contact: context.contact } : {}),
        previous: new Map(
          [...previous].map(([url, page]) => [
            url,
            intact.has(url) ? page : { etag: null, lastModified: null, contentHash: '' },
          ]),
        ),
        onPage,
      });
      report.failed = crawl.failed;
      report.skipped = crawl.skipped;
    }
  } catch (error) {
    await context.sourceStore.savePages(id, unchanged, []);
    source = {
      ...source,
      status: 'failed',
      refreshedAt: now(),
      error: (error as Error).message,
      ...(await counts()),
    };
    await context.sourceStore.saveSource(source);
    return { ...report, source };
  }
  const kept = new Set([...seen, ...report.failed.map((failure) => failure.url)]);
  const removed = [...previous.keys()].filter((url) => !kept.has(url));
  for (const url of removed) await deletePageChunks(context, source, url, ids);
  report.removed = removed.length;
  await context.sourceStore.savePages(id, unchanged, removed);
  source = {
    ...source,
    status: 'ready',
    refreshedAt: now(),
    error: report.failed.length
      ? `${report.failed.length} page(s) could not be read (their previous content is kept): ${report.failed
          .slice(0, 5)
          .map((failure) => failure.reason)
          .join('; ')}`
      : null,
    ...(await counts()),
  };
  await context.sourceStore.saveSource(source);
  return { ...report, source };
}

/**
 * Reads a file source: named by its upload's name or its file name (never the server's path, which
 * chunks would cite), refused over the size limit before it is read.
 */
async function readFileSource(source: KnowledgeSource, context: SourcesContext): Promise<CrawledPage> {
  const name = typeof source.options.name === 'string' ? source.options.name : basename(source.location);
  const maxBytes =
    typeof source.options.maxBytes === 'number' ? source.options.maxBytes : context.maxFileBytes;
  const cannotRead = (error: Error) =>
    new Error(`The file ${source.location} cannot be read (${error.message}): its previous content is kept.`);
  const size = await stat(source.location).then(
    (stats) => stats.size,
    (error: Error) => {
      throw cannotRead(error);
    },
  );
  checkDocumentSize(name, size, maxBytes);
  const data = await readFile(source.location).catch((error: Error) => {
    throw cannotRead(error);
  });
  const document = await readDocument(name, data, name);
  return {
    kind: 'changed',
    url: name,
    title: document.title ?? name,
    document,
    etag: null,
    lastModified: null,
    contentHash: createHash('sha256').update(data).digest('hex'),
  };
}
