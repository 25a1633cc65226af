import { type Tree, TreeAgentError } from '@treeagent/core';
import type { Embedder, EmbeddingCache, SourceStore, VectorStore } from '@treeagent/core/adapter';
import type { AddressPolicy } from '../crawl/address-guard.js';

/** What refreshing (and adding, removing, searching) sources needs: the stores, the embedder, the tree. */
export interface SourcesContext {
  tree: Tree;
  sourceStore: SourceStore;
  vectorStore: VectorStore;
  embedder: Embedder;
  embeddingCache?: EmbeddingCache;
  /** Which internal hosts the crawler may fetch (default none: see docs/security.md). */
  addressPolicy?: AddressPolicy;
  /** The contact page or mailto: in the crawler's user agent. */
  contact?: string;
  /** Largest file a file source reads, in bytes, unless the source's `maxBytes` option says otherwise. Default 10 MiB. */
  maxFileBytes?: number;
  /** The clock (tests inject it). Default `() => new Date()`. */
  now?: () => Date;
}

/** The error for an id no source has. */
export function unknownSource(id: string): TreeAgentError {
  return new TreeAgentError(
    'INVALID_INPUT',
    `There is no knowledge source "${id}": list them with \`treeagent sources list\` (or GET /api/v1/sources).`,
  );
}
