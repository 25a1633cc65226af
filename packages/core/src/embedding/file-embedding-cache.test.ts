import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { describeEmbeddingCache } from '../conformance/embedding-cache-conformance.js';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import { FileEmbeddingCache } from './file-embedding-cache.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function tempDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-cache-'));
  directories.push(directory);
  return directory;
}
/** A cache directory whose file holds `uno` → [1, 0] and then a record a crash cut short. */
async function fileEndingCutShort(): Promise<{
  directory: string;
  file: string;
  path: string;
  oneRecord: number;
}> {
  const directory = tempDirectory();
  await new FileEmbeddingCache(directory).setMany('m', [{ text: 'uno', vector: Float32Array.from([1, 0]) }]);
  const [file] = readdirSync(directory);
  const path = join(directory, file!);
  const oneRecord = statSync(path).size;
  appendFileSync(path, Buffer.from([5, 0, 0, 0, 100, 117]));
  return { directory, file: file!, path, oneRecord };
}

describe('FileEmbeddingCache', () => {
  test('vectors survive a new cache instance (a restart), per model id', async () => {
    const directory = tempDirectory();
    const first = new FileEmbeddingCache(directory);
    await first.setMany('model-a', [{ text: 'ciao', vector: Float32Array.from([0.6, 0.8]) }]);
    const second = new FileEmbeddingCache(directory);
    const [hit, miss] = await second.getMany('model-a', ['ciao', 'addio']);
    expect([...hit!]).toEqual([Float32Array.from([0.6, 0.8])[0], Float32Array.from([0.6, 0.8])[1]]);
    expect(miss).toBeUndefined();
    expect(await second.getMany('model-b', ['ciao'])).toEqual([undefined]);
  });

  test('storing the vector a text already has writes nothing; a new one appends one record', async () => {
    const directory = tempDirectory();
    const cache = new FileEmbeddingCache(directory);
    await cache.setMany('m', [{ text: 'uno', vector: Float32Array.from([1, 0]) }]);
    const [file] = readdirSync(directory);
    const size = () => statSync(join(directory, file!)).size;
    const one = size();
    await cache.setMany('m', [{ text: 'uno', vector: Float32Array.from([1, 0]) }]);
    expect(size()).toBe(one);
    await cache.setMany('m', [
      { text: 'uno', vector: Float32Array.from([0, 1]) },
      { text: 'uno', vector: Float32Array.from([0.5, 0.5]) },
    ]);
    expect(size()).toBe(2 * one);
    expect([...(await new FileEmbeddingCache(directory).getMany('m', ['uno']))[0]!]).toEqual([0.5, 0.5]);
  });

  test('a record cut short by a crash is ignored, the others are kept', async () => {
    const { directory } = await fileEndingCutShort();
    expect(new FileEmbeddingCache(directory).size('m')).toBe(1);
  });

  test('records written after a crash cut one short are read back after the next restart', async () => {
    const { directory, file, path, oneRecord } = await fileEndingCutShort();
    await new FileEmbeddingCache(directory).setMany('m', [
      { text: 'due', vector: Float32Array.from([0, 1]) },
    ]);
    expect(statSync(path).size).toBe(2 * oneRecord);
    const reopened = new FileEmbeddingCache(directory);
    const [uno, due] = await reopened.getMany('m', ['uno', 'due']);
    expect([...uno!]).toEqual([1, 0]);
    expect([...due!]).toEqual([0, 1]);
    expect(readdirSync(directory)).toEqual([file]);
  });

  test('replaced records are compacted away on load once they outnumber the live ones', async () => {
    const directory = tempDirectory();
    const cache = new FileEmbeddingCache(directory);
    await cache.setMany('m', [{ text: 'uno', vector: Float32Array.from([1, 0]) }]);
    const [file] = readdirSync(directory);
    const path = join(directory, file!);
    const oneRecord = statSync(path).size;
    await cache.setMany('m', [{ text: 'due', vector: Float32Array.from([0, 1]) }]);
    await cache.setMany('m', [{ text: 'uno', vector: Float32Array.from([0.5, 0.5]) }]);
    // One replaced record beside two live ones: kept as it is.
    expect(new FileEmbeddingCache(directory).size('m')).toBe(2);
    expect(statSync(path).size).toBe(3 * oneRecord);
    await cache.setMany('m', [{ text: 'uno', vector: Float32Array.from([0.25, 0.75]) }]);
    await cache.setMany('m', [{ text: 'uno', vector: Float32Array.from([0.75, 0.25]) }]);
    // Three replaced beside two live: the next load leaves only the live ones, the last vectors.
    const reopened = new FileEmbeddingCache(directory);
    const [uno, due] = await reopened.getMany('m', ['uno', 'due']);
    expect(statSync(path).size).toBe(2 * oneRecord);
    expect([...uno!]).toEqual([0.75, 0.25]);
    expect([...due!]).toEqual([0, 1]);
    expect([...(await new FileEmbeddingCache(directory).getMany('m', ['uno']))[0]!]).toEqual([0.75, 0.25]);
  });

  test('a file it cannot compact is still served; the next write rewrites it or fails saying why', async () => {
    const { directory, path } = await fileEndingCutShort();
    // A directory where the compacted file would be written makes every rewrite fail.
    const blocker = `${path}.${process.pid}.compacting`;
    mkdirSync(blocker);
    const cache = new FileEmbeddingCache(directory);
    expect([...(await cache.getMany('m', ['uno']))[0]!]).toEqual([1, 0]);
    await expect(cache.setMany('m', [{ text: 'due', vector: Float32Array.from([0, 1]) }])).rejects.toThrow(
      /could not compact .*Give the cache a directory it can write to/,
    );
    expect(await cache.getMany('m', ['due'])).toEqual([undefined]);
    rmSync(blocker, { recursive: true });
    await cache.setMany('m', [{ text: 'due', vector: Float32Array.from([0, 1]) }]);
    const [uno, due] = await new FileEmbeddingCache(directory).getMany('m', ['uno', 'due']);
    expect([...uno!]).toEqual([1, 0]);
    expect([...due!]).toEqual([0, 1]);
  });

  test('a restarted agent does not re-embed its chunks', async () => {
    const directory = tempDirectory();
    const tree = defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['pizza', 'pasta'],
          emit: { message: { type: 'static', content: 'ok' } },
        },
      ],
    });
    const embedder = () => new ExactEmbedder({ vectors: { pizza: [1, 0], pasta: [0, 1] } });
    const before = embedder();
    await new TreeAgent({
      tree,
      embedder: before,
      embeddingCache: new FileEmbeddingCache(directory),
    }).ready();
    expect(before.calls).toEqual([['pizza', 'pasta']]);
    const after = embedder();
    await new TreeAgent({ tree, embedder: after, embeddingCache: new FileEmbeddingCache(directory) }).ready();
    expect(after.calls).toEqual([]);
  });
});

describeEmbeddingCache('FileEmbeddingCache', async () => {
  const directory = tempDirectory();
  return {
    cache: new FileEmbeddingCache(directory),
    reopen: async () => new FileEmbeddingCache(directory),
  };
});
