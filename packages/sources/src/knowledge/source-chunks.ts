import type { KnowledgePage, KnowledgeSource } from '@treeagent/core/adapter';
import { chunkId, ingestDocuments } from '@treeagent/core/ingest';
import type { SourcesContext } from './sources-context.js';

/**
 * The name (`_source`) under which a source stores a page's chunks: the page's URL (or file name)
 * and the source's id, so two sources never share chunks, even for the same page or two uploads
 * both named faq.md (their chunk ids derive from it).
 */
export function pageChunkSource(sourceId: string, url: string): string {
  return `${url} (source ${sourceId})`;
}

/** The ids a collection holds, to tell which pages still have their chunks. */
export async function storedIds(context: SourcesContext, source: KnowledgeSource): Promise<Set<string>> {
  return new Set((await context.vectorStore.ids(source.collection)).map(String));
}

/** Whether every chunk a page was recorded with is still in the collection. */
export function hasChunks(source: KnowledgeSource, page: KnowledgePage, ids: ReadonlySet<string>): boolean {
  const name = pageChunkSource(source.id, page.url);
  return (
    page.chunks > 0 &&
    Array.from({ length: page.chunks }, (_, index) => String(chunkId(name, index))).every((id) => ids.has(id))
  );
}

/**
 * Deletes a page's chunks: those under its source's name for it, and those a version before source
 * ids stored under its bare URL, when the collection still has them.
 */
export async function deletePageChunks(
  context: SourcesContext,
  source: KnowledgeSource,
  url: string,
  ids: ReadonlySet<string>,
): Promise<void> {
  const names = [pageChunkSource(source.id, url)];
  if (ids.has(String(chunkId(url, 0)))) names.push(url);
  await ingestDocuments(
    names.map((name) => ({ source: name, text: '' })),
    {
      tree: context.tree,
      nodeId: source.nodeId,
      collection: source.collection,
      vectorStore: context.vectorStore,
      embedder: context.embedder,
    },
  );
}
