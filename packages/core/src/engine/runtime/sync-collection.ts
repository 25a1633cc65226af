import type { ChunkId } from '../../protocol/chunk-id.js';
import type { Filter } from '../../protocol/filter.js';
import { canonicalJson } from '../../tree/define-tree.js';
import { scrollAll } from '../../vector/scroll-all.js';
import type { VectorRecord, VectorStore } from '../../vector/vector-store.js';

/** Records written per `upsert` call, and stored chunks read per `scroll` page while comparing. */
const SYNC_BATCH = 512;
const COMPARE_PAGE = 1000;

export interface SyncOptions {
  /** The ids this sync owns (all of the collection's by default): only these are compared and removed. */
  owned?: Filter;
  /**
   * Leave alone the records already stored with the same text and payload (compared key order
   * aside). Only for collections whose payload names the embedder, so that the same text, payload
   * and embedder mean the same vector: the exploration collection (`EMBEDDER_KEY`).
   */
  skipUnchanged?: boolean;
}

/** What a sync wrote and removed. */
export interface SyncResult {
  written: number;
  removed: number;
}

/**
 * Makes a collection hold exactly `records` among the ids it owns: stale ids removed, the rest
 * upserted — or, with `skipUnchanged`, only the records that are new or differ from what is stored,
 * so that restarting an agent over a large collection (a million chunks behind an HNSW index)
 * rewrites nothing that did not change.
 */
export async function syncCollection(
  store: VectorStore,
  collection: string,
  records: readonly VectorRecord[],
  options: SyncOptions = {},
): Promise<SyncResult> {
  const { owned, skipUnchanged = false } = options;
  let stale: ChunkId[];
  let changed: readonly VectorRecord[] = records;
  if (skipUnchanged) {
    const positions = new Map<string, number>();
    records.forEach((record, position) => {
      positions.set(String(record.id), position);
    });
    const unchanged = new Uint8Array(records.length);
    stale = [];
    let offset: string | null = null;
    do {
      const page = await store.scroll({ collection, limit: COMPARE_PAGE, offset, filter: owned ?? null });
      for (const chunk of page.chunks) {
        const position = positions.get(String(chunk.id));
        if (position === undefined) {
          stale.push(chunk.id);
          continue;
        }
        const record = records[position]!;
        if (
          typeof chunk.id === typeof record.id &&
          chunk.text === record.text &&
          canonicalJson(chunk.extra) === canonicalJson(record.payload ?? {})
        )
          unchanged[position] = 1;
      }
      offset = page.nextOffset;
    } while (offset !== null);
    changed = records.filter((_, position) => unchanged[position] === 0);
  } else {
    const keep = new Set(records.map((record) => String(record.id)));
    const existing = owned
      ? (await scrollAll(store, collection, owned)).map((chunk) => chunk.id)
      : await store.ids(collection);
    stale = existing.filter((id) => !keep.has(String(id)));
  }
  if (stale.length) await store.delete(collection, stale);
  // Vectors copied out of the caller's buffer (the exploration collection's are views into one
  // packed buffer, which a store keeping what it is given would otherwise hold whole).
  for (let start = 0; start < changed.length; start += SYNC_BATCH)
    await store.upsert(
      collection,
      changed
        .slice(start, start + SYNC_BATCH)
        .map((record) => ({ ...record, vector: record.vector.slice() })),
    );
  return { written: changed.length, removed: stale.length };
}
