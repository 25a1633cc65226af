import type { ChunkId } from '../protocol/chunk-id.js';
import type { BlacklistData } from '../protocol/explore-constraints-data.js';

export type BlacklistKind = 'chunk' | 'node';

/**
 * Node and chunk ids that exploration ignores (docs/concepts.md §9, `AiBlackList`). A blacklisted node is
 * excluded together with its whole subtree; a blacklisted chunk alone is excluded.
 */
export class Blacklist {
  readonly nodes = new Set<number>();
  readonly chunks = new Set<ChunkId>();
  #version = 0;

  /** Changes whenever the blacklist changes (lets exploration cache what it derives from it). */
  get version(): number {
    return this.#version;
  }

  constructor(data?: BlacklistData) {
    for (const id of data?.nodes ?? []) this.nodes.add(id);
    for (const id of data?.chunks ?? []) this.chunks.add(id);
  }

  /** Adds one id or several ids of the given kind. */
  add(ids: ChunkId | Iterable<ChunkId>, kind: BlacklistKind): void {
    this.#version++;
    for (const id of toList(ids)) {
      if (kind === 'node') this.nodes.add(Number(id));
      else this.chunks.add(id);
    }
  }

  /** Removes one id or several ids of the given kind. */
  remove(ids: ChunkId | Iterable<ChunkId>, kind: BlacklistKind): void {
    this.#version++;
    for (const id of toList(ids)) {
      if (kind === 'node') this.nodes.delete(Number(id));
      else this.chunks.delete(id);
    }
  }

  has(id: ChunkId, kind: BlacklistKind): boolean {
    return kind === 'node' ? this.nodes.has(Number(id)) : this.chunks.has(id);
  }

  /** True when no node and no chunk is blacklisted. */
  isEmpty(): boolean {
    return this.nodes.size === 0 && this.chunks.size === 0;
  }

  clear(): void {
    this.#version++;
    this.nodes.clear();
    this.chunks.clear();
  }

  toJSON(): BlacklistData {
    return { nodes: [...this.nodes], chunks: [...this.chunks] };
  }
}

function toList(ids: ChunkId | Iterable<ChunkId>): Iterable<ChunkId> {
  if (typeof ids === 'number' || typeof ids === 'string') return [ids];
  return ids;
}
