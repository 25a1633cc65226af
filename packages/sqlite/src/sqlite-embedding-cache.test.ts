import { join } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import { describeEmbeddingCache } from '@treeagent/core/conformance';
import { describe, expect, test, vi } from 'vitest';
import { SqliteDatabase } from './sqlite-database.js';
import { DEFERRED_WRITE_MAX, DEFERRED_WRITE_MS, SqliteEmbeddingCache } from './sqlite-embedding-cache.js';
import { useCleanups } from './test-support/cleanups.js';
import { tempDir } from './test-support/temp-dir.js';

const { cleanups, freshFile: freshPath } = useCleanups();
const freshFile = () => freshPath('cache/treeagent.db');

const vec = (...values: number[]) => Float32Array.from(values);

describe('SqliteEmbeddingCache', () => {
  test('returns cached vectors by model and text, undefined where missing, and survives reopening', async () => {
    const file = freshFile();
    const first = new SqliteEmbeddingCache(file);
    await first.setMany('model-a', [
      { text: 'ciao', vector: vec(1, 0, 0.5) },
      { text: 'è ✓ ".\u0000', vector: vec(0.1, 0.2, 0.3) },
    ]);
    await first.setMany('model-b', [{ text: 'ciao', vector: vec(9, 9) }]);
    expect(await first.size('model-a')).toBe(2);
    await first.close();

    const cache = new SqliteEmbeddingCache(file);
    cleanups.push(() => cache.close());
    const found = await cache.getMany('model-a', ['ciao', 'missing', 'è ✓ ".\u0000', 'ciao']);
    expect(found).toEqual([vec(1, 0, 0.5), undefined, vec(0.1, 0.2, 0.3), vec(1, 0, 0.5)]);
    expect(found[0]).toBeInstanceOf(Float32Array);
    expect(found[0]).not.toBe(found[3]);
    expect(await cache.getMany('model-b', ['ciao'])).toEqual([vec(9, 9)]);
    expect(await cache.getMany('model-c', ['ciao'])).toEqual([undefined]);
    expect(await cache.getMany('model-a', [])).toEqual([]);
  });

  test('setMany replaces a text already cached', async () => {
    const cache = new SqliteEmbeddingCache(freshFile());
    cleanups.push(() => cache.close());
    await cache.setMany('m', [{ text: 't', vector: vec(1) }]);
    await cache.setMany('m', [{ text: 't', vector: vec(2) }]);
    expect(await cache.getMany('m', ['t'])).toEqual([vec(2)]);
    expect(await cache.size('m')).toBe(1);
  });

  test('getMany answers a batch of 5000 texts with one prepared query (no statement per text)', async () => {
    const database = new SqliteDatabase(freshFile());
    const cache = new SqliteEmbeddingCache(database);
    cleanups.push(() => cache.close());
    const texts = Array.from({ length: 5000 }, (_, i) => `text ${i}`);
    await cache.setMany(
      'm',
      texts.map((text, i) => ({ text, vector: vec(i, 1) })),
    );
    const prepare = vi.spyOn(database.connection, 'prepare');
    const found = await cache.getMany('m', [...texts, 'absent']);
    expect(prepare).not.toHaveBeenCalled();
    expect(found[4999]).toEqual(vec(4999, 1));
    expect(found[5000]).toBeUndefined();
  });

  test("a turn's small batch is answered at once, written off the caller's path, and by close() at the latest", async () => {
    const file = freshFile();
    const cache = new SqliteEmbeddingCache(file);
    const other = new SqliteEmbeddingCache(file, { deferWrites: false });
    cleanups.push(() => other.close());
    await cache.setMany('m', [{ text: 'nuovo messaggio', vector: vec(1, 2) }]);
    // Answered from memory at once; not yet in the file (another connection does not see it).
    expect(await cache.getMany('m', ['nuovo messaggio', 'altro'])).toEqual([vec(1, 2), undefined]);
    expect(await other.getMany('m', ['nuovo messaggio'])).toEqual([undefined]);
    // Written by itself a little later.
    await new Promise((resolve) => setTimeout(resolve, DEFERRED_WRITE_MS * 3));
    expect(await other.getMany('m', ['nuovo messaggio'])).toEqual([vec(1, 2)]);
    // close() writes what is still pending.
    await cache.setMany('m', [{ text: 'ultimo', vector: vec(3) }]);
    await cache.close();
    expect(await other.getMany('m', ['ultimo'])).toEqual([vec(3)]);
  });

  test('back-to-back small batches (no timer turn) are written 256 at a time', async () => {
    const cache = new SqliteEmbeddingCache(freshFile());
    cleanups.push(() => cache.close());
    const other = new SqliteEmbeddingCache(cache.file, { deferWrites: false });
    cleanups.push(() => other.close());
    for (let i = 0; i < 256; i++) await cache.setMany('m', [{ text: `t${i}`, vector: vec(i) }]);
    expect(await other.getMany('m', ['t0', 't255'])).toEqual([vec(0), vec(255)]);
  });

  test('the latest value of a text wins across pending small batches and a large batch', async () => {
    const cache = new SqliteEmbeddingCache(freshFile());
    cleanups.push(() => cache.close());
    await cache.setMany('m', [{ text: 't', vector: vec(1) }]);
    await cache.setMany('m', [{ text: 't', vector: vec(2) }]);
    expect(await cache.getMany('m', ['t'])).toEqual([vec(2)]);
    const large = Array.from({ length: DEFERRED_WRITE_MAX + 1 }, (_, i) => ({
      text: `x${i}`,
      vector: vec(i),
    }));
    await cache.setMany('m', [...large, { text: 't', vector: vec(3) }]);
    // The large batch is written at once, after what was pending.
    const other = new SqliteEmbeddingCache(cache.file, { deferWrites: false });
    cleanups.push(() => other.close());
    expect(await other.getMany('m', ['t', 'x64'])).toEqual([vec(3), vec(64)]);
    await cache.setMany('m', [{ text: 't', vector: vec(4) }]);
    await cache.flush();
    expect(await other.getMany('m', ['t'])).toEqual([vec(4)]);
  });

  test('a deferred write that fails is reported by flush(), and its vectors are kept for the next try', async () => {
    const file = freshFile();
    const cache = new SqliteEmbeddingCache(file, { busyTimeoutMs: 0 });
    cleanups.push(() => cache.close());
    await cache.setMany('m', [{ text: 't', vector: vec(1) }]);
    // Another connection holds the write lock: the write fails at once (no busy timeout).
    const blocker = new SqliteDatabase(file);
    blocker.connection.exec('BEGIN IMMEDIATE');
    const error = await cache.flush().catch((e: unknown) => e);
    blocker.connection.exec('ROLLBACK');
    blocker.close();
    expect(TreeAgentError.hasCode(error, 'EMBEDDER')).toBe(true);
    expect(await cache.getMany('m', ['t'])).toEqual([vec(1)]);
    await cache.flush();
    expect(await cache.size('m')).toBe(1);
  });

  test('a closed cache fails with EMBEDDER', async () => {
    const cache = new SqliteEmbeddingCache(freshFile());
    await cache.close();
    const error = await cache.getMany('m', ['x']).catch((e: unknown) => e);
    expect(TreeAgentError.hasCode(error, 'EMBEDDER')).toBe(true);
  });
});

describeEmbeddingCache('SqliteEmbeddingCache', async () => {
  const { dir, remove } = tempDir();
  const file = join(dir, 'cache', 'treeagent.db');
  const opened = [new SqliteEmbeddingCache(file)];
  return {
    cache: opened[0]!,
    reopen: async () => {
      // Small batches are written off the caller's path: write them before opening another object.
      for (const cache of opened) await cache.flush();
      const again = new SqliteEmbeddingCache(file);
      opened.push(again);
      return again;
    },
    dispose: async () => {
      for (const cache of opened) await cache.close();
      remove();
    },
  };
});
