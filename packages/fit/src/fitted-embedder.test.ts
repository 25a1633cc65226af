import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTree, HashedEmbedder, InMemoryEmbeddingCache, TreeAgent } from '@treeagent/core';
import { cosineSimilarity, type Embedder } from '@treeagent/core/adapter';
import { describeEmbedder } from '@treeagent/core/conformance';
import { afterEach, describe, expect, test } from 'vitest';
import { DEFAULT_BASE_WEIGHT } from './base-weight.js';
import { fitKey } from './fit-classes.js';
import { fitProjection } from './fit-projection.js';
import { FittedEmbedder } from './fitted-embedder.js';
import { lintFit } from './lint-fit.js';
import {
  CLASSES,
  heldOut,
  nearestChunkAccuracy,
  syntheticTree,
  TableEmbedder,
} from './test-support/synthetic.js';

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function tempDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-fit-'));
  directories.push(directory);
  return directory;
}

describe('FittedEmbedder', () => {
  test('the fitted space separates held-out utterances of the classes better than the base space', async () => {
    const tree = syntheticTree();
    const base = new TableEmbedder();
    const fitted = await FittedEmbedder.fit(tree, base, { baseWeight: 0 });
    const before = await nearestChunkAccuracy(base, tree);
    const after = await nearestChunkAccuracy(fitted, tree);
    expect(before).toBeLessThan(0.7);
    expect(after).toBeGreaterThan(0.9);
    expect(fitted.dimensions).toBe(CLASSES.length - 1);
    expect(fitted.id).toBe(`fitted(${base.id},${fitted.projection.hash})`);
    // By default the base space is kept beside it, at DEFAULT_BASE_WEIGHT.
    const byDefault = fitted.withBaseWeight(DEFAULT_BASE_WEIGHT);
    expect((await FittedEmbedder.fit(tree, base)).id).toBe(byDefault.id);
    expect(byDefault.dimensions).toBe(CLASSES.length - 1 + base.dimensions);
    expect(await nearestChunkAccuracy(byDefault, tree)).toBeGreaterThan(before);
  });

  test('routes through TreeAgent better with the fitted embedder (end to end)', async () => {
    const tree = syntheticTree();
    const base = new TableEmbedder();
    const accuracy = async (embedder: Embedder) => {
      const agent = new TreeAgent({ tree, embedder });
      let right = 0;
      for (const [text, expected] of heldOut) if ((await agent.route(text)).node.name === expected) right++;
      return right / heldOut.length;
    };
    const fitted = await FittedEmbedder.forTree(tree, base);
    expect(await accuracy(fitted)).toBeGreaterThan(0.9);
    expect(await accuracy(fitted)).toBeGreaterThan((await accuracy(base)) + 0.2);
  });

  test('a saved fit loads back to identical vectors', async () => {
    const tree = syntheticTree();
    const base = new TableEmbedder();
    const fitted = await FittedEmbedder.fit(tree, base);
    const file = join(tempDirectory(), 'tree.fit.json');
    fitted.save(file);
    const loaded = await FittedEmbedder.load(file, base);
    const texts = heldOut.map(([text]) => text);
    expect(loaded.id).toBe(fitted.id);
    expect(await loaded.embed(texts)).toEqual(await fitted.embed(texts));
    await expect(FittedEmbedder.load(file, { id: 'other', embed: () => [] })).rejects.toThrow(/made for/);
  });

  test('an unchanged tree loads its cached fit; a changed tree is refitted', async () => {
    const directory = tempDirectory();
    const base = new TableEmbedder();
    const first = await FittedEmbedder.forTree(syntheticTree(), base, { cacheDirectory: directory });
    expect(base.calls).toBeGreaterThan(0);
    const callsAfterFit = base.calls;
    const again = await FittedEmbedder.forTree(syntheticTree(), base, { cacheDirectory: directory });
    expect(base.calls).toBe(callsAfterFit); // no embedding: loaded from the cache
    expect(again.id).toBe(first.id);
    const changed = syntheticTree([
      { id: 20, type: 'empty', parent: 4, name: 'epsilon', chunks: ['0:test:0', '1:test:0', '2:test:0'] },
    ]);
    const refitted = await FittedEmbedder.forTree(changed, base, { cacheDirectory: directory });
    expect(base.calls).toBeGreaterThan(callsAfterFit);
    expect(refitted.id).not.toBe(first.id);
    expect(refitted.projection.fitKey).toBe(fitKey(changed));
    // A different base embedder is another fit, too.
    const otherBase = Object.assign(new TableEmbedder(), { id: 'table-test-embedder-2' });
    const other = await FittedEmbedder.forTree(syntheticTree(), otherBase, { cacheDirectory: directory });
    expect(otherBase.calls).toBeGreaterThan(0);
    expect(other.id).toMatch(/^fitted\(table-test-embedder-2,/);
  });

  test('no refit when only thresholds, names or messages change: the fit is keyed on the chunks and their classes', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'fit-key-'));
    const base = new TableEmbedder();
    const first = await FittedEmbedder.forTree(syntheticTree(), base, { cacheDirectory: directory });
    const calls = base.calls;
    const nodes = syntheticTree().definition.nodes.map((node) =>
      node.type === 'root'
        ? { ...node, defaultSimilarityThreshold: 0.42 }
        : node.type === 'emit'
          ? {
              ...node,
              name: `${node.name}-renamed`,
              emit: { message: { type: 'static' as const, content: 'other' } },
            }
          : node,
    );
    const edited = defineTree({ name: 'synthetic', nodes });
    expect(edited.contentHash).not.toBe(syntheticTree().contentHash);
    expect(fitKey(edited)).toBe(fitKey(syntheticTree()));
    const again = await FittedEmbedder.forTree(edited, base, { cacheDirectory: directory });
    expect(base.calls).toBe(calls);
    expect(again.id).toBe(first.id);
    expect(lintFit(edited, again).map((warning) => warning.code)).not.toContain('stale-fit');
    // A chunk moved to another class is another fit.
    const moved = defineTree({
      name: 'synthetic',
      nodes: nodes.map((node) =>
        node.id === 10
          ? { ...node, chunks: node.chunks!.slice(1) }
          : node.id === 11
            ? {
                ...node,
                chunks: [
                  ...node.chunks!,
                  syntheticTree().definition.nodes.find((n) => n.id === 10)!.chunks![0]!,
                ],
              }
            : node,
      ) as typeof nodes,
    });
    expect(fitKey(moved)).not.toBe(fitKey(syntheticTree()));
    expect(lintFit(moved, again).map((warning) => warning.code)).toContain('stale-fit');
  });

  test('classes with too few chunks are left out of the fit, but their chunks are still projected', async () => {
    const tree = syntheticTree([{ id: 20, type: 'empty', parent: 4, name: 'lonely', chunks: ['0:test:1'] }]);
    const projection = await fitProjection(tree, new TableEmbedder());
    expect(projection.excluded).toEqual([{ nodeId: 20, name: 'lonely', chunks: 1 }]);
    expect(projection.classes.map((entry) => entry.name)).toEqual(CLASSES);
    expect(projection.chunks).toBe(120);
    const fitted = new FittedEmbedder(new TableEmbedder(), projection);
    const [lonely] = await fitted.embed(['0:test:1']);
    expect(lonely!.some((value) => value !== 0)).toBe(true);
    const all = await fitProjection(tree, new TableEmbedder(), { minChunksPerClass: 1 });
    expect(all.excluded).toEqual([]);
    expect(all.classes).toHaveLength(5);
  });

  test('baseWeight keeps the base space beside the fitted one: cosines add up as (fitted + w·base) / (1 + w)', async () => {
    const tree = syntheticTree();
    const base = new TableEmbedder();
    const fitted = await FittedEmbedder.fit(tree, base, { baseWeight: 0 });
    const mixed = fitted.withBaseWeight(0.25);
    expect(mixed.dimensions).toBe(fitted.dimensions! + base.dimensions);
    expect(mixed.id).toBe(`fitted(${base.id},${fitted.projection.hash},base*0.25)`);
    const [a, b] = ['0:test:3', '2:test:7'];
    const cos = async (embedder: Embedder) => {
      const [x, y] = await embedder.embed([a, b]);
      return cosineSimilarity(Float32Array.from(x!), Float32Array.from(y!));
    };
    const expected = ((await cos(fitted)) + 0.25 * (await cos(base))) / 1.25;
    expect(await cos(mixed)).toBeCloseTo(expected, 5);
    // Saved with the fit, restored by load; an explicit option wins.
    const file = join(tempDirectory(), 'tree.fit.json');
    mixed.save(file);
    expect((await FittedEmbedder.load(file, base)).id).toBe(mixed.id);
    expect((await FittedEmbedder.load(file, base, { baseWeight: 0 })).id).toBe(fitted.id);
    // forTree takes it too, without refitting for another weight.
    const directory = tempDirectory();
    const first = await FittedEmbedder.forTree(tree, base, { cacheDirectory: directory, baseWeight: 0.5 });
    const calls = base.calls;
    const second = await FittedEmbedder.forTree(tree, base, { cacheDirectory: directory, baseWeight: 0.1 });
    expect(base.calls).toBe(calls);
    expect(second.projection.hash).toBe(first.projection.hash);
    expect(second.baseWeight).toBe(0.1);
    expect(() => fitted.withBaseWeight(-1)).toThrow(/baseWeight must be a finite number ≥ 0/);
    // With a cache of the base vectors, the agent does not cache the fitted ones again.
    expect(fitted.cacheable).toBe(true);
    const withCache = await FittedEmbedder.fit(tree, base, { embeddingCache: new InMemoryEmbeddingCache() });
    expect(withCache.cacheable).toBe(false);
    expect(withCache.withBaseWeight(0.3).cacheable).toBe(false);
  });

  test('classes can be the nodes at a given depth; a zero vector stays zero', async () => {
    const tree = syntheticTree();
    const projection = await fitProjection(tree, new TableEmbedder(), { classes: { depth: 2 } });
    expect(projection.classes.map((entry) => entry.name)).toEqual(['group-1', 'group-2']);
    expect(projection.outputDimensions).toBe(1);
    const fitted = new FittedEmbedder(new TableEmbedder(), projection, { baseWeight: 0 });
    expect([...(await fitted.embed(['unknown text']))[0]!]).toEqual([0]);
    const withBase = (await fitted.withBaseWeight(0.5).embed(['unknown text']))[0]!;
    expect(withBase.length).toBe(1 + 33);
    expect(withBase.every((value) => value === 0)).toBe(true);
  });

  test('reports progress and refuses a tree with fewer than two classes', async () => {
    const steps: number[] = [];
    await fitProjection(syntheticTree(), new TableEmbedder(), { onProgress: ({ done }) => steps.push(done) });
    expect(steps.length).toBeGreaterThan(2);
    expect(steps.at(-1)).toBeGreaterThan(steps[0]!);
    await expect(
      fitProjection(syntheticTree(), new TableEmbedder(), { classes: { depth: 1 } }),
    ).rejects.toThrow(/at least 2 classes/);
  });
});

