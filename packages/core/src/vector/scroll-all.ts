import type { Filter } from '../protocol/filter.js';
import type { RetrievedChunk } from '../protocol/retrieved-chunk.js';
import type { VectorStore } from './vector-store.js';

/** Every chunk of a collection that passes `filter`, paging through `scroll` with its cursor. */
export async function scrollAll(
  store: VectorStore,
  collection: string,
  filter: Filter | null,
  pageSize = 500,
): Promise<RetrievedChunk[]> {
  const chunks: RetrievedChunk[] = [];
  let offset: string | null = null;
  do {
    const page = await store.scroll({ collection, limit: pageSize, offset, filter });
    chunks.push(...page.chunks);
    offset = page.nextOffset;
  } while (offset !== null);
  return chunks;
}
