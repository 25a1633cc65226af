import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { KnowledgePage, KnowledgeSource } from '@treeagent/core/adapter';
import { type IngestDocument, ingestDocuments } from '@treeagent/core/ingest';
import { type CrawledPage, crawlSite } from '../crawl/crawl-site.js';
import { readDocument } from '../documents/read-documents.js';
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
 * nothing), pages that are gone lose their chunks, and a page that cannot be read keeps its chunks.
 * When the source cannot be read at all (its start page, sitemap, robots.txt or file), nothing
 * changes but its status (`failed`) and `error`, which says why.
 */
export async function refreshSource(id: string, context: SourcesContext): Promise<RefreshReport> {
  const now = context.now ?? (() => new Date());
  const found = await context.sourceStore.getSource(id);
  if (!found) throw unknownSource(id);
  let source: KnowledgeSource = { ...found, status: 'refreshing' };
  await context.sourceStore.saveSource(source);
  const previous = new Map((await context.sourceStore.listPages(id)).map((page) => [page.url, page]));
  const report: RefreshReport = {
    source,
    changed: 0,
    unchanged: 0,
    removed: 0,
    written: 0,
    failed: [],
    skipped: [],
  };
  const saved: KnowledgePage[] = [];
  const ingest = async (document: IngestDocument, unseen = false) => {
    const result = await ingestDocuments([document], {
      unseen,
      tree: context.tree,
      nodeId: source.nodeId,
      collection: source.collection,
      vectorStore: context.vectorStore,
      embedder: context.embedder,
      ...(context.embeddingCache ? { embeddingCache: context.embeddingCache } : {}),
    });
    report.written += result.written;
    return result.written + result.unchanged;
  };
  const onPage = async (page: CrawledPage) => {
    const before = previous.get(page.url);
    if (page.kind === 'unchanged' || before?.contentHash === page.contentHash) {
      if (!before) return;
      report.unchanged++;
      saved.push({
        ...before,
        etag: page.etag ?? before.etag,
        lastModified: page.lastModified ?? before.lastModified,
      });
      return;
    }
    // A page new to this source has no chunks yet: no look-up of old ones (a scan on SQLite).
    const chunks = await ingest(page.document, !before);
    report.changed++;
    saved.push({
      url: page.url,
      title: page.title,
      etag: page.etag,
      lastModified: page.lastModified,
      contentHash: page.contentHash,
      chunks,
      fetchedAt: now(),
    });
  };
  try {
    if (source.kind === 'file') await onPage(await readFileSource(source));
    else {
      const crawl = await crawlSite({
        ...(source.options as Partial<Parameters<typeof crawlSite>[0]>),
        ...context.addressPolicy,
        mode: source.kind,
        start: source.location,
        ...(context.contact ? { contact: context.contact } : {}),
        previous,
        onPage,
      });
      report.failed = crawl.failed;
      report.skipped = crawl.skipped;
    }
  } catch (error) {
    source = { ...source, status: 'failed', refreshedAt: now(), error: (error as Error).message };
    await context.sourceStore.saveSource(source);
    return { ...report, source };
  }
  const kept = new Set([...saved.map((page) => page.url), ...report.failed.map((failure) => failure.url)]);
  const removed = [...previous.keys()].filter((url) => !kept.has(url));
  for (const url of removed) await ingest({ source: url, text: '' });
  report.removed = removed.length;
  await context.sourceStore.savePages(id, saved, removed);
  const pages = await context.sourceStore.listPages(id);
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
    pages: pages.length,
    chunks: pages.reduce((sum, page) => sum + page.chunks, 0),
  };
  await context.sourceStore.saveSource(source);
  return { ...report, source };
}

async function readFileSource(source: KnowledgeSource): Promise<CrawledPage> {
  const data = await readFile(source.location).catch((error: Error) => {
    throw new Error(
      `The file ${source.location} cannot be read (${error.message}): its previous content is kept.`,
    );
  });
  const name = typeof source.options.name === 'string' ? source.options.name : source.location;
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
