import { join } from 'node:path';
import { InMemoryVectorStore, TreeAgentError } from '@treeagent/core';
import type { VectorRecord } from '@treeagent/core/adapter';
import { CONFORMANCE_RECORDS, describeQdrantCorpus, describeVectorStore } from '@treeagent/core/conformance';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { SqliteVectorStore } from './sqlite-vector-store.js';
import { useCleanups } from './test-support/cleanups.js';
import { tempDir } from './test-support/temp-dir.js';

describeVectorStore('SqliteVectorStore', async () => {
  const { dir, remove } = tempDir();
  const store = new SqliteVectorStore(join(dir, 'vectors.db'));
  return {
    store,
    dispose: async () => {
      await store.close();
      remove();
    },
  };
});

describeQdrantCorpus('SqliteVectorStore', async () => {
  const { dir, remove } = tempDir();
  const store = new SqliteVectorStore(join(dir, 'vectors.db'));
  return {
    store,
    dispose: async () => {
      await store.close();
      remove();
    },
  };
});

describeVectorStore('SqliteVectorStore (reopened after the upsert)', async () => {
  const { dir, remove } = tempDir();
  const file = join(dir, 'vectors.db');
  const writer = new SqliteVectorStore(file);
  // The suite upserts through this proxy, which reopens the file afterwards so reads come from disk.
  let current = writer;
  const store = new Proxy({} as SqliteVectorStore, {
    get(_target, property) {
      if (property === 'upsert') {
        return async (collection: string, records: readonly VectorRecord[]) => {
          await current.upsert(collection, records);
          await current.close();
          current = new SqliteVectorStore(file);
        };
      }
      const value = Reflect.get(current, property);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
  return {
    store,
    dispose: async () => {
      await current.close();
      remove();
    },
  };
});

const { cleanups, freshFile } = useCleanups();

function open(file: string): SqliteVectorStore {
  const store = new SqliteVectorStore(file);
  cleanups.push(() => store.close());
  return store;
}

const point = (
  id: string | number,
  vector: number[],
  payload: Record<string, unknown> = {},
): VectorRecord => ({
  id,
  text: `text ${id}`,
  vector: Float32Array.from(vector),
  payload,
});

describe('SqliteVectorStore: persistence', () => {
  test('ids keep their type (integer or string), payloads and vectors round-trip through the file', async () => {
    const file = freshFile();
    const first = new SqliteVectorStore(file);
    await first.upsert('c', [
      point(7, [0.1, 0.2, 0.3], { n: 1.5, list: [1, 'two', null], nested: { ok: true }, text: 'è ✓' }),
      point('7b', [1, 0, 0]),
      point(12345678901, [0, 1, 0]),
      point('uuid-0b9c6d3e', [0, 0, 1]),
    ]);
    await first.close();
    const second = open(file);
    const ids = await second.ids('c');
    expect(ids).toEqual([7, 12345678901, '7b', 'uuid-0b9c6d3e']);
    const [seven] = await second.search({
      collection: 'c',
      vector: Float32Array.from([0.1, 0.2, 0.3]),
      limit: 1,
    });
    expect(seven).toEqual({
      id: 7,
      text: 'text 7',
      extra: { n: 1.5, list: [1, 'two', null], nested: { ok: true }, text: 'è ✓' },
      similarity: expect.closeTo(1, 6),
    });
    const page = await second.scroll({ collection: 'c', limit: 2, offset: 'n:8' });
    expect(page.chunks.map((chunk) => chunk.id)).toEqual([12345678901, '7b']);
    expect(page.nextOffset).toBe('s:uuid-0b9c6d3e');
  });

  test('behaves like InMemoryVectorStore on the same writes (1 and "1" are one point, as there)', async () => {
    const sqlite = open(freshFile());
    const memory = new InMemoryVectorStore();
    const writes = [
      [CONFORMANCE_RECORDS, []],
      [[point('1', [0, 1, 0], { replaced: true }), point(9, [0.5, 0.5, 0])], [3]],
      [[point(3, [1, 1, 1])], ['9', 'missing']],
    ] as const;
    for (const [upserts, deletes] of writes) {
      for (const store of [sqlite, memory]) {
        await store.upsert('c', upserts);
        await store.delete('c', deletes);
      }
      const request = { collection: 'c', vector: Float32Array.from([1, 0.5, 0]), limit: 10 };
      expect(await sqlite.search(request)).toEqual(await memory.search(request));
      expect(await sqlite.scroll({ collection: 'c', limit: 3 })).toEqual(
        await memory.scroll({ collection: 'c', limit: 3 }),
      );
    }
  });

  test('a write by another connection is seen by the next search (the cached copy reloads)', async () => {
    const file = freshFile();
    const reader = open(file);
    const writer = open(file);
    await reader.upsert('c', [point(1, [1, 0])]);
    expect(await reader.ids('c')).toEqual([1]);
    await writer.upsert('c', [point(2, [1, 0])]);
    await writer.delete('c', [1]);
    expect(await reader.ids('c')).toEqual([2]);
    // And the reader's own writes still land after the reload.
    await reader.upsert('c', [point(3, [0, 1])]);
    expect(await writer.ids('c')).toEqual([2, 3]);
    expect(await reader.ids('c')).toEqual([2, 3]);
  });

  test('results are copies: changing them does not change the store', async () => {
    const store = open(freshFile());
    const record = point(1, [1, 0], { list: [1] });
    await store.upsert('c', [record]);
    (record.payload.list as number[]).push(2);
    record.vector[0] = 0;
    const [found] = await store.search({ collection: 'c', vector: Float32Array.from([1, 0]), limit: 1 });
    (found!.extra.list as number[]).push(3);
    const [again] = await store.search({ collection: 'c', vector: Float32Array.from([1, 0]), limit: 1 });
    expect(again).toMatchObject({ extra: { list: [1] }, similarity: expect.closeTo(1, 6) });
  });

  test('vectors are stored as float32 BLOBs', async () => {
    const file = freshFile();
    const store = open(file);
    await store.upsert('c', [point(1, [0.25, -1, 3])]);
    const db = new Database(file);
    const row = db.prepare('SELECT vector, numeric_id, id FROM vector_points').get() as {
      vector: Buffer;
      numeric_id: number;
      id: string;
    };
    db.close();
    expect(row.vector.length).toBe(12);
    expect([row.vector.readFloatLE(0), row.vector.readFloatLE(4), row.vector.readFloatLE(8)]).toEqual([
      0.25, -1, 3,
    ]);
    expect(row).toMatchObject({ numeric_id: 1, id: '1' });
  });

  test('bad ids and closed stores fail with VECTOR_STORE; bad filters with FILTER', async () => {
    const store = new SqliteVectorStore(freshFile());
    const bad = { ...point(1, [1]), id: Number.NaN };
    const error = await store.upsert('c', [bad]).catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'VECTOR_STORE')).toBe(true);
    const filter = await store
      .search({ collection: 'c', vector: Float32Array.from([1]), limit: 1, filter: { must: 3 } as never })
      .catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(filter, 'FILTER')).toBe(true);
    await store.close();
    const closed = await store.ids('c').catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(closed, 'VECTOR_STORE')).toBe(true);
  });
});
