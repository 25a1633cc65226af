import { join } from 'node:path';
import { TreeAgentError } from '@treeagent/core';
import { describeEmbeddingCache } from '@treeagent/core/conformance';
import { describe, expect, test, vi } from 'vitest';
import { SqliteDatabase } from './sqlite-database.js';
import { SqliteEmbeddingCache } from './sqlite-embedding-cache.js';
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
