import { describe, expect, test } from 'vitest';
import type { Embedder } from '../../embedding/embedder.js';
import { HashedEmbedder } from '../../embedding/hashed-embedder.js';
import { EMBEDDER_KEY } from '../../explore/chunk-search.js';
import type { ChunkId } from '../../protocol/chunk-id.js';
import { defineTree } from '../../tree/define-tree.js';
import type { NodeDefinition } from '../../tree/node-definition.js';
import { InMemoryVectorStore } from '../../vector/in-memory-vector-store.js';
import type { VectorRecord, VectorScrollPage, VectorScrollRequest } from '../../vector/vector-store.js';
import { TreeAgent, type TreeAgentOptions } from '../agent/tree-agent.js';
import { readExploreManifest } from './explore-collection.js';

/** An in-memory store that counts what is written to, removed from and read from it (the manifest apart). */
class CountingStore extends InMemoryVectorStore {
  written: string[] = [];
  removed: string[] = [];
  /** Pages scrolled, by collection. */
  scrolled: string[] = [];
  manifestWrites = 0;
  /** Throws on the upsert of this call number (1-based) into the exploration collection. */
  failOnUpsert = 0;
  #upserts = 0;
  override async upsert(collection: string, records: readonly VectorRecord[]): Promise<void> {
    if (collection.endsWith('-manifest')) {
      this.manifestWrites++;
      return super.upsert(collection, records);
    }
    if (++this.#upserts === this.failOnUpsert) throw new Error('store down');
    this.written.push(...records.map((record) => `${collection}/${String(record.id)}`));
    return super.upsert(collection, records);
  }
  override async delete(collection: string, ids: readonly ChunkId[]): Promise<void> {
    this.removed.push(...ids.map((id) => `${collection}/${String(id)}`));
    return super.delete(collection, ids);
  }
  override async scroll(request: VectorScrollRequest): Promise<VectorScrollPage> {
    this.scrolled.push(request.collection);
    return super.scroll(request);
  }
  reset() {
    this.written = [];
    this.removed = [];
    this.scrolled = [];
    this.manifestWrites = 0;
    this.failOnUpsert = 0;
    this.#upserts = 0;
  }
}

/** A hashed embedder that records the texts it is asked to embed. */
class CountingEmbedder extends HashedEmbedder {
  texts: string[] = [];
  override embed(texts: readonly string[]) {
    this.texts.push(...texts);
    return super.embed(texts);
  }
}

const emit = (content: string) => ({ message: { type: 'static' as const, content } });
const nodes = (shippingText: string): NodeDefinition[] => [
  { id: 1, type: 'root' },
  { id: 2, type: 'agent', parent: 1, isPrimary: true },
  { id: 10, type: 'emit', parent: 2, chunks: [shippingText, 'spedizione in Europa'], emit: emit('7,90 €') },
  { id: 11, type: 'emit', parent: 2, chunks: [{ text: 'orari', extra: { lang: 'it' } }], emit: emit('9-18') },
];

async function load(
  store: CountingStore,
  shippingText: string,
  embedder: Embedder = new HashedEmbedder(),
  options: Partial<TreeAgentOptions> = {},
) {
  const agent = new TreeAgent({
    tree: defineTree({ name: 'sync', nodes: nodes(shippingText) }),
    embedder,
    vectorStore: store,
    exploreIn: 'vector-store',
    ...options,
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

  test('a restart whose manifest matches reads nothing of the collection and embeds no chunk', async () => {
    const store = new CountingStore();
    await load(store, 'quanto costa la spedizione');
    expect(store.manifestWrites).toBe(1);
    store.reset();
    const embedder = new CountingEmbedder();
    const agent = await load(store, 'quanto costa la spedizione', embedder);
    expect(store.scrolled).toEqual(['sync:explore-manifest']);
    expect(store.manifestWrites).toBe(0);
    expect(embedder.texts).toEqual([]);
    expect((await agent.route('orari di apertura')).node.id).toBe(11);
  });

  test('the thresholds calibrated at the first start are read back from the manifest', async () => {
    const store = new CountingStore();
    const first = await load(store, 'quanto costa la spedizione', new HashedEmbedder(), {
      calibrateThresholds: { minChunks: 2 },
    });
    const calibrated = (await first.thresholds()).filter((row) => row.source === 'calibrated');
    expect(calibrated.length).toBeGreaterThan(0);
    store.reset();
    const embedder = new CountingEmbedder();
    const again = await load(store, 'quanto costa la spedizione', embedder, {
      calibrateThresholds: { minChunks: 2 },
    });
    expect(embedder.texts).toEqual([]);
    expect(await again.thresholds()).toEqual(await first.thresholds());
    // Other calibration options: calibrated again from the vectors, the collection left alone.
    store.reset();
    const other = await load(store, 'quanto costa la spedizione', new HashedEmbedder(), {
      calibrateThresholds: { minChunks: 2, keep: 0.5 },
    });
    expect(store.scrolled).toEqual(['sync:explore-manifest']);
    expect(store.written).toEqual([]);
    expect(store.manifestWrites).toBe(1);
    expect((await other.thresholds()).filter((row) => row.source === 'calibrated').length).toBeGreaterThan(0);
  });

  test('a sync cut short leaves no manifest: the next start compares record by record and repairs', async () => {
    const store = new CountingStore();
    await load(store, 'quanto costa la spedizione');
    store.reset();
    store.failOnUpsert = 1;
    await expect(load(store, 'costo della spedizione')).rejects.toThrow(/store down/);
    expect(await readExploreManifest(store, 'sync:explore')).toBeNull();
    store.reset();
    await load(store, 'costo della spedizione');
    expect(store.scrolled).toContain('sync:explore');
    expect(store.written).toEqual(['sync:explore/10:0']);
    expect(await readExploreManifest(store, 'sync:explore')).toMatchObject({
      contentHash: defineTree({ name: 'sync', nodes: nodes('costo della spedizione') }).contentHash,
      chunks: 3,
    });
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
    expect(await readExploreManifest(store, 'sync:explore')).toMatchObject({
      embedderId: other.id,
      dimensions: 512,
    });
    const stored = await store.scroll({ collection: 'sync:explore', limit: 10, offset: null, filter: null });
    expect(new Set(stored.chunks.map((chunk) => chunk.extra[EMBEDDER_KEY]))).toEqual(new Set([other.id]));
  });
});
