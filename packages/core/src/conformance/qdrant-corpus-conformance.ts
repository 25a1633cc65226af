import { describe, expect, test } from 'vitest';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { ChunkId } from '../protocol/chunk-id.js';
import type { Filter, PointId } from '../protocol/filter.js';
import { compareIds, encodeOffset } from '../vector/in-memory-vector-store.js';
import { scrollAll } from '../vector/scroll-all.js';
import type { VectorRecord, VectorStore } from '../vector/vector-store.js';
import { CORPUS_CASES, CORPUS_COLLECTIONS } from './qdrant-corpus/index.js';
import type { CorpusCase, CorpusCollection, CorpusPoint } from './qdrant-corpus/types.js';
import type { VectorStoreFactory } from './vector-store-conformance.js';

/** The collection every corpus case writes its points to (each case gets a fresh store). */
export const CORPUS_COLLECTION = 'corpus';

/** What Tree Agent must answer for a case: ids in order (and the next scroll cursor's id), or a `FILTER` rejection. */
export type CorpusOutcome = { ids: readonly PointId[]; next?: PointId } | { rejected: true };

/**
 * The answer every Tree Agent back-end must give: Qdrant's, except for the documented differences
 * (features Tree Agent's filters reject, Qdrant-side indexes Tree Agent never creates).
 */
export function corpusOutcome(c: CorpusCase): CorpusOutcome {
  if (c.unsupported?.outcome === 'rejected' || 'error' in c.expect) return { rejected: true };
  if (c.unsupported?.outcome === 'not-applicable') return { ids: c.unsupported.ids ?? [] };
  return c.expect.next === undefined ? { ids: c.expect.ids } : { ids: c.expect.ids, next: c.expect.next };
}

/** The corpus collection of a case. */
export function corpusCollection(c: CorpusCase): CorpusCollection {
  const collection = CORPUS_COLLECTIONS.get(c.collection);
  if (!collection) throw new Error(`corpus case "${c.name}" names an unknown collection "${c.collection}"`);
  return collection;
}

/**
 * The records a case upserts, with vectors a cosine store ranks as Qdrant ranks the fixture: for a
 * `Dot` fixture every vector gets one more coordinate, `sqrt(M² − |v|²)` (M the largest norm), so
 * all have norm M and cosine similarity orders points by dot product exactly; the query gets a 0
 * there. A query sees only points with a dense vector; scroll and count see every point (those
 * without one get `[0, …, 0, M]`).
 */
export function corpusRecords(c: CorpusCase): VectorRecord[] {
  const collection = corpusCollection(c);
  const dot = collection.distance === 'Dot';
  const withVector = collection.points.filter((p) => p.vector !== null);
  const size = withVector[0]!.vector!.length;
  const max = Math.max(...withVector.map((p) => norm(p.vector!)));
  const points = c.request.endpoint === 'query' ? withVector : collection.points;
  return points.map((point: CorpusPoint) => {
    let vector: number[];
    if (point.vector === null) vector = [...new Array<number>(size).fill(0), max];
    else if (dot) vector = [...point.vector, Math.sqrt(Math.max(0, max * max - norm(point.vector) ** 2))];
    else vector = [...point.vector];
    return { id: point.id, text: '', vector: Float32Array.from(vector), payload: point.payload ?? {} };
  });
}

/** The query vector of a case, in the space of {@link corpusRecords}. */
export function corpusQueryVector(c: CorpusCase): Float32Array {
  const q = c.request.query ?? [];
  return Float32Array.from(corpusCollection(c).distance === 'Dot' ? [...q, 0] : q);
}

/** Scale from a dot-product delta to the cosine delta of {@link corpusRecords} (1 for a Cosine fixture). */
export function corpusScoreScale(c: CorpusCase): number {
  const collection = corpusCollection(c);
  if (collection.distance !== 'Dot') return 1;
  const max = Math.max(...collection.points.filter((p) => p.vector !== null).map((p) => norm(p.vector!)));
  return 1 / (norm(c.request.query ?? []) * max);
}

function norm(v: readonly number[]): number {
  return Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
}

/** What a store answered: the ids, and for a scroll the cursor of the next page. */
export interface CorpusAnswer {
  ids: ChunkId[];
  nextOffset?: string | null;
}

/** Runs one case's request on `store` (the records already upserted) and returns what it answers. */
export async function runCorpusRequest(store: VectorStore, c: CorpusCase): Promise<CorpusAnswer> {
  const { request } = c;
  const filter = (request.filter ?? null) as Filter | null;
  const collection = CORPUS_COLLECTION;
  if (request.endpoint === 'scroll') {
    const offset = request.offset === undefined ? null : encodeOffset(request.offset);
    const page = await store.scroll({ collection, limit: request.limit ?? 10, offset, filter });
    return { ids: page.chunks.map((chunk) => chunk.id), nextOffset: page.nextOffset };
  }
  if (request.endpoint === 'count') {
    return {
      ids: (await scrollAll(store, collection, filter, 100)).map((chunk) => chunk.id).sort(compareIds),
    };
  }
  const vector = corpusQueryVector(c);
  const limit = request.limit ?? 10;
  let threshold: number | undefined;
  if (typeof request.scoreThreshold === 'number') threshold = request.scoreThreshold * corpusScoreScale(c);
  else if (request.scoreThreshold) {
    const { rank, delta } = request.scoreThreshold;
    const all = await store.search({ collection, vector, limit, filter });
    threshold = all[rank - 1]!.similarity! + delta * corpusScoreScale(c);
  }
  const chunks = await store.search({
    collection,
    vector,
    limit,
    filter,
    ...(threshold === undefined ? {} : { threshold }),
  });
  return { ids: chunks.map((chunk) => chunk.id) };
}

/** Options of {@link describeQdrantCorpus}. */
export interface QdrantCorpusOptions {
  /** The cases to run (default: all). */
  cases?: readonly CorpusCase[];
}

/**
 * Runs Qdrant's behaviour corpus (cases written from Qdrant's own integration tests, see
 * `src/conformance/qdrant-corpus/README.md`) against a `VectorStore`: each case upserts its fixture in a
 * fresh store, sends its request and expects Qdrant's answer, or a `FILTER` error for filters Tree
 * Agent does not support (documented in docs/deployment.md).
 */
export function describeQdrantCorpus(
  name: string,
  factory: VectorStoreFactory,
  options: QdrantCorpusOptions = {},
): void {
  describe(`Qdrant corpus: ${name}`, () => {
    for (const c of options.cases ?? CORPUS_CASES) {
      test(c.name, async () => {
        const { store, dispose } = await factory();
        try {
          await store.upsert(CORPUS_COLLECTION, corpusRecords(c));
          const outcome = corpusOutcome(c);
          if ('rejected' in outcome) {
            const error = await runCorpusRequest(store, c).then(
              (answer) => new Error(`expected a FILTER error, got ids ${JSON.stringify(answer.ids)}`),
              (e: unknown) => e,
            );
            expect(TreeAgentError.isInstance(error) ? error.code : error).toBe('FILTER');
          } else {
            const answer = await runCorpusRequest(store, c);
            expect(answer.ids).toEqual(outcome.ids);
            if (outcome.next !== undefined) expect(answer.nextOffset).toBe(encodeOffset(outcome.next));
          }
        } finally {
          await dispose?.();
        }
      });
    }
  });
}
