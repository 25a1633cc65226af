import { describe, expect, test } from 'vitest';
import { evaluateFilter } from '../filter/evaluate-filter.js';
import type { ChunkId } from '../protocol/chunk-id.js';
import type { Filter } from '../protocol/filter.js';
import { compareIds } from '../vector/in-memory-vector-store.js';
import type { VectorRecord, VectorStore } from '../vector/vector-store.js';

/** Creates a fresh, empty store for one test, and disposes of it afterwards. */
export type VectorStoreFactory = () => Promise<{ store: VectorStore; dispose?: () => Promise<void> }>;

const UUID = '0b9c6d3e-8f2a-4c1b-9d7e-5a4b3c2d1e0f';

/** Records whose payloads exercise every filter operator of docs/concepts.md §6. */
export const CONFORMANCE_RECORDS: VectorRecord[] = [
  record(1, [1, 0, 0], 'Pizza margherita', {
    category: 'food',
    price: 10,
    path: [1, 2, 10],
    tags: ['pizza', 'veg'],
    city: { name: 'Roma' },
    date: '2026-01-10T00:00:00Z',
    note: null,
    items: [{ sku: 'a', qty: 1 }],
  }),
  record(2, [0.9, 0.1, 0], 'Pasta al pomodoro', {
    category: 'food',
    price: 25,
    path: [1, 2, 11],
    tags: ['pasta'],
    city: { name: 'Milano' },
    date: '2026-02-10T00:00:00Z',
    items: [
      { sku: 'b', qty: 5 },
      { sku: 'a', qty: 2 },
    ],
  }),
  record(3, [0, 1, 0], 'Bici da corsa in carbonio', {
    category: 'bike',
    price: 300,
    path: [1, 3],
    tags: [],
    city: { name: 'Roma' },
    description: 'Bici da corsa in carbonio',
  }),
  record(4, [0, 0.8, 0.6], 'Bici da città usata', {
    category: 'bike',
    price: 150,
    tags: ['city', 'used'],
    note: 'ok',
  }),
  record(5, [0, 0, 1], 'Reso gratuito', { category: 'return', price: 0 }),
  record(UUID, [0.8, 0, 0.6], 'Insalata', { category: 'food', price: 5, tags: ['veg'] }),
];

/** Filters covering must, should, must_not, min_should and every condition; expectations come from the shared evaluator. */
export const CONFORMANCE_FILTERS: { name: string; filter: Filter }[] = [
  { name: 'match value', filter: { must: [{ key: 'category', match: { value: 'food' } }] } },
  { name: 'match value on an array', filter: { must: [{ key: 'tags', match: { value: 'veg' } }] } },
  { name: 'match any', filter: { must: [{ key: 'category', match: { any: ['bike', 'return'] } }] } },
  { name: 'match except', filter: { must: [{ key: 'category', match: { except: ['food'] } }] } },
  { name: 'match text', filter: { must: [{ key: 'description', match: { text: 'corsa' } }] } },
  { name: 'range', filter: { must: [{ key: 'price', range: { gte: 10, lt: 300 } }] } },
  { name: 'datetime range', filter: { must: [{ key: 'date', range: { gt: '2026-01-15T00:00:00Z' } }] } },
  { name: 'nested key', filter: { must: [{ key: 'city.name', match: { value: 'Roma' } }] } },
  { name: 'array of objects key', filter: { must: [{ key: 'items[].sku', match: { value: 'a' } }] } },
  { name: 'is_empty', filter: { must: [{ is_empty: { key: 'tags' } }] } },
  { name: 'is_null', filter: { must: [{ is_null: { key: 'note' } }] } },
  { name: 'has_id', filter: { must: [{ has_id: [1, 5, UUID] }] } },
  { name: 'values_count', filter: { must: [{ key: 'tags', values_count: { gte: 2 } }] } },
  {
    name: 'nested',
    filter: {
      must: [
        {
          nested: {
            key: 'items',
            filter: {
              must: [
                { key: 'sku', match: { value: 'a' } },
                { key: 'qty', range: { gte: 2 } },
              ],
            },
          },
        },
      ],
    },
  },
  {
    name: 'should',
    filter: {
      should: [
        { key: 'category', match: { value: 'return' } },
        { key: 'price', range: { gt: 200 } },
      ],
    },
  },
  { name: 'must_not', filter: { must_not: [{ key: 'category', match: { value: 'food' } }] } },
  {
    name: 'min_should',
    filter: {
      min_should: {
        conditions: [
          { key: 'category', match: { value: 'food' } },
          { key: 'tags', match: { value: 'veg' } },
          { key: 'price', range: { lt: 8 } },
        ],
        min_count: 2,
      },
    },
  },
  {
    name: 'integer in an array (exploration paths)',
    filter: {
      must: [{ key: 'path', match: { value: 2 } }],
      must_not: [{ key: 'path', match: { any: [11] } }],
    },
  },
  {
    name: 'nested clauses',
    filter: {
      must: [
        {
          should: [
            { key: 'city.name', match: { value: 'Roma' } },
            { key: 'price', range: { lte: 5 } },
          ],
        },
      ],
      must_not: [{ is_empty: { key: 'tags' } }],
    },
  },
];

/**
 * The `VectorStore` conformance suite: every implementation runs it (in memory, SQLite,
 * PostgreSQL + pgvector, Qdrant). Filters must select exactly what the shared evaluator selects.
 */
