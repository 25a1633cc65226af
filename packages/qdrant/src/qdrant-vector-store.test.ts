import { createServer } from 'node:net';
import type { VectorRecord } from '@treeagent/core/adapter';
import { rejection } from '@treeagent/core/test';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { QdrantVectorStore, type QdrantVectorStoreOptions } from './qdrant-vector-store.js';
import {
  loadRecording,
  type RecordedExchange,
  type ReplayServer,
  startReplayServer,
} from './test-support/replay-server.js';

const UPPER_UUID = 'A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D';

let server: ReplayServer | undefined;

afterEach(async () => {
  const current = server;
  server = undefined;
  if (current) {
    await current.close();
    current.verify();
  }
});

async function replay(recording: string | RecordedExchange[], options: QdrantVectorStoreOptions = {}) {
  server = await startReplayServer(typeof recording === 'string' ? loadRecording(recording) : recording);
  return new QdrantVectorStore({ url: server.url, ...options });
}

function record(
  id: VectorRecord['id'],
  vector: number[],
  text: string,
  payload: Record<string, unknown> = {},
) {
  return { id, vector: Float32Array.from(vector), text, payload };
}

describe('QdrantVectorStore id mapping (recorded exchanges)', () => {
  test('integer, UUID and arbitrary string ids round-trip through Qdrant point ids', async () => {
    const store = await replay('id-mapping.json', { idsPageSize: 2 });
    expect(store.collectionName('faq:it')).toBe('treeagent_faq_it_59ce7b65');
    await store.upsert('faq:it', [
      record(42, [1, 0], 'Chunk with an integer id', { lang: 'it' }),
      record(UPPER_UUID, [0, 1], 'Chunk with a UUID id', { lang: 'it' }),
      record('faq:refunds', [0.6, 0.8], 'Refunds take 30 days', { lang: 'it', topic: 'refunds' }),
    ]);

    const first = await store.scroll({ collection: 'faq:it', limit: 2 });
    expect(first.chunks).toEqual([
      { id: 42, text: 'Chunk with an integer id', extra: { lang: 'it' }, similarity: null },
      { id: UPPER_UUID, text: 'Chunk with a UUID id', extra: { lang: 'it' }, similarity: null },
    ]);
    expect(first.nextOffset).toBe('s:ad7543fb-3ad1-5897-a206-6bea0e986ee7');
    const second = await store.scroll({ collection: 'faq:it', limit: 2, offset: first.nextOffset });
    expect(second).toEqual({
      chunks: [
        {
          id: 'faq:refunds',
          text: 'Refunds take 30 days',
          extra: { lang: 'it', topic: 'refunds' },
          similarity: null,
        },
      ],
      nextOffset: null,
    });

    const found = await store.search({
      collection: 'faq:it',
      vector: Float32Array.from([0.6, 0.8]),
      limit: 5,
      filter: { must: [{ has_id: ['faq:refunds', 42] }] },
      exclude: [UPPER_UUID],
    });
    expect(found.map((chunk) => [chunk.id, chunk.similarity])).toEqual([
      ['faq:refunds', 1],
      [42, 0.6],
    ]);
    expect(found[0]).toMatchObject({ text: 'Refunds take 30 days', extra: { lang: 'it', topic: 'refunds' } });

    expect(await store.ids('faq:it')).toEqual([42, UPPER_UUID, 'faq:refunds']);
    await store.delete('faq:it', ['faq:refunds', UPPER_UUID.toLowerCase()]);
  });

  test('points written by another tool come back with their Qdrant id and their whole payload', async () => {
    const store = await replay('foreign-points.json');
    const page = await store.scroll({ collection: 'shared', limit: 10 });
    expect(page.chunks).toEqual([
      { id: 7, text: 'Ours', extra: { lang: 'en' }, similarity: null },
      {
        id: '5c56c793-69f3-4fbf-87e6-c4bf54c28c26',
        text: '',
        extra: { title: 'Written by another tool' },
        similarity: null,
      },
    ]);
  });
});

