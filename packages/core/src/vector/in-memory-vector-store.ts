import { dot, norm } from '../embedding/vector-math.js';
import { compileFilter } from '../filter/evaluate-filter.js';
import type { ChunkId } from '../protocol/chunk-id.js';
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
    const accepts = compileFilter(request.filter);
    const excluded = new Set((request.exclude ?? []).map(String));
    const points = [...(this.#collections.get(request.collection)?.values() ?? [])]
      .filter((point) => !excluded.has(String(point.id)) && accepts({ id: point.id, payload: point.payload }))
      .sort((a, b) => compareIds(a.id, b.id));
    const start = request.offset
      ? points.findIndex((point) => compareIds(point.id, decodeOffset(request.offset!)) >= 0)
      : 0;
    const from = start < 0 ? points.length : start;
    const page = points.slice(from, from + request.limit);
    const next = points[from + request.limit];
    return {
      chunks: page.map((point) => toChunk(point, null)),
      nextOffset: next ? encodeOffset(next.id) : null,
    };
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

function toChunk(point: VectorRecord, similarity: number | null): RetrievedChunk {
  return { id: point.id, text: point.text, extra: structuredClone(point.payload), similarity };
}

/** Cosine similarity with the norms computed once per point (stored) and once per query. */
function cosine(a: Float32Array, aNorm: number, b: Float32Array, bNorm: number): number {
  if (aNorm === 0 || bNorm === 0 || a.length !== b.length) return 0;
  return dot(a, b) / (aNorm * bNorm);
}