describe('fitProjection on several threads', () => {
  test('the randomised PCA path gives the same projection on 1 and 2 threads (up to rounding)', async () => {
    const tree = syntheticTree();
    const base = new TableEmbedder();
    const one = await fitProjection(tree, base, { pcaDimensions: 32, exactPcaMaxChunks: 0, threads: 1 });
    const two = await fitProjection(tree, base, { pcaDimensions: 32, exactPcaMaxChunks: 0, threads: 2 });
    expect(two.outputDimensions).toBe(one.outputDimensions);
    const a = new FittedEmbedder(base, one);
    const b = new FittedEmbedder(base, two);
    const [x, y] = [
      await a.embed(heldOut.map(([text]) => text)),
      await b.embed(heldOut.map(([text]) => text)),
    ];
    x.forEach((vector, i) => {
      // Eigenvectors are defined up to sign: compare the lengths of the fitted vectors.
      const norm = (v: Float32Array) => Math.hypot(...v);
      expect(norm(vector)).toBeCloseTo(norm(y[i]!), 3);
    });
    expect(await nearestChunkAccuracy(b, tree)).toBeGreaterThan(0.9);
  });
});

// Fitted on a small tree of customer-service topics over the hashed embedder, with the base part
// kept (the default), through the suite every Embedder passes.
describeEmbedder(
  'FittedEmbedder (over HashedEmbedder)',
  async () => {
    const topics: Record<string, string[]> = {
      shipping: [
        'how much is shipping',
        'shipping costs',
        'delivery price to my city',
        'when will my parcel arrive',
      ],
      returns: [
        'I want to return an item',
        'how do refunds work',
        'send back a broken product',
        'return policy',
      ],
      hours: [
        'opening hours',
        'is the shop open on Sunday',
        'what time do you close',
        'holiday opening times',
      ],
      account: [
        'I forgot my password',
        'reset my account password',
        'cannot log in',
        'change my email address',
      ],
    };
    const tree = defineTree({
      name: 'conformance',
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        ...Object.entries(topics).map(([name, chunks], index) => ({
          id: 10 + index,
          type: 'empty' as const,
          parent: 2,
          name,
          chunks,
        })),
      ],
    });
    return { embedder: await FittedEmbedder.fit(tree, new HashedEmbedder({ dimensions: 512 })) };
  },
  {
    skip: [
      {
        reason: 'its base (hashed) is local and synchronous: it answers before a signal could abort anything',
        tests: ['an aborted signal rejects the call with its reason'],
      },
    ],
  },
);
