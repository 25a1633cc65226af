import type { ChunkId } from '../protocol/chunk-id.js';
import type { Filter } from '../protocol/filter.js';
import type { RetrievedChunk } from '../protocol/retrieved-chunk.js';

/** A stored chunk: its vector, text and payload (the chunk's `extra`). */
export interface VectorRecord {
  id: ChunkId;
  text: string;
  vector: Float32Array;
  payload: Record<string, unknown>;
}

export interface VectorSearchRequest {
  collection: string;
  vector: Float32Array;
  /** At most this many results, best first. */
  limit: number;
  /** Only results with similarity ≥ threshold. */
  threshold?: number;
  filter?: Filter | null;
  /** Chunk ids to leave out. */
  exclude?: readonly ChunkId[];
}

export interface VectorScrollRequest {
  collection: string;
  limit: number;
  /** Cursor returned by the previous page; absent for the first page. */
  offset?: string | null;
  filter?: Filter | null;
  exclude?: readonly ChunkId[];
}

export interface VectorScrollPage {
  chunks: RetrievedChunk[];
  /** Cursor of the next page; `null` when there is none. */
  nextOffset: string | null;
}

/**
 * Where query nodes search their `forRag` chunks (docs/concepts.md §6). Implementations: the in-memory store
 * here, SQLite, PostgreSQL + pgvector and Qdrant in their own packages; all pass one conformance suite.
 */
export interface VectorStore {
  /** Inserts or replaces records by id. */
  upsert(collection: string, records: readonly VectorRecord[]): Promise<void>;
  /** Removes records by id. */
  delete(collection: string, ids: readonly ChunkId[]): Promise<void>;
  /** Semantic search by cosine similarity, best first, ties by id. */
  search(request: VectorSearchRequest): Promise<RetrievedChunk[]>;
  /** Pages through the records that pass the filter, in id order. */
  scroll(request: VectorScrollRequest): Promise<VectorScrollPage>;
  /** Ids stored in a collection. */
  ids(collection: string): Promise<ChunkId[]>;
}
