import { InMemoryVectorStore, type RetrievedChunk } from '@treeagent/core';
import type { ChunkId, VectorRecord, VectorScrollRequest } from '@treeagent/core/adapter';
import { describeQdrantCorpus, describeVectorStore } from '@treeagent/core/conformance';
import { rejection } from '@treeagent/core/test';
import fc from 'fast-check';
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { PgVectorStore, type PgVectorStoreOptions } from './index.js';
import { requireDatabase, storeInTestSchema, TEST_DATABASE_URL } from './test-support/database.js';

const variants: [string, Partial<PgVectorStoreOptions>][] = [
  ['PgVectorStore (vector(3), exact scan)', { dimensions: 3 }],
  ['PgVectorStore (any dimensions)', {}],
  ['PgVectorStore (HNSW index)', { dimensions: 3, createIndex: 'hnsw' }],
];

for (const [name, options] of variants) {
  describeVectorStore(name, async () => {
    await requireDatabase();
    return storeInTestSchema(
      'vconf',
      (schema) => new PgVectorStore({ connection: TEST_DATABASE_URL, schema, ...options }),
    );
  });
}

/** Qdrant's behaviour corpus: filters translated to SQL must give Qdrant's answers. */
describeQdrantCorpus('PgVectorStore', async () => {
  await requireDatabase();
  return storeInTestSchema(
    'qcorpus',
    (schema) => new PgVectorStore({ connection: TEST_DATABASE_URL, schema }),
  );
});

const cleanups = cleanupsAfterEach();

function newStore(label: string, options: Partial<PgVectorStoreOptions> = {}) {
  const { store, schema, dispose } = storeInTestSchema(
    label,
    (schema) => new PgVectorStore({ connection: TEST_DATABASE_URL, schema, ...options }),
  );
  cleanups.push(dispose);
  return { store, schema };
}

const rec = (id: ChunkId, vector: number[], payload: Record<string, unknown> = {}): VectorRecord => ({
  id,
  vector: Float32Array.from(vector),
  text: `text ${id}`,
  payload,
});

