import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import type { RetrievedChunk } from '@treeagent/core';
import { TreeAgentError } from '@treeagent/core';
import type {
  ChunkId,
  VectorRecord,
  VectorScrollPage,
  VectorScrollRequest,
  VectorSearchRequest,
  VectorStore,
} from '@treeagent/core/adapter';
import { compareIds, decodeOffset, encodeOffset } from '@treeagent/core/adapter';
import { checkPrefix, DEFAULT_COLLECTION_PREFIX, qdrantCollectionName } from './collection-name.js';
import { isExistingCollection, isMissingCollection, vectorStoreError } from './errors.js';
import { f32Below, shortestF32 } from './f32.js';
import { type QdrantPointId, toQdrantPointId } from './point-id.js';
import { toQdrantFilter } from './qdrant-filter.js';

/** Payload key holding the original chunk id (string or number) of every point. */
export const ID_KEY = '_treeagent_id';
/** Payload key holding the chunk text of every point. */
export const TEXT_KEY = '_treeagent_text';

export interface QdrantVectorStoreOptions {
  /** Qdrant's REST URL. Default `http://localhost:6333`. Ignored when `client` is given. */
  url?: string;
  /** API key (Qdrant Cloud, or a server with `service.api_key`). Ignored when `client` is given. */
  apiKey?: string;
  /** Request timeout in milliseconds. Default: the client's (300 000). Ignored when `client` is given. */
  timeout?: number;
  /** A client configured by you (headers, prefix, ...), used instead of building one. */
  client?: QdrantClient;
  /** Prepended to every Qdrant collection name. Default `treeagent_`. Letters, digits, `_`, `-`. */
  collectionPrefix?: string;
  /** Points per upsert request. Default 256. */
  upsertBatchSize?: number;
  /** Points per scroll request when `ids()` lists a collection. Default 256. */
  idsPageSize?: number;
}

type Point = Schemas['Record'] | Schemas['ScoredPoint'];

/**
 * A `VectorStore` on a Qdrant server, through the official REST client (`@qdrant/js-client-rest`).
 *
 * - Each Tree Agent collection is a Qdrant collection named {@link qdrantCollectionName}
 *   (`treeagent_` + the name, sanitised), created on the first upsert with cosine distance and the
 *   size of the vectors upserted.
 * - Chunk ids become Qdrant point ids with {@link toQdrantPointId}; the original id and the text
 *   are kept in the payload under {@link ID_KEY} and {@link TEXT_KEY}, beside the chunk's `extra`.
 * - Filters are sent to Qdrant as they are (they already are Qdrant's filter JSON), with `has_id`
 *   values mapped like ids; exclusions become `must_not: [{ has_id: [...] }]`.
 * - Reads of a collection that does not exist return nothing, as with the in-memory store.
 *
 * Every failure is a `TreeAgentError` with code `VECTOR_STORE` that quotes Qdrant's message.
 */
export class QdrantVectorStore implements VectorStore {
  readonly #client: QdrantClient;
  readonly #url: string;
  readonly #prefix: string;
  readonly #upsertBatchSize: number;
  readonly #idsPageSize: number;
  readonly #ready = new Map<string, Promise<void>>();

