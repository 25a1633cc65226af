/**
 * Writes `recordings/conformance/*.json`: the HTTP exchanges a Qdrant 1.x server has with
 * `QdrantVectorStore` while the shared `describeVectorStore` suite runs, one file per test.
 *
 * Qdrant cannot run in this project's CI, so these exchanges are written from Qdrant's REST API
 * documentation rather than captured: request bodies are spelled out here in Qdrant's JSON, and the
 * responses are what Qdrant returns for the conformance data: points selected with the shared
 * filter evaluator (`evaluateFilter`, the reference for Qdrant's filter semantics), cosine scores
 * computed the way Qdrant does (vectors normalised as float32, scores as float32, kept only when
 * strictly above `score_threshold`), ties broken by id, scroll in id order (integers, then UUIDs)
 * with `next_page_offset` the id of the first point of the next page, the `{ result, status, time }`
 * envelope, and `{ status: { error }, time }` with HTTP 404 for a missing collection.
 *
 * Run after a change to the conformance suite: `npx tsx packages/qdrant/src/test-support/write-conformance-recordings.ts`
 * and review the diff. Tests never run this file.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { ChunkId, VectorRecord } from '@treeagent/core/adapter';
import { compareIds, evaluateFilter } from '@treeagent/core/adapter';
import { CONFORMANCE_FILTERS, CONFORMANCE_RECORDS } from '@treeagent/core/conformance';
import type { Filter } from '@treeagent/core/filter';
import { recordingFileName } from './recording-name.js';
import type { RecordedExchange, Recording } from './replay-server.js';

const COLLECTION = 'treeagent_c';
const UUID = '0b9c6d3e-8f2a-4c1b-9d7e-5a4b3c2d1e0f';
const IDS_PAGE_SIZE = 256;

export const SOURCES = [
  'https://api.qdrant.tech/api-reference/collections/collection-exists',
  'https://api.qdrant.tech/api-reference/collections/create-collection',
  'https://api.qdrant.tech/api-reference/points/upsert-points',
  'https://api.qdrant.tech/api-reference/search/query-points',
  'https://api.qdrant.tech/api-reference/points/scroll-points',
  'https://api.qdrant.tech/api-reference/points/delete-points',
  'https://qdrant.tech/documentation/concepts/filtering/',
];

/** The shortest decimal that reads back as the same float32, as Qdrant writes floats. */
function f32(value: number): number {
  const target = Math.fround(value);
  if (target === 0 || !Number.isFinite(target)) return target === 0 ? 0 : target;
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(target.toPrecision(digits));
    if (Math.fround(candidate) === target) return candidate;
  }
  return target;
}

/** The float32 just below `value`: what the store sends as `score_threshold` for "similarity ≥ value". */
function f32Below(value: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setFloat32(0, value);
  const bits = view.getUint32(0);
  view.setUint32(0, value > 0 ? bits - 1 : value < 0 ? bits + 1 : 0x80000001);
  return f32(view.getFloat32(0));
}

let clock = 0;
/** Plausible, deterministic `time` values (seconds spent by the server). */
function time(base = 0.0002): number {
  clock = (clock + 7) % 97;
  return Number((base + clock * 0.0000031).toPrecision(4));
}

const ok = (result: unknown, base?: number) => ({
  status: 200,
  body: { result, status: 'ok', time: time(base) },
});
const missing = (name: string) => ({
  status: 404,
  body: { status: { error: `Not found: Collection \`${name}\` doesn't exist!` }, time: time(0.00001) },
});

/** A tiny model of one Qdrant collection, enough to answer the suite's requests. */
class Collection {
  readonly points = new Map<ChunkId, { record: VectorRecord; unit: number[]; version: number }>();
  operation = 0;

