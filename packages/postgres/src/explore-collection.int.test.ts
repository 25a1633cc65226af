import { defineTree, HashedEmbedder, type NodeDefinition, TreeAgent } from '@treeagent/core';
import type { ChunkId, VectorRecord, VectorScrollRequest, VectorStore } from '@treeagent/core/adapter';
import { rejection } from '@treeagent/core/test';
import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { cleanupsAfterEach } from '../../core/src/test-support/cleanups-after-each.js';
import { PgVectorStore } from './index.js';
import { requireDatabase, TEST_DATABASE_URL, testSchema, withClient } from './test-support/database.js';
import { closedPort, TcpProxy } from './test-support/tcp-proxy.js';

/**
 * `exploreIn: 'vector-store'` on PostgreSQL across restarts: the manifest stored beside the
 * exploration collection lets a restart skip reading it, a load cut short leaves no manifest, and a
 * store that is down at start fails with an error naming it.
 */

const cleanups = cleanupsAfterEach();
beforeEach(requireDatabase);

const DIMENSIONS = 64;
const emit = (content: string) => ({ message: { type: 'static' as const, content } });

/** root → agent → `groups` emit leaves of `perGroup` chunks; `changed` renames the first chunk. */
function tree(groups: number, perGroup: number, changed = false) {
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root' },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ];
  for (let g = 0; g < groups; g++)
    nodes.push({
      id: 10 + g,
      type: 'emit',
      parent: 2,
      chunks: Array.from({ length: perGroup }, (_, k) =>
        changed && g === 0 && k === 0 ? 'a renamed chunk' : `topic ${g} phrase ${k}`,
      ),
      emit: emit(`answer ${g}`),
    });
  return defineTree({ name: 'explore-pg', nodes });
}