  constructor(options: QdrantVectorStoreOptions = {}) {
    this.#prefix = options.collectionPrefix ?? DEFAULT_COLLECTION_PREFIX;
    checkPrefix(this.#prefix);
    this.#upsertBatchSize = positiveInteger(options.upsertBatchSize ?? 256, 'upsertBatchSize');
    this.#idsPageSize = positiveInteger(options.idsPageSize ?? 256, 'idsPageSize');
    this.#url = options.client ? 'the configured Qdrant client' : (options.url ?? 'http://localhost:6333');
    if (options.client) {
      this.#client = options.client;
    } else {
      try {
        this.#client = new QdrantClient({
          url: this.#url,
          ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
          ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
          checkCompatibility: false,
        });
      } catch (error) {
        throw new TreeAgentError(
          'VECTOR_STORE',
          `Cannot create the Qdrant client for ${this.#url}: ${(error as Error).message}`,
          { cause: error },
        );
      }
    }
  }

  /** The Qdrant collection that holds `collection`. */
  collectionName(collection: string): string {
    return qdrantCollectionName(collection, this.#prefix);
  }

  async upsert(collection: string, records: readonly VectorRecord[]): Promise<void> {
    if (records.length === 0) return;
    const name = this.collectionName(collection);
    const size = records[0]!.vector.length;
    const points = records.map((record) => toPoint(record, size));
    await this.#ensureCollection(collection, name, size);
    for (let start = 0; start < points.length; start += this.#upsertBatchSize) {
      const batch = points.slice(start, start + this.#upsertBatchSize);
      await this.#request('upsert', collection, name, () =>
        this.#client.upsert(name, { wait: true, points: batch }),
      );
    }
  }

  async delete(collection: string, ids: readonly ChunkId[]): Promise<void> {
    if (ids.length === 0) return;
    const name = this.collectionName(collection);
    const points = [...new Set(ids.map(toQdrantPointId))];
    await this.#request('delete', collection, name, () => this.#client.delete(name, { wait: true, points }), {
      missing: () => undefined,
    });
  }

  async search(request: VectorSearchRequest): Promise<RetrievedChunk[]> {
    const name = this.collectionName(request.collection);
    const limit = Math.floor(request.limit);
    const vector = toVector(request.vector, 'the search vector');
    const filter = toQdrantFilter(request.filter, request.exclude) as Schemas['Filter'] | undefined;
    if (!(limit >= 1)) return [];
    // Qdrant keeps scores strictly above `score_threshold`; the contract keeps similarity ≥ threshold,
    // so ask for scores above the float32 just below the threshold.
    const threshold = request.threshold == null ? undefined : Math.fround(request.threshold);
    const response = await this.#request(
      'search',
      request.collection,
      name,
      () =>
        this.#client.query(name, {
          query: vector,
          ...(filter ? { filter } : {}),
          limit,
          ...(threshold === undefined ? {} : { score_threshold: f32Below(threshold) }),
          with_payload: true,
        }),
      { missing: () => ({ points: [] }) },
    );
    return response.points
      .filter((point) => threshold === undefined || point.score >= threshold)
      .map((point) => toChunk(point, point.score))
      .sort((a, b) => b.similarity! - a.similarity! || compareIds(a.id, b.id));
  }

  async scroll(request: VectorScrollRequest): Promise<VectorScrollPage> {
    const name = this.collectionName(request.collection);
    const limit = Math.floor(request.limit);
    if (!(limit >= 1)) {
      throw new TreeAgentError('VECTOR_STORE', `Scroll limit must be at least 1, got ${request.limit}.`, {
        details: { collection: request.collection },
      });
    }
    const offset = request.offset ? fromOffset(request.offset) : undefined;
    const filter = toQdrantFilter(request.filter, request.exclude) as Schemas['Filter'] | undefined;
    const result = await this.#request(
      'scroll',
      request.collection,
      name,
      () =>
        this.#client.scroll(name, {
          limit,
          ...(offset === undefined ? {} : { offset }),
          ...(filter ? { filter } : {}),
          with_payload: true,
          with_vector: false,
        }),
      { missing: () => ({ points: [], next_page_offset: null }) },
    );
    const next = result.next_page_offset;
    return {
      chunks: result.points.map((point) => toChunk(point, null)),
      nextOffset: next == null ? null : encodeOffset(pointId(next)),
    };
  }

  async ids(collection: string): Promise<ChunkId[]> {
    const name = this.collectionName(collection);
    const ids: ChunkId[] = [];
    let offset: QdrantPointId | undefined;
    do {
      const page = await this.#request(
        'ids',
        collection,
        name,
        () =>
          this.#client.scroll(name, {
            limit: this.#idsPageSize,
            ...(offset === undefined ? {} : { offset }),
            with_payload: [ID_KEY],
            with_vector: false,
          }),
        { missing: () => ({ points: [], next_page_offset: null }) },
      );
      for (const point of page.points) ids.push(originalId(point));
      const next = page.next_page_offset;
      offset = next == null ? undefined : pointId(next);
    } while (offset !== undefined);
    return ids;
  }

  /** Deletes the Qdrant collection of `collection` with all its points. Not part of `VectorStore`. */
  async dropCollection(collection: string): Promise<void> {
    const name = this.collectionName(collection);
    this.#ready.delete(name);
    await this.#request('drop collection', collection, name, () => this.#client.deleteCollection(name), {
      missing: () => true,
    });
  }

  /** Creates the collection on first use (cosine distance, `size` dimensions); remembered per store. */
  #ensureCollection(collection: string, name: string, size: number): Promise<void> {
    let ready = this.#ready.get(name);
    if (!ready) {
      ready = (async () => {
        const { exists } = await this.#request('check collection', collection, name, () =>
          this.#client.collectionExists(name),
        );
        if (exists) return;
        await this.#request(
          'create collection',
          collection,
          name,
          () => this.#client.createCollection(name, { vectors: { size, distance: 'Cosine' } }),
          // Created meanwhile by another process: fine.
          { existing: () => true },
        );
      })();
      this.#ready.set(name, ready);
      ready.catch(() => this.#ready.delete(name));
    }
    return ready;
  }

  async #request<T>(
    operation: string,
    collection: string,
    qdrantCollection: string,
    send: () => Promise<T>,
    on: { missing?: () => T; existing?: () => T } = {},
  ): Promise<T> {
    try {
      return await send();
    } catch (error) {
      if (on.missing && isMissingCollection(error)) return on.missing();
      if (on.existing && isExistingCollection(error)) return on.existing();
      throw vectorStoreError(error, { operation, collection, qdrantCollection, url: this.#url });
    }
  }
}

function toPoint(record: VectorRecord, size: number): Schemas['PointStruct'] {
  const vector = toVector(record.vector, `the vector of chunk ${JSON.stringify(record.id)}`);
  if (vector.length !== size) {
    throw new TreeAgentError(
      'VECTOR_STORE',
      `All vectors of one upsert must have the same size: chunk ${JSON.stringify(record.id)} has ${vector.length}, the first has ${size}.`,
    );
  }
  const payload = record.payload ?? {};
  for (const key of [ID_KEY, TEXT_KEY]) {
    if (Object.hasOwn(payload, key)) {
      throw new TreeAgentError(
        'VECTOR_STORE',
        `Chunk ${JSON.stringify(record.id)}: the payload key "${key}" is reserved by the Qdrant store (it holds the chunk's ${key === ID_KEY ? 'id' : 'text'}).`,
        { details: { id: record.id, key } },
      );
    }
  }
  return {
    id: toQdrantPointId(record.id),
    vector,
    payload: { [ID_KEY]: record.id, [TEXT_KEY]: record.text, ...payload },
  };
}

function toVector(vector: ArrayLike<number>, what: string): number[] {
  if (vector.length === 0) throw new TreeAgentError('VECTOR_STORE', `${what} is empty.`);
  const values = Array.from(vector, shortestF32);
  if (!values.every(Number.isFinite)) {
    throw new TreeAgentError('VECTOR_STORE', `${what} holds a value that is not a finite number.`);
  }
  return values;
}

function toChunk(point: Point, similarity: number | null): RetrievedChunk {
  const { [ID_KEY]: _id, [TEXT_KEY]: text, ...extra } = (point.payload ?? {}) as Record<string, unknown>;
  return { id: originalId(point), text: typeof text === 'string' ? text : '', extra, similarity };
}

/** The chunk id kept in the payload, or the point id for points written by other tools. */
function originalId(point: Point): ChunkId {
  const kept = (point.payload as Record<string, unknown> | null | undefined)?.[ID_KEY];
  if (typeof kept === 'string' || typeof kept === 'number') return kept;
  return pointId(point.id);
}

function pointId(id: unknown): QdrantPointId {
  if (typeof id === 'bigint') return id.toString();
  return id as QdrantPointId;
}

/** Reads a scroll cursor made by `encodeOffset` (this store's, or another store's chunk id). */
function fromOffset(offset: string): QdrantPointId {
  const id = decodeOffset(offset);
  if (typeof id === 'number' && !Number.isFinite(id)) {
    throw new TreeAgentError('VECTOR_STORE', `Invalid scroll offset ${JSON.stringify(offset)}.`);
  }
  return toQdrantPointId(id);
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new TreeAgentError('VECTOR_STORE', `${name} must be a positive integer, got ${value}.`);
  }
  return value;
}