  upsert(records: readonly VectorRecord[]): number {
    const operation = this.operation++;
    for (const record of records) {
      const vector = Array.from(record.vector, Math.fround);
      const norm = Math.fround(Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)));
      this.points.set(record.id, {
        record,
        unit: vector.map((x) => Math.fround(x / norm)),
        version: operation,
      });
    }
    return operation;
  }

  delete(ids: readonly ChunkId[]): number {
    for (const id of ids) this.points.delete(id);
    return this.operation++;
  }

  selected(filter: Filter | undefined, exclude: readonly ChunkId[] = []) {
    return [...this.points.values()]
      .filter(({ record }) => !exclude.includes(record.id))
      .filter(({ record }) => !filter || evaluateFilter(filter, { id: record.id, payload: record.payload }))
      .sort((a, b) => compareIds(a.record.id, b.record.id));
  }

  query(vector: number[], limit: number, filter?: Filter, exclude?: ChunkId[], threshold?: number) {
    const v = vector.map(Math.fround);
    const norm = Math.fround(Math.sqrt(v.reduce((sum, x) => sum + x * x, 0)));
    const unit = v.map((x) => Math.fround(x / norm));
    return this.selected(filter, exclude)
      .map((point) => ({
        point,
        score: Math.fround(point.unit.reduce((sum, x, i) => sum + x * unit[i]!, 0)),
      }))
      .filter(({ score }) => threshold === undefined || score > threshold)
      .sort((a, b) => b.score - a.score || compareIds(a.point.record.id, b.point.record.id))
      .slice(0, limit)
      .map(({ point, score }) => ({
        id: point.record.id,
        version: point.version,
        score: f32(score),
        payload: payloadOf(point.record),
      }));
  }

  scroll(limit: number, offset?: ChunkId, filter?: Filter, exclude?: ChunkId[]) {
    const all = this.selected(filter, exclude);
    const start =
      offset === undefined ? 0 : all.findIndex(({ record }) => compareIds(record.id, offset) >= 0);
    const from = start < 0 ? all.length : start;
    const page = all.slice(from, from + limit);
    return {
      points: page.map(({ record }) => ({ id: record.id, payload: payloadOf(record) })),
      next_page_offset: all[from + limit]?.record.id ?? null,
    };
  }
}

function payloadOf(record: VectorRecord): Record<string, unknown> {
  return { _treeagent_id: record.id, _treeagent_text: record.text, ...record.payload };
}

function pointOf(record: VectorRecord) {
  return { id: record.id, vector: Array.from(record.vector, f32), payload: payloadOf(record) };
}

function withExclusions(filter: Filter | undefined, exclude: ChunkId[]): Record<string, unknown> | undefined {
  if (!exclude.length) return filter as Record<string, unknown> | undefined;
  const mustNot = filter?.must_not ? [filter.must_not].flat() : [];
  return { ...filter, must_not: [...mustNot, { has_id: exclude }] };
}

/** Builds the exchanges of one test against a fresh server. */
class Session {
  readonly exchanges: RecordedExchange[] = [];
  readonly c = new Collection();

  constructor() {
    clock = 0;
    this.add(
      'the collection does not exist yet',
      'GET',
      `/collections/${COLLECTION}/exists`,
      undefined,
      undefined,
      ok({ exists: false }, 0.00001),
    );
    this.add(
      'create it: cosine, the size of the vectors',
      'PUT',
      `/collections/${COLLECTION}`,
      undefined,
      { vectors: { size: 3, distance: 'Cosine' } },
      ok(true, 0.08),
    );
    this.upsert(CONFORMANCE_RECORDS, 'the conformance records');
  }

  add(
    note: string,
    method: RecordedExchange['request']['method'],
    path: string,
    query: Record<string, string> | undefined,
    body: unknown,
    response: RecordedExchange['response'],
  ): void {
    this.exchanges.push({
      note,
      request: { method, path, ...(query ? { query } : {}), ...(body === undefined ? {} : { body }) },
      response,
    });
  }

  upsert(records: VectorRecord[], what: string): void {
    const operation = this.c.upsert(records);
    this.add(
      `upsert ${what}`,
      'PUT',
      `/collections/${COLLECTION}/points`,
      { wait: 'true' },
      { points: records.map(pointOf) },
      ok({ operation_id: operation, status: 'completed' }, 0.004),
    );
  }

  query(
    note: string,
    options: {
      vector: number[];
      limit: number;
      filter?: Filter;
      exclude?: ChunkId[];
      threshold?: number;
      collection?: string;
    },
  ): void {
    const sent = options.threshold === undefined ? undefined : f32Below(options.threshold);
    const filter = withExclusions(options.filter, options.exclude ?? []);
    const body = {
      query: options.vector,
      ...(filter ? { filter } : {}),
      limit: options.limit,
      ...(sent === undefined ? {} : { score_threshold: sent }),
      with_payload: true,
    };
    const name = options.collection ?? COLLECTION;
    const response =
      name === COLLECTION
        ? ok({ points: this.c.query(options.vector, options.limit, options.filter, options.exclude, sent) })
        : missing(name);
    this.add(note, 'POST', `/collections/${name}/points/query`, undefined, body, response);
  }

  scroll(
    note: string,
    options: { limit: number; offset?: ChunkId; filter?: Filter; exclude?: ChunkId[] },
  ): void {
    const filter = withExclusions(options.filter, options.exclude ?? []);
    const body = {
      limit: options.limit,
      ...(options.offset === undefined ? {} : { offset: options.offset }),
      ...(filter ? { filter } : {}),
      with_payload: true,
      with_vector: false,
    };
    this.add(
      note,
      'POST',
      `/collections/${COLLECTION}/points/scroll`,
      undefined,
      body,
      ok(this.c.scroll(options.limit, options.offset, options.filter, options.exclude)),
    );
  }

