import type { ChunkId } from '../protocol/chunk-id.js';

/**
 * A chunk of text attached to a node. Chunks are signposts for exploration, except `forRag` chunks
 * (query nodes only), which are retrieved by their query node and put into prompts, and do not
 * guide exploration (unless the root sets `exploreForRagChunks`).
 */
export interface ChunkDefinition {
  /** Stable identifier; defaults to `"<nodeId>:<index>"`. */
  id?: ChunkId;
  text: string;
  forRag?: boolean;
  /**
   * The language the chunk is written in, one of the tree's `languages` (docs/multilingual-trees.md).
   * Exploration routes by every chunk whatever its language; `treeagent lint` uses it to list nodes
   * without chunks in a declared language.
   */
  language?: string;
  /** Payload of tags that Qdrant-style filters select on. */
  extra?: Record<string, unknown>;
}

/** A chunk as it is in a loaded tree: id assigned, owner known. */
export interface Chunk {
  id: ChunkId;
  text: string;
  forRag: boolean;
  extra: Record<string, unknown>;
  /** Node that holds the chunk. */
  nodeId: number;
}
