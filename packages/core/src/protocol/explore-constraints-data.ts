import type { ChunkId } from './chunk-id.js';
import type { Filter } from './filter.js';

/** Serialised form of a blacklist, as sessions store it. */
export interface BlacklistData {
  nodes: number[];
  chunks: ChunkId[];
}

/** Serialised explore constraints, stored in the session when `keep` is true. */
export interface ExploreConstraintsData {
  blacklist: BlacklistData;
  filter: Filter | null;
  keep: boolean;
}