  ids(note: string, collection = COLLECTION): void {
    const body = { limit: IDS_PAGE_SIZE, with_payload: ['_treeagent_id'], with_vector: false };
    if (collection !== COLLECTION) {
      this.add(
        note,
        'POST',
        `/collections/${collection}/points/scroll`,
        undefined,
        body,
        missing(collection),
      );
      return;
    }
    const page = this.c.scroll(IDS_PAGE_SIZE);
    const points = page.points.map((point) => ({
      id: point.id,
      payload: { _treeagent_id: point.payload._treeagent_id },
    }));
    this.add(
      note,
      'POST',
      `/collections/${collection}/points/scroll`,
      undefined,
      body,
      ok({ points, next_page_offset: page.next_page_offset }),
    );
  }

  delete(ids: ChunkId[]): void {
    const operation = this.c.delete(ids);
    this.add(
      `delete ${ids.join(', ')}`,
      'POST',
      `/collections/${COLLECTION}/points/delete`,
      { wait: 'true' },
      { points: ids },
      ok({ operation_id: operation, status: 'completed' }, 0.002),
    );
  }
}

const tests: { name: string; run: (s: Session) => void }[] = [
  {
    name: 'search orders by cosine similarity, best first, with limit',
    run: (s) => s.query('top 3 for [1, 0, 0]', { vector: [1, 0, 0], limit: 3 }),
  },
  {
    name: 'search keeps only similarities at or above the threshold',
    run: (s) => {
      s.query('threshold 0.85, sent as the float32 just below it', {
        vector: [1, 0, 0],
        limit: 10,
        threshold: 0.85,
      });
      s.query('threshold -1 keeps everything', { vector: [1, 0, 0], limit: 10, threshold: -1 });
    },
  },
  {
    name: 'search leaves out excluded ids (the blacklist) and applies the filter',
    run: (s) =>
      s.query('food, without chunk 1', {
        vector: [1, 0, 0],
        limit: 10,
        exclude: [1],
        filter: { must: [{ key: 'category', match: { value: 'food' } }] },
      }),
  },
  ...CONFORMANCE_FILTERS.map(({ name, filter }) => ({
    name: `filter: ${name}`,
    run: (s: Session) => {
      s.scroll(`scroll with the filter "${name}"`, { limit: 100, filter });
      s.query(`search with the filter "${name}"`, { vector: [1, 1, 1], limit: 100, filter });
    },
  })),
  {
    name: 'scroll pages through the records in id order with an offset cursor',
    run: (s) => {
      s.scroll('first page', { limit: 2 });
      s.scroll('second page, from the offset Qdrant returned', { limit: 2, offset: 3 });
      s.scroll('last page', { limit: 2, offset: 5 });
    },
  },
  {
    name: 'scroll with a filter and exclusions pages through what passes',
    run: (s) => {
      const filter: Filter = { must: [{ key: 'category', match: { value: 'food' } }] };
      s.scroll('first page: food without chunk 2', { limit: 1, filter, exclude: [2] });
      s.scroll('next page, from the UUID point', { limit: 5, offset: UUID, filter, exclude: [2] });
    },
  },
  {
    name: 'upsert replaces by id, delete removes, ids lists, collections are separate',
    run: (s) => {
      s.upsert(
        [
          {
            id: 5,
            vector: Float32Array.from([1, 0, 0]),
            text: 'Reso in 30 giorni',
            payload: { category: 'return', price: 1 },
          },
        ],
        'chunk 5 again (the collection is known: no existence check)',
      );
      s.query('search with has_id [5]', { vector: [1, 0, 0], limit: 1, filter: { must: [{ has_id: [5] }] } });
      s.delete([5, 4]);
      s.ids('ids: scroll with only the id payload key');
      s.ids('ids of a collection never created', 'treeagent_other');
      s.query('search in a collection never created', {
        vector: [1, 0, 0],
        limit: 5,
        collection: 'treeagent_other',
      });
    },
  },
];

/** Pretty JSON with arrays of numbers, strings and booleans kept on one line. */
export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\[\s*([^[\]{}]*?)\s*\]/g,
    (_match, inner: string) => `[${inner.replace(/,\s+/g, ', ')}]`,
  );
}

const directory = new URL('./recordings/conformance/', import.meta.url);
mkdirSync(directory, { recursive: true });
for (const file of readdirSync(directory)) if (file.endsWith('.json')) rmSync(new URL(file, directory));
for (const test of tests) {
  const session = new Session();
  test.run(session);
  const recording: Recording = {
    description: `Qdrant 1.x REST exchanges of QdrantVectorStore in the conformance test "${test.name}", written from the API documentation (see write-conformance-recordings.ts).`,
    sources: SOURCES,
    exchanges: session.exchanges,
  };
  writeFileSync(new URL(recordingFileName(test.name), directory), `${formatJson(recording)}\n`);
}
console.log(`wrote ${tests.length} recordings to ${directory.pathname}`);