describe('QdrantVectorStore errors', () => {
  test('Qdrant error responses become VECTOR_STORE errors quoting Qdrant', async () => {
    const store = await replay('errors.json');
    const upsert = await rejection(store.upsert('c', [record(1, [1, 0, 0, 0], 'Four dimensions')]));
    expect(upsert.code).toBe('VECTOR_STORE');
    expect(upsert.message).toBe(
      'Qdrant upsert on collection "c" (Qdrant collection "treeagent_c") failed with HTTP 400: Wrong input: Vector dimension error: expected dim: 3, got 4',
    );
    expect(upsert.details).toMatchObject({
      operation: 'upsert',
      collection: 'c',
      qdrantCollection: 'treeagent_c',
      status: 400,
      qdrantError: 'Wrong input: Vector dimension error: expected dim: 3, got 4',
    });

    const search = await rejection(
      store.search({ collection: 'c', vector: Float32Array.from([1, 0]), limit: 3 }),
    );
    expect(search.code).toBe('VECTOR_STORE');
    expect(search.message).toContain('Qdrant search on collection "c"');
    expect(search.message).toContain('HTTP 400: Wrong input: Vector dimension error: expected dim: 3, got 2');

    const old = await rejection(
      store.search({ collection: 'c', vector: Float32Array.from([1, 0, 0]), limit: 3 }),
    );
    expect(old.code).toBe('VECTOR_STORE');
    expect(old.message).toContain('HTTP 404: Not Found (no such endpoint');
    expect(old.message).toContain('Qdrant 1.10 or later');
  });

  test('a collection created meanwhile by another process (409) does not stop the upsert; the API key is sent', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const store = await replay('create-race.json', { apiKey: 'test-key' });
      await store.upsert('c', [record(1, [1, 0, 0], 'Pizza margherita', { category: 'food' })]);
      expect(warn).toHaveBeenCalledWith('Api key is used with unsecure connection.');
    } finally {
      warn.mockRestore();
    }
  });

  test('a server that is not listening gives a VECTOR_STORE error naming the URL', async () => {
    const port = await freePort();
    const store = new QdrantVectorStore({ url: `http://127.0.0.1:${port}` });
    const error = await rejection(store.scroll({ collection: 'c', limit: 1 }));
    expect(error.code).toBe('VECTOR_STORE');
    expect(error.message).toContain(`cannot reach Qdrant at http://127.0.0.1:${port}`);
    expect(error.message).toContain('ECONNREFUSED');
    expect(error.details).toMatchObject({ operation: 'scroll', url: `http://127.0.0.1:${port}` });
  });

  test('bad input is refused before any request', async () => {
    const store = await replay([]);
    const reserved = await rejection(store.upsert('c', [record(1, [1, 0], 'x', { _treeagent_text: 'y' })]));
    expect(reserved.code).toBe('VECTOR_STORE');
    expect(reserved.message).toContain('"_treeagent_text" is reserved');
    const sizes = await rejection(store.upsert('c', [record(1, [1, 0], 'a'), record(2, [1, 0, 0], 'b')]));
    expect(sizes.message).toContain('same size');
    expect((await rejection(store.upsert('c', [record(1, [Number.NaN, 0], 'a')]))).message).toContain(
      'finite',
    );
    expect((await rejection(store.upsert('c', [record(Number.POSITIVE_INFINITY, [1, 0], 'a')]))).code).toBe(
      'VECTOR_STORE',
    );
    const filter = await rejection(
      store.scroll({ collection: 'c', limit: 1, filter: { must: [{ key: 'a', match: {} }] } as never }),
    );
    expect(filter.code).toBe('FILTER');
    expect((await rejection(store.scroll({ collection: 'c', limit: 0 }))).message).toContain('at least 1');
    expect(await store.search({ collection: 'c', vector: Float32Array.from([1, 0]), limit: 0 })).toEqual([]);
    await store.upsert('c', []);
    await store.delete('c', []);
    expect(() => new QdrantVectorStore({ collectionPrefix: 'tree agent/' })).toThrow(/collection prefix/);
    expect(() => new QdrantVectorStore({ url: 'localhost:6333' })).toThrow(/Cannot create the Qdrant client/);
    expect(() => new QdrantVectorStore({ upsertBatchSize: 0 })).toThrow(/upsertBatchSize/);
  });
});

describe('upsert batches', () => {
  test('large upserts are split into requests of upsertBatchSize points', async () => {
    const ok = (result: unknown): RecordedExchange['response'] => ({
      status: 200,
      body: { result, status: 'ok', time: 0.001 },
    });
    const point = (id: number) => ({
      id,
      vector: [1, id],
      payload: { _treeagent_id: id, _treeagent_text: `chunk ${id}` },
    });
    const store = await replay(
      [
        {
          request: { method: 'GET', path: '/collections/treeagent_c/exists' },
          response: ok({ exists: false }),
        },
        {
          request: {
            method: 'PUT',
            path: '/collections/treeagent_c',
            body: { vectors: { size: 2, distance: 'Cosine' } },
          },
          response: ok(true),
        },
        {
          request: {
            method: 'PUT',
            path: '/collections/treeagent_c/points',
            query: { wait: 'true' },
            body: { points: [point(1), point(2)] },
          },
          response: ok({ operation_id: 0, status: 'completed' }),
        },
        {
          request: {
            method: 'PUT',
            path: '/collections/treeagent_c/points',
            query: { wait: 'true' },
            body: { points: [point(3)] },
          },
          response: ok({ operation_id: 1, status: 'completed' }),
        },
      ],
      { upsertBatchSize: 2 },
    );
    await store.upsert(
      'c',
      [1, 2, 3].map((id) => record(id, [1, id], `chunk ${id}`)),
    );
    // Both batches were sent, as recorded (the replay server checked each body).
    expect(server!.mismatches).toEqual([]);
    expect(server!.pending()).toEqual([]);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
