import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConcatEmbedder, HashedEmbedder, InMemoryEmbeddingCache, TreeAgent } from '@treeagent/core';
import { withThresholds } from '@treeagent/core/evaluation';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { FittedEmbedder } from './fitted-embedder.js';
import { spaceFitter } from './space-fitter.js';
import { heldOut, syntheticTree, TableEmbedder } from './test-support/synthetic.js';

const directories: string[] = [];
function cacheDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-fits-'));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

async function accuracy(agent: TreeAgent): Promise<number> {
  let right = 0;
  for (const [text, expected] of heldOut) if ((await agent.route(text)).node.name === expected) right++;
  return right / heldOut.length;
}

describe('spaceFitter: the agent fits its space at load, in a worker thread', () => {
  test('serves unfitted while fitting, then switches to the fitted space and caches the fit', async () => {
    const lines: string[] = [];
    const directory = cacheDirectory();
    const agent = new TreeAgent({
      tree: syntheticTree(),
      embedder: new TableEmbedder(),
      fit: true,
      spaceFitter: spaceFitter({ cacheDirectory: directory }),
      log: (level, message) => lines.push(`${level}: ${message}`),
    });
    await agent.ready();
    expect(agent.space().state).toBe('fitting');
    const unfitted = await accuracy(agent);
    const status = await agent.whenFitted();
    expect(status).toMatchObject({ state: 'fitted', cached: false, baseId: 'table-test-embedder' });
    expect(status.embedderId).toMatch(/^fitted\(table-test-embedder,/);
    // What the fitter chose for this tree is visible: 33 base dimensions need no PCA.
    expect(status).toMatchObject({ detail: 'no PCA → 3 dimensions, 4 classes' });
    // Routing now runs in the fitted space: the noise the base space drowns the classes in is gone.
    const fitted = await accuracy(agent);
    expect(fitted).toBeGreaterThan(unfitted + 0.1);
    expect(fitted).toBeGreaterThan(0.9);
    expect(readdirSync(directory).filter((file) => file.endsWith('.json'))).toHaveLength(1);
    expect(lines.join('\n')).toMatch(
      /info: Tree Agent: routing tree "synthetic" in the fitted space \(fitted in/,
    );
    expect(lines.join('\n')).toContain('; no PCA → 3 dimensions, 4 classes); thresholds calibrated again');
  });

  test('over a concatenated base the parts are cached under their own ids, and messages leave no vector behind', async () => {
    const table = new TableEmbedder();
    const hashed = new HashedEmbedder({ dimensions: 64 });
    const embeddingCache = new InMemoryEmbeddingCache();
    const agent = new TreeAgent({
      tree: syntheticTree(),
      embedder: new ConcatEmbedder([{ embedder: table, weight: 2 }, hashed]),
      fit: true,
      embeddingCache,
      spaceFitter: spaceFitter({ worker: false }),
    });
    const status = await agent.whenFitted();
    expect(status).toMatchObject({ state: 'fitted', baseId: `concat(${table.id}*2,${hashed.id}*1)` });
    const texts = syntheticTree().chunks.map((chunk) => chunk.text);
    // One vector per chunk and part: neither the concatenation nor the fitted vectors are stored.
    const stored = async (id: string) => (await embeddingCache.getMany(id, texts)).filter(Boolean).length;
    expect(await stored(table.id)).toBe(texts.length);
    expect(await stored(hashed.id)).toBe(texts.length);
    expect(embeddingCache.size).toBe(2 * texts.length);
    // messageEmbeddings: 'memory' (the default) holds through both layers: fitted, then concatenated.
    await agent.send('s', heldOut[0]![0]);
    await agent.send('s', 'a message that is no chunk');
    expect(embeddingCache.size).toBe(2 * texts.length);
  });

  test('a cached fit is used from the first message, without fitting; a threshold change keeps it', async () => {
    const directory = cacheDirectory();
    const first = new TreeAgent({
      tree: syntheticTree(),
      embedder: new TableEmbedder(),
      fit: true,
      spaceFitter: spaceFitter({ cacheDirectory: directory }),
    });
    await first.whenFitted();
    const fitter = spaceFitter({ cacheDirectory: directory });
    const fit = vi.spyOn(fitter, 'fit');
    // Same chunks, other thresholds: the fit is keyed on the chunks (fitKey), not the thresholds.
    const tree = withThresholds(syntheticTree(), (node) => (node.name === 'group-1' ? -0.5 : undefined));
    const second = new TreeAgent({ tree, embedder: new TableEmbedder(), fit: true, spaceFitter: fitter });
    await second.ready();
    expect(second.space()).toMatchObject({ state: 'fitted', cached: true });
    expect(fit).not.toHaveBeenCalled();
    expect(await accuracy(second)).toBeGreaterThan(0.9);
  });

  test('skips an embedder that is already fitted, and a tree with fewer than 2 nodes to tell apart', async () => {
    const fitter = spaceFitter();
    const tree = syntheticTree();
    const fitted = await FittedEmbedder.fit(tree, new TableEmbedder(), { threads: 1 });
    expect(fitter.skip!(tree, fitted)).toMatch(/already fitted/);
    expect(fitter.skip!(tree, new HashedEmbedder())).toBeNull();
    const agent = new TreeAgent({ tree, embedder: fitted, fit: true, spaceFitter: fitter });
    expect(await agent.whenFitted()).toMatchObject({
      state: 'unfitted',
      reason: expect.stringMatching(/already fitted/),
    });
  });

  test('without a cache directory nothing is written', async () => {
    const agent = new TreeAgent({
      tree: syntheticTree(),
      embedder: new TableEmbedder(),
      fit: true,
      spaceFitter: spaceFitter(),
    });
    const status = await agent.whenFitted();
    expect(status.state).toBe('fitted');
    expect(status).not.toHaveProperty('file');
  });
});

/** An embedding cache that records the texts written to it. */
class RecordingCache extends InMemoryEmbeddingCache {
  written: string[] = [];
  override async setMany(modelId: string, entries: readonly { text: string; vector: Float32Array }[]) {
    this.written.push(...entries.map((entry) => entry.text));
    return super.setMany(modelId, entries);
  }
}

describe("a fitted agent and users' messages (messageEmbeddings)", () => {
  const message = heldOut[0]![0];

  test("by default ('memory') a message's base vector is not written to the embedding cache", async () => {
    const embeddingCache = new RecordingCache();
    const agent = new TreeAgent({
      tree: syntheticTree(),
      embedder: new TableEmbedder(),
      embeddingCache,
      fit: true,
      spaceFitter: spaceFitter({ threads: 1 }),
    });
    await agent.whenFitted();
    expect(agent.space().state).toBe('fitted');
    // The chunks' base vectors are there (the fit and the load embed them through the cache).
    expect(embeddingCache.written).toContain(syntheticTree().chunks[0]!.text);
    embeddingCache.written = [];
    await agent.send('s', message);
    await agent.route(message);
    await agent.nearestNodes([{ text: message }]);
    expect(embeddingCache.written).toEqual([]);
  });

  test("with messageEmbeddings: 'embedding-cache' it is, as asked", async () => {
    const embeddingCache = new RecordingCache();
    const agent = new TreeAgent({
      tree: syntheticTree(),
      embedder: new TableEmbedder(),
      embeddingCache,
      messageEmbeddings: 'embedding-cache',
      fit: true,
      spaceFitter: spaceFitter({ threads: 1 }),
    });
    await agent.whenFitted();
    embeddingCache.written = [];
    await agent.send('s', message);
    expect(embeddingCache.written).toEqual([message]);
  });
});