export function describeVectorStore(name: string, factory: VectorStoreFactory): void {
  const withStore = (body: (store: VectorStore) => Promise<void>) => async () => {
    const { store, dispose } = await factory();
    try {
      await store.upsert('c', CONFORMANCE_RECORDS);
      await body(store);
    } finally {
      await dispose?.();
    }
  };

  describe(`VectorStore conformance: ${name}`, () => {
    test(
      'search orders by cosine similarity, best first, with limit',
      withStore(async (store) => {
        const results = await store.search({
          collection: 'c',
          vector: Float32Array.from([1, 0, 0]),
          limit: 3,
        });
        expect(results.map((result) => result.id)).toEqual([1, 2, UUID]);
        expect(results[0]!.similarity).toBeCloseTo(1, 5);
        expect(results[1]!.similarity).toBeCloseTo(0.9 / Math.hypot(0.9, 0.1), 5);
        expect(results[0]).toMatchObject({
          text: 'Pizza margherita',
          extra: CONFORMANCE_RECORDS[0]!.payload,
        });
      }),
    );

    test(
      'search keeps only similarities at or above the threshold',
      withStore(async (store) => {
        const results = await store.search({
          collection: 'c',
          vector: Float32Array.from([1, 0, 0]),
          limit: 10,
          threshold: 0.85,
        });
        expect(results.map((result) => result.id)).toEqual([1, 2]);
        const all = await store.search({
          collection: 'c',
          vector: Float32Array.from([1, 0, 0]),
          limit: 10,
          threshold: -1,
        });
        expect(all).toHaveLength(CONFORMANCE_RECORDS.length);
      }),
    );

    test(
      'search leaves out excluded ids (the blacklist) and applies the filter',
      withStore(async (store) => {
        const results = await store.search({
          collection: 'c',
          vector: Float32Array.from([1, 0, 0]),
          limit: 10,
          exclude: [1],
          filter: { must: [{ key: 'category', match: { value: 'food' } }] },
        });
        expect(results.map((result) => result.id)).toEqual([2, UUID]);
      }),
    );

    for (const { name: filterName, filter } of CONFORMANCE_FILTERS) {
      test(
        `filter: ${filterName}`,
        withStore(async (store) => {
          const expected = CONFORMANCE_RECORDS.filter((item) =>
            evaluateFilter(filter, { id: item.id, payload: item.payload }),
          )
            .map((item) => item.id)
            .sort(compareIds);
          const page = await store.scroll({ collection: 'c', limit: 100, filter });
          expect(page.chunks.map((chunk) => chunk.id)).toEqual(expected);
          const searched = await store.search({
            collection: 'c',
            vector: Float32Array.from([1, 1, 1]),
            limit: 100,
            filter,
          });
          expect(searched.map((chunk) => chunk.id).sort(compareIds)).toEqual(expected);
        }),
      );
    }

    test('the filters select something and not everything (the suite can fail)', () => {
      for (const { filter } of CONFORMANCE_FILTERS) {
        const selected = CONFORMANCE_RECORDS.filter((item) =>
          evaluateFilter(filter, { id: item.id, payload: item.payload }),
        );
        expect(selected.length).toBeGreaterThan(0);
        expect(selected.length).toBeLessThan(CONFORMANCE_RECORDS.length);
      }
    });

    test(
      'scroll pages through the records in id order with an offset cursor',
      withStore(async (store) => {
        const seen: ChunkId[] = [];
        let offset: string | null = null;
        let pages = 0;
        do {
          const page = await store.scroll({ collection: 'c', limit: 2, offset });
          expect(page.chunks.every((chunk) => chunk.similarity === null)).toBe(true);
          seen.push(...page.chunks.map((chunk) => chunk.id));
          offset = page.nextOffset;
          pages++;
        } while (offset !== null && pages < 10);
        expect(seen).toEqual([1, 2, 3, 4, 5, UUID]);
        expect(pages).toBe(3);
      }),
    );

    test(
      'scroll with a filter and exclusions pages through what passes',
      withStore(async (store) => {
        const first = await store.scroll({
          collection: 'c',
          limit: 1,
          filter: { must: [{ key: 'category', match: { value: 'food' } }] },
          exclude: [2],
        });
        expect(first.chunks.map((chunk) => chunk.id)).toEqual([1]);
        const second = await store.scroll({
          collection: 'c',
          limit: 5,
          offset: first.nextOffset,
          filter: { must: [{ key: 'category', match: { value: 'food' } }] },
          exclude: [2],
        });
        expect(second.chunks.map((chunk) => chunk.id)).toEqual([UUID]);
        expect(second.nextOffset).toBeNull();
      }),
    );

    test(
      'upsert replaces by id, delete removes, ids lists, collections are separate',
      withStore(async (store) => {
        await store.upsert('c', [
          record(5, [1, 0, 0], 'Reso in 30 giorni', { category: 'return', price: 1 }),
        ]);
        const [best] = await store.search({
          collection: 'c',
          vector: Float32Array.from([1, 0, 0]),
          limit: 1,
          filter: { must: [{ has_id: [5] }] },
        });
        expect(best).toMatchObject({
          id: 5,
          text: 'Reso in 30 giorni',
          extra: { category: 'return', price: 1 },
        });
        await store.delete('c', [5, 4]);
        expect((await store.ids('c')).sort(compareIds)).toEqual([1, 2, 3, UUID]);
        expect(await store.ids('other')).toEqual([]);
        expect(
          await store.search({ collection: 'other', vector: Float32Array.from([1, 0, 0]), limit: 5 }),
        ).toEqual([]);
      }),
    );
  });
}

function record(id: ChunkId, vector: number[], text: string, payload: Record<string, unknown>): VectorRecord {
  return { id, vector: Float32Array.from(vector), text, payload };
}
