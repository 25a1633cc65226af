import { describe, expect, test } from 'vitest';
import { HashedEmbedder } from '../embedding/hashed-embedder.js';
import { EMBEDDER_KEY } from '../explore/chunk-search.js';
import type { ChunkId } from '../protocol/chunk-id.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { InMemoryVectorStore } from '../vector/in-memory-vector-store.js';
import type { VectorRecord } from '../vector/vector-store.js';
import { TreeAgent } from './tree-agent.js';

/** An in-memory store that counts what is written to and removed from it. */
class CountingStore extends InMemoryVectorStore {
  written: string[] = [];
  removed: string[] = [];
  override async upsert(collection: string, records: readonly VectorRecord[]): Promise<void> {
    this.written.push(...records.map((record) => `${collection}/${String(record.id)}`));
    return super.upsert(collection, records);
  }
  override async delete(collection: string, ids: readonly ChunkId[]): Promise<void> {
    this.removed.push(...ids.map((id) => `${collection}/${String(id)}`));
    return super.delete(collection, ids);
  }
  reset() {
    this.written = [];
    this.removed = [];
  }
}

const emit = (content: string) => ({ message: { type: 'static' as const, content } });
const nodes = (shippingText: string): NodeDefinition[] => [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 10, type: 'emit', parent: 2, chunks: [shippingText, 'spedizione in Europa'], emit: emit('7,90 €') },
  { id: 11, type: 'emit', parent: 2, chunks: [{ text: 'orari', extra: { lang: 'it' } }], emit: emit('9-18') },
];

async function load(store: CountingStore, shippingText: string, embedder = new HashedEmbedder()) {
  const agent = new TreeAgent({
    tree: defineTree({ name: 'sync', nodes: nodes(shippingText) }),
    embedder,
    vectorStore: store,
    exploreIn: 'vector-store',
  });
  await agent.ready();
  return agent;
}

describe('the exploration collection in a vector store across restarts', () => {
  test('a restart with the same tree and embedder writes nothing', async () => {
    const store = new CountingStore();
    await load(store, 'quanto costa la spedizione');
    expect(store.written).toHaveLength(3);
    store.reset();
    const agent = await load(store, 'quanto costa la spedizione');
    expect(store.written).toEqual([]);
    expect(store.removed).toEqual([]);
    expect((await agent.route('orari di apertura')).node.id).toBe(11);
  });

  test('a changed chunk is rewritten and the stale one removed, the others left alone', async () => {
    const store = new CountingStore();
    await load(store, 'quanto costa la spedizione');
    store.reset();
    await load(store, 'costo della spedizione');
    expect(store.written).toHaveLength(1);
    expect(store.written[0]).toMatch(/^sync:explore\//);
    const stored = await store.scroll({ collection: 'sync:explore', limit: 10, offset: null, filter: null });
    expect(stored.chunks.map((chunk) => chunk.text).sort()).toEqual([
      'costo della spedizione',
      'orari',
      'spedizione in Europa',
    ]);
  });

  test('another embedder rewrites every chunk (its vectors differ), and the payload names it', async () => {
    const store = new CountingStore();
    await load(store, 'quanto costa la spedizione');
    store.reset();
    const other = new HashedEmbedder({ dimensions: 512 });
    await load(store, 'quanto costa la spedizione', other);
    expect(store.written).toHaveLength(3);
    const stored = await store.scroll({ collection: 'sync:explore', limit: 10, offset: null, filter: null });
    expect(new Set(stored.chunks.map((chunk) => chunk.extra[EMBEDDER_KEY]))).toEqual(new Set([other.id]));
  });
});
