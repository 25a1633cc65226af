import type { ChunkId } from './chunk-id.js';

/** A chunk returned by a search or a scroll. */
export interface RetrievedChunk {
  id: ChunkId;
  text: string;
  /** The chunk's `extra`. */
  extra: Record<string, unknown>;
  /** Cosine similarity to the query; `null` for a scroll. */
  similarity: number | null;
}