/** Forwards to a store and counts pages scrolled and records written, by collection. */
class Counting implements VectorStore {
  scrolled: string[] = [];
  written = new Map<string, number>();
  beforeUpsert: (collection: string, call: number) => Promise<void> = async () => {};
  #upserts = 0;
  constructor(readonly inner: VectorStore) {}
  async upsert(collection: string, records: readonly VectorRecord[]) {
    await this.beforeUpsert(collection, ++this.#upserts);
    this.written.set(collection, (this.written.get(collection) ?? 0) + records.length);
    return this.inner.upsert(collection, records);
  }
  delete(collection: string, ids: readonly ChunkId[]) {
    return this.inner.delete(collection, ids);
  }
  search(request: Parameters<VectorStore['search']>[0]) {
    return this.inner.search(request);
  }
  scroll(request: VectorScrollRequest) {
    this.scrolled.push(request.collection);
    return this.inner.scroll(request);
  }
  ids(collection: string) {
    return this.inner.ids(collection);
  }
}

function pgStore(schema: string, connection = TEST_DATABASE_URL) {
  const store = new PgVectorStore({ connection, schema, dimensions: DIMENSIONS, createIndex: 'hnsw' });
  cleanups.push(() => store.close());
  return store;
}

async function start(vectorStore: VectorStore, definition = tree(4, 5)) {
  const agent = new TreeAgent({
    tree: definition,
    embedder: new HashedEmbedder({ dimensions: DIMENSIONS }),
    vectorStore,
    exploreIn: 'vector-store',
    calibrateThresholds: { minChunks: 4 },
  });
  await agent.ready();
  return agent;
}

const rowsOf = (schema: string, collection: string) =>
  withClient(async (client) => {
    const { rows } = await client.query<{ id: string; text: string }>(
      `SELECT id, text FROM ${pg.escapeIdentifier(schema)}.treeagent_vectors WHERE collection = $1 ORDER BY id`,
      [collection],
    );
    return rows;
  });

describe("exploreIn: 'vector-store' on PgVectorStore across restarts", () => {
  it('a restart reads only the manifest, writes nothing, and routes with the thresholds calibrated before', async () => {
    const { schema, drop } = testSchema('explore_manifest');
    cleanups.push(drop);
    const first = await start(pgStore(schema));
    expect(await rowsOf(schema, 'explore-pg:explore')).toHaveLength(20);
    const [manifest] = await rowsOf(schema, 'explore-pg:explore-manifest');
    expect(JSON.parse(manifest!.text)).toMatchObject({
      contentHash: tree(4, 5).contentHash,
      chunks: 20,
      dimensions: DIMENSIONS,
    });

    const counting = new Counting(pgStore(schema));
    const again = await start(counting);
    expect(counting.scrolled).toEqual(['explore-pg:explore-manifest']);
    expect([...counting.written.keys()]).toEqual([]);
    expect(await again.thresholds()).toEqual(await first.thresholds());
    expect((await again.route('topic 2 phrase 3')).node.id).toBe(12);
  });

  it('without its manifest (deleted by hand) the collection is compared row by row and repaired', async () => {
    const { schema, drop } = testSchema('explore_repair');
    cleanups.push(drop);
    await start(pgStore(schema));
    await withClient(async (client) => {
      const table = `${pg.escapeIdentifier(schema)}.treeagent_vectors`;
      await client.query(`DELETE FROM ${table} WHERE collection = 'explore-pg:explore-manifest'`);
      await client.query(
        `UPDATE ${table} SET text = 'edited by hand' WHERE collection = 'explore-pg:explore' AND id = '10:1'`,
      );
    });
    const counting = new Counting(pgStore(schema));
    await start(counting);
    expect(counting.scrolled).toContain('explore-pg:explore');
    expect(counting.written.get('explore-pg:explore')).toBe(1);
    const rows = await rowsOf(schema, 'explore-pg:explore');
    expect(rows.find((row) => row.id === '10:1')?.text).toBe('topic 0 phrase 1');
    expect(await rowsOf(schema, 'explore-pg:explore-manifest')).toHaveLength(1);
  });

  it('PostgreSQL down at start: VECTOR_STORE naming the server and the fix, nothing written', async () => {
    const { schema, drop } = testSchema('explore_down');
    cleanups.push(drop);
    const port = await closedPort();
    const error = await rejection(
      start(pgStore(schema, TEST_DATABASE_URL.replace(/@[^/]+\//, `@127.0.0.1:${port}/`))),
    );
    expect(error.code).toBe('VECTOR_STORE');
    expect(error.message).toContain(`PostgreSQL at 127.0.0.1:${port} is unreachable`);
    expect(error.message).toContain('is the server running');
    const exists = await withClient((client) =>
      client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]),
    );
    expect(exists.rows).toHaveLength(0);
  });

  it('PostgreSQL cut in the middle of a sync: no manifest is left, and the next start completes the collection', async () => {
    const { schema, drop } = testSchema('explore_cut');
    cleanups.push(drop);
    const target = new URL(TEST_DATABASE_URL);
    const proxy = new TcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.start();
    cleanups.push(() => proxy.stop());
    const viaProxy = new URL(TEST_DATABASE_URL);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    // 1,200 chunks: the sync writes them in three upserts of at most 512.
    await start(pgStore(schema, viaProxy.toString()), tree(4, 5));
    const counting = new Counting(pgStore(schema, viaProxy.toString()));
    counting.beforeUpsert = async (collection, call) => {
      if (collection === 'explore-pg:explore' && call === 2) await proxy.stop();
    };
    const error = await rejection(start(counting, tree(40, 30)));
    expect(error.code).toBe('VECTOR_STORE');
    expect(error.message).toContain('unreachable');
    expect(await rowsOf(schema, 'explore-pg:explore-manifest')).toEqual([]);
    const written = (await rowsOf(schema, 'explore-pg:explore')).length;
    expect(written).toBeGreaterThan(20);
    expect(written).toBeLessThan(1200);

    await proxy.start();
    const agent = await start(pgStore(schema, viaProxy.toString()), tree(40, 30));
    expect(await rowsOf(schema, 'explore-pg:explore')).toHaveLength(1200);
    const [manifest] = await rowsOf(schema, 'explore-pg:explore-manifest');
    expect(JSON.parse(manifest!.text)).toMatchObject({ contentHash: tree(40, 30).contentHash, chunks: 1200 });
    expect((await agent.route('topic 31 phrase 7')).node.id).toBe(41);
  });
});