describe('PgVectorStore', () => {
  beforeEach(requireDatabase);

  it('gives zero vectors similarity 0, and breaks ties by id (integers first)', async () => {
    const { store } = newStore('zero', { dimensions: 2 });
    await store.upsert('c', [
      rec('b', [1, 1]),
      rec(10, [2, 2]),
      rec(2, [1, 1]),
      rec('a', [0, 0]),
      rec(1, [0, 0]),
    ]);
    const results = await store.search({ collection: 'c', vector: Float32Array.from([1, 1]), limit: 10 });
    expect(results.map((r) => r.id)).toEqual([2, 10, 'b', 1, 'a']);
    expect(results.map((r) => Math.round(r.similarity! * 1e6) / 1e6)).toEqual([1, 1, 1, 0, 0]);
    const fromZero = await store.search({ collection: 'c', vector: Float32Array.from([0, 0]), limit: 10 });
    expect(fromZero.map((r) => r.similarity)).toEqual([0, 0, 0, 0, 0]);
  });

  it('refuses vectors of another size when dimensions are fixed, and an existing table of another size', async () => {
    const { store, schema } = newStore('dims', { dimensions: 3 });
    expect((await rejection(store.upsert('c', [rec(1, [1, 0])]))).message).toMatch(/has 2 dimensions/);
    expect(
      (await rejection(store.search({ collection: 'c', vector: Float32Array.from([1]), limit: 1 }))).code,
    ).toBe('VECTOR_STORE');
    await store.upsert('c', [rec(1, [1, 0, 0])]);
    const other = new PgVectorStore({ connection: TEST_DATABASE_URL, schema, dimensions: 4 });
    cleanups.push(() => other.close());
    const error = await rejection(other.ids('c'));
    expect(error.code).toBe('VECTOR_STORE');
    expect(error.message).toContain('vector(3)');
  });

  it('without fixed dimensions compares vectors of another size with similarity 0, as in memory', async () => {
    const { store } = newStore('anydims');
    const memory = new InMemoryVectorStore();
    const records = [rec(1, [1, 0]), rec(2, [1, 0, 0]), rec(3, [0.5, 0.5])];
    await store.upsert('c', records);
    await memory.upsert('c', records);
    const request = { collection: 'c', vector: Float32Array.from([1, 0]), limit: 5 };
    const round = (chunks: RetrievedChunk[]) => chunks.map((c) => [c.id, Math.round(c.similarity! * 1e5)]);
    expect(round(await store.search(request))).toEqual(round(await memory.search(request)));
  });

  it('keeps the last of duplicate ids in one upsert, and 5 and "5" are the same id, as in memory', async () => {
    const { store } = newStore('dupes', { dimensions: 1 });
    await store.upsert('c', [rec(5, [1], { v: 1 }), rec('x', [1]), rec(5, [1], { v: 2 })]);
    expect((await store.scroll({ collection: 'c', limit: 10 })).chunks.map((c) => [c.id, c.extra])).toEqual([
      [5, { v: 2 }],
      ['x', {}],
    ]);
    await store.upsert('c', [rec('5', [1], { v: 3 })]);
    expect(await store.ids('c')).toEqual(['5', 'x']);
    await store.delete('c', [5]);
    expect(await store.ids('c')).toEqual(['x']);
  });

  it('reports payloads PostgreSQL cannot store as VECTOR_STORE errors', async () => {
    const { store } = newStore('nul', { dimensions: 1 });
    const error = await rejection(store.upsert('c', [rec(1, [1], { text: 'a\u0000b' })]));
    expect(error.code).toBe('VECTOR_STORE');
    expect(error.message).toMatch(/unsupported Unicode escape sequence|\\u0000/);
  });

  it('pages and searches like the in-memory store on random data', async () => {
    const { store } = newStore('random', { dimensions: 3 });
    const idArb = fc.oneof(
      fc.integer({ min: 0, max: 60 }),
      fc.constantFrom('a', 'b', 'B', 'ab', 'é', 'z', '10', '9', '0b9c6d3e-8f2a-4c1b-9d7e-5a4b3c2d1e0f'),
    );
    const vectorArb = fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 3, maxLength: 3 });
    const payloadArb = fc.record({ k: fc.constantFrom('x', 'y'), n: fc.integer({ min: 0, max: 5 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.tuple(idArb, vectorArb, payloadArb), {
          selector: ([id]) => String(id),
          maxLength: 25,
        }),
        fc.integer({ min: 1, max: 7 }),
        vectorArb,
        // Thresholds away from the similarities small integer vectors reach exactly (-1, 0, 0.5, 0.9…):
        // at a boundary, float rounding (double in memory, single in pgvector) decides either way.
        fc.option(fc.constantFrom(-0.9999, 0.0001, 0.4999, 0.9001), { nil: undefined }),
        fc.array(idArb, { maxLength: 3 }),
        async (points, limit, query, threshold, exclude) => {
          const records = points.map(([id, vector, payload]) => rec(id, vector, payload));
          const memory = new InMemoryVectorStore();
          await memory.upsert('c', records);
          await store.delete('c', await store.ids('c'));
          await store.upsert('c', records);
          const filter = { must: [{ key: 'n', range: { gte: 1 } }] };
          // Scroll: the same pages and cursors.
          let offset: string | null = null;
          do {
            const request: VectorScrollRequest = { collection: 'c', limit, offset, filter, exclude };
            const [mine, theirs] = [await store.scroll(request), await memory.scroll(request)];
            expect(mine).toEqual(theirs);
            offset = mine.nextOffset;
          } while (offset !== null);
          // Search: the same chunks with the same similarities, best first. Equal similarities may
          // differ in their last bits between the stores, so ties are compared as sets (the tie
          // order by id is tested above) and the limit takes everything.
          const request = {
            collection: 'c',
            vector: Float32Array.from(query),
            limit: 100,
            threshold,
            filter,
            exclude,
          };
          const [mine, theirs] = [await store.search(request), await memory.search(request)];
          const byId = (chunks: RetrievedChunk[]) =>
            new Map(chunks.map((c) => [`${typeof c.id}:${c.id}`, c.similarity!]));
          const [mineById, theirsById] = [byId(mine), byId(theirs)];
          expect([...mineById.keys()].sort()).toEqual([...theirsById.keys()].sort());
          for (const [id, similarity] of mineById) expect(similarity).toBeCloseTo(theirsById.get(id)!, 5);
          for (let i = 1; i < mine.length; i++) {
            expect(mine[i]!.similarity!).toBeLessThanOrEqual(mine[i - 1]!.similarity! + 1e-6);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('with an HNSW index, a filtered search still fills its limit (iterative scan) and uses the index', async () => {
    // A pool whose queries are recorded, to EXPLAIN the store's own search statement.
    const pool = new pg.Pool({ connectionString: TEST_DATABASE_URL });
    const statements: { text: string; values: unknown[] }[] = [];
    const wrapped = new WeakSet<object>();
    const connect = pool.connect.bind(pool);
    pool.connect = (async (callback?: unknown) => {
      // pool.query connects with a callback: leave it alone.
      if (typeof callback === 'function') return (connect as (cb: unknown) => void)(callback);
      const client = await connect();
      if (!wrapped.has(client)) {
        wrapped.add(client);
        const query = client.query.bind(client) as (...args: unknown[]) => unknown;
        (client as unknown as { query: typeof query }).query = (...args) => {
          if (typeof args[0] === 'string')
            statements.push({ text: args[0], values: (args[1] as unknown[]) ?? [] });
          return query(...args);
        };
      }
      return client;
    }) as typeof pool.connect;
    const { store } = newStore('hnsw', { pool, dimensions: 8, createIndex: 'hnsw' });
    cleanups.push(() => pool.end());
    const component = fc.integer({ min: -1000, max: 1000 }).map((n) => n / 1000);
    const random = fc.sample(fc.array(component, { minLength: 8, maxLength: 8 }), { numRuns: 3000, seed: 7 });
    random[0] = [1, 0.5, -0.5, 0.25, 0, 0.1, -0.2, 0.3];
    await store.upsert(
      'c',
      random.map((vector, i) => rec(i, vector, { rare: i % 150 === 0 })),
    );
    await pool.query(`ANALYZE ${store.table}`);
    const query = { collection: 'c', vector: Float32Array.from(random[0]!), limit: 10 };
    const filter = { must: [{ key: 'rare', match: { value: true } }] };
    statements.length = 0;
    const found = await store.search({ ...query, filter });
    // Without the iterative scan, the 40 candidates of ef_search would hold fewer than 10 rare ones.
    expect(found).toHaveLength(10);
    expect(found.every((chunk) => (chunk.id as number) % 150 === 0)).toBe(true);
    expect(found[0]!.id).toBe(0);
    const [settings, search] = statements.filter((s) => s.text.trim().startsWith('SELECT'));
    const client = await connect();
    try {
      await client.query('BEGIN');
      await client.query(settings!.text, settings!.values);
      const { rows } = await client.query(`EXPLAIN ${search!.text}`, search!.values);
      await client.query('ROLLBACK');
      expect(rows.map((row) => row['QUERY PLAN']).join('\n')).toContain(
        'Index Scan using treeagent_vectors_hnsw',
      );
    } finally {
      client.release();
    }
  });
});
