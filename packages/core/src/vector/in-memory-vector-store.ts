import { dot, norm } from '../embedding/vector-math.js';
import { compileFilter } from '../filter/evaluate-filter.js';
import type { ChunkId } from '../protocol/chunk-id.js';
import type { FilterPredicate } from '../protocol/filter.js';
import type { RetrievedChunk } from '../protocol/retrieved-chunk.js';
import type {
  VectorRecord,
  VectorScrollPage,
  VectorScrollRequest,
  VectorSearchRequest,
  VectorStore,
} from './vector-store.js';

/**
 * Vectors in process memory, searched by an exact cosine scan with the shared filter evaluator.
 * The reference implementation of `VectorStore`.
 */
export class InMemoryVectorStore implements VectorStore {
  readonly #collections = new Map<string, Map<string, VectorRecord & { norm: number }>>();

  async upsert(collection: string, records: readonly VectorRecord[]): Promise<void> {
    const points = this.#collection(collection);
    for (const record of records) {
      points.set(String(record.id), {
        ...record,
        vector: Float32Array.from(record.vector),
        payload: structuredClone(record.payload),
        norm: norm(record.vector),
      });
    }
  }

  async delete(collection: string, ids: readonly ChunkId[]): Promise<void> {
    const points = this.#collections.get(collection);
    for (const id of ids) points?.delete(String(id));
  }

  async search(request: VectorSearchRequest): Promise<RetrievedChunk[]> {
    const accepts = compileFilter(request.filter);
    const excluded = new Set((request.exclude ?? []).map(String));
    const queryNorm = norm(request.vector);
    const threshold = request.threshold ?? Number.NEGATIVE_INFINITY;
    const scored: RetrievedChunk[] = [];
    for (const point of this.#collections.get(request.collection)?.values() ?? []) {
      if (excluded.has(String(point.id)) || !accepts({ id: point.id, payload: point.payload })) continue;
      const similarity = cosine(request.vector, queryNorm, point.vector, point.norm);
      if (similarity >= threshold) scored.push(toChunk(point, similarity));
    }
    scored.sort((a, b) => b.similarity! - a.similarity! || compareIds(a.id, b.id));
    return scored.slice(0, request.limit);
  }

  async scroll(request: VectorScrollRequest): Promise<VectorScrollPage> {
    return scrollPage(this.#collections.get(request.collection)?.values() ?? [], request);
  }

  async ids(collection: string): Promise<ChunkId[]> {
    return [...(this.#collections.get(collection)?.values() ?? [])].map((point) => point.id);
  }

  #collection(name: string): Map<string, VectorRecord & { norm: number }> {
    let points = this.#collections.get(name);
    if (!points) {
      points = new Map();
      this.#collections.set(name, points);
    }
    return points;
  }
}

/** Orders ids as Qdrant does: integers before strings, integers numerically, strings lexically. */
export function compareIds(a: ChunkId, b: ChunkId): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Scroll cursors are the id of the first chunk of the next page, typed so integers and strings round-trip. */
export function encodeOffset(id: ChunkId): string {
  return typeof id === 'number' ? `n:${id}` : `s:${id}`;
}

export function decodeOffset(offset: string): ChunkId {
  if (offset.startsWith('n:')) return Number(offset.slice(2));
  if (offset.startsWith('s:')) return offset.slice(2);
  return offset;
}

/**
 * One page of `scroll` over a collection held in memory: the request's filter and exclusions applied
 * to `points`, in id order (`compareIds`), the page from the cursor on and the cursor of the next.
 * The in-memory and SQLite stores share it, so they page the same way. Options: `accepts`, the
 * request's filter already compiled (a store compiles it first when a bad filter must fail outside
 * its own errors); `inIdOrder`, the points are already in id order (else the kept ones are sorted).
 */
export function scrollPage(
  points: Iterable<VectorRecord>,
  request: VectorScrollRequest,
  options: { accepts?: FilterPredicate; inIdOrder?: boolean } = {},
): VectorScrollPage {
  const accepts = options.accepts ?? compileFilter(request.filter);
  const excluded = new Set((request.exclude ?? []).map(String));
  const kept: VectorRecord[] = [];
  for (const point of points)
    if (!excluded.has(String(point.id)) && accepts({ id: point.id, payload: point.payload }))
      kept.push(point);
  if (!options.inIdOrder) kept.sort((a, b) => compareIds(a.id, b.id));
  const start = request.offset
    ? kept.findIndex((point) => compareIds(point.id, decodeOffset(request.offset!)) >= 0)
    : 0;
  const from = start < 0 ? kept.length : start;
  const next = kept[from + request.limit];
  return {
    chunks: kept.slice(from, from + request.limit).map((point) => toChunk(point, null)),
    nextOffset: next ? encodeOffset(next.id) : null,
  };
}

function toChunk(point: VectorRecord, similarity: number | null): RetrievedChunk {
  return { id: point.id, text: point.text, extra: structuredClone(point.payload), similarity };
}

/** Cosine similarity with the norms computed once per point (stored) and once per query. */
function cosine(a: Float32Array, aNorm: number, b: Float32Array, bNorm: number): number {
  if (aNorm === 0 || bNorm === 0 || a.length !== b.length) return 0;
  return dot(a, b) / (aNorm * bNorm);
}
