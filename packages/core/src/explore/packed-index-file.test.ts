import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ExploreConstraints } from '../context/explore-strategy.js';
import { FileEmbeddingCache } from '../embedding/file-embedding-cache.js';
import { TreeAgent } from '../engine/agent/tree-agent.js';
import { ExactEmbedder } from '../test/exact-embedder.js';
import { defineTree } from '../tree/define-tree.js';
import type { NodeDefinition } from '../tree/node-definition.js';
import { ChunkIndex, type ExploreScan, SIGN_SCAN_FROM } from './chunk-index.js';
import { MemoryChunkSearch } from './memory-chunk-search.js';
import {
  calibrationKey,
  type PackedIndexKey,
  packedIndexFile,
  readPackedIndex,
  StalePackedIndex,
  writePackedIndex,
} from './packed-index-file.js';

/** Deterministic pseudo-random numbers in [-0.5, 0.5). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32 - 0.5;
  };
}

function unit(next: () => number, dimensions: number): number[] {
  const raw = Array.from({ length: dimensions }, () => next());
  const norm = Math.hypot(...raw);
  return raw.map((value) => value / norm);
}

/** Agent → `groups` routing nodes → `leaves` leaves each with `perLeaf` chunks; clustered unit vectors. */
function clusteredTree(
  groups: number,
  leaves: number,
  perLeaf: number,
  dimensions: number,
  seed: number,
  name = 'packed',
) {
  const next = random(seed);
  const nodes: NodeDefinition[] = [
    { id: 1, type: 'root', defaultSimilarityThreshold: 0.05 },
    { id: 2, type: 'agent', parent: 1, isPrimary: true },
  ];
  const vectors: Record<string, number[]> = {};
  let id = 3;
  let chunk = 0;
  for (let g = 0; g < groups; g++) {
    const group = id++;
    nodes.push({ id: group, type: 'empty', parent: 2 });
    for (let l = 0; l < leaves; l++) {
      const centre = unit(next, dimensions);
      const texts = Array.from({ length: perLeaf }, () => `c${chunk++}`);
      for (const text of texts)
        vectors[text] = unit(() => 0, dimensions).map((_, j) => centre[j]! + 0.6 * next());
      nodes.push({ id: id++, type: 'empty', parent: group, chunks: texts });
    }
  }
  return { tree: defineTree({ name, nodes }), vectors, next };
}

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'packed-index-'));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

async function built(scan: ExploreScan, dimensions = 40) {
  const { tree, vectors, next } = clusteredTree(3, 6, 8, dimensions, dimensions);
  const embedder = new ExactEmbedder({ vectors });
  const index = await ChunkIndex.build(tree, embedder, undefined, { scan });
  const key: PackedIndexKey = { tree, embedderId: embedder.id, dimensions: undefined, scan };
  return { tree, vectors, next, embedder, index, key };
}

const calibration = { key: calibrationKey({ keep: 0.9 }), calibrations: [] };

describe('packed index file', () => {
  test.each(['sign-bits', 'exact'] as const)(
    'round trip (%s): the same similarities bit for bit',
    async (scan) => {
      const { tree, next, index, key } = await built(scan);
      const direction = Float32Array.from(unit(next, 40));
      const before = index.similarities(direction);
      const written = writePackedIndex(directory, key, index, calibration);
      expect(written.file).toBe(packedIndexFile(directory, key));
      expect(statSync(written.file).mode & 0o777).toBe(0o600);
      const packed = readPackedIndex(directory, key)!;
      expect(packed.calibration).toBe(calibration.key);
      expect(packed.index.signBits).toBe(scan === 'sign-bits');
      // Sign-bit indexes keep their float32 rows in the file; exact ones read them back into memory.
      expect(packed.index.rowsInMemory).toBe(scan === 'exact');
      expect(Array.from(packed.index.similarities(direction))).toEqual(Array.from(before));
      expect(Array.from(packed.index.vector(5))).toEqual(Array.from(index.vector(5)));
      const positions = Int32Array.from([0, 1, 2, 7, 30, 31, tree.chunks.length - 1]);
      const out = new Float32Array(positions.length);
      packed.index.similaritiesAt(direction, positions, positions.length, out);
      expect(Array.from(out)).toEqual(Array.from(positions, (position) => before[position]!));
      written.reader?.close();
      packed.index.close();
    },
  );

  test('an index switched to its file answers as before, and releases its rows', async () => {
    const { next, index, key } = await built('sign-bits');
    const direction = Float32Array.from(unit(next, 40));
    const before = index.similarities(direction);
    const written = writePackedIndex(directory, key, index, calibration);
    expect(index.useRowFile(written.reader!, written.quantized!)).toBe(true);
    expect(index.rowsInMemory).toBe(false);
    expect(() => index.rows).toThrow(/float32 rows are in .*\.tapack/);
    expect(Array.from(index.similarities(direction))).toEqual(Array.from(before));
    index.close();
  });

  test('no file: null; another tree content or embedder: another file', async () => {
    const { key, index } = await built('sign-bits');
    expect(readPackedIndex(directory, key)).toBeNull();
    writePackedIndex(directory, key, index, calibration).reader?.close();
    const other = clusteredTree(3, 6, 9, 40, 41);
    expect(packedIndexFile(directory, { ...key, tree: other.tree })).not.toBe(
      packedIndexFile(directory, key),
    );
    expect(packedIndexFile(directory, { ...key, embedderId: 'other' })).not.toBe(
      packedIndexFile(directory, key),
    );
    expect(packedIndexFile(directory, { ...key, scan: 'exact' })).not.toBe(packedIndexFile(directory, key));
  });

  test('a new content of the same tree replaces the older file', async () => {
    const { key, index } = await built('sign-bits');
    writePackedIndex(directory, key, index, calibration).reader?.close();
    const changed = clusteredTree(3, 6, 9, 40, 42);
    const embedder = new ExactEmbedder({ vectors: changed.vectors });
    const changedKey = { ...key, tree: changed.tree };
    const changedIndex = await ChunkIndex.build(changed.tree, embedder, undefined, { scan: 'sign-bits' });
    writePackedIndex(directory, changedKey, changedIndex, calibration).reader?.close();
    expect(readdirSync(directory)).toEqual([
      packedIndexFile(directory, changedKey).slice(directory.length + 1),
    ]);
  });

  test('a file of another tree content under the expected name is stale, never used', async () => {
    const { key, index } = await built('sign-bits');
    const changed = clusteredTree(3, 6, 9, 40, 43);
    const changedKey = { ...key, tree: changed.tree };
    const written = writePackedIndex(directory, key, index, calibration);
    written.reader?.close();
    renameSync(written.file, packedIndexFile(directory, changedKey));
    expect(() => readPackedIndex(directory, changedKey)).toThrow(StalePackedIndex);
    expect(() => readPackedIndex(directory, changedKey)).toThrow(/tree content/);
  });

  test.each([
    ['cut short', (bytes: Buffer) => bytes.subarray(0, bytes.length - 100), /bytes long/],
    ['appended to', (bytes: Buffer) => Buffer.concat([bytes, Buffer.alloc(10)]), /bytes long/],
    ['wrong magic', (bytes: Buffer) => Buffer.concat([Buffer.from('XXXXXXXX'), bytes.subarray(8)]), /magic/],
    [
      'garbled header',
      (bytes: Buffer) => {
        const copy = Buffer.from(bytes);
        copy[14] = 0x7b;
        copy[15] = 0x7b;
        return copy;
      },
      /format|header/,
    ],
  ])('a corrupt file (%s) is stale, never used', async (_name, corrupt, reason) => {
    const { key, index } = await built('sign-bits');
    const written = writePackedIndex(directory, key, index, calibration);
    written.reader?.close();
    writeFileSync(written.file, corrupt(readFileSync(written.file)));
    expect(() => readPackedIndex(directory, key)).toThrow(reason);
  });

  test.each(['codes', 'values', 'scales', 'columns', 'rows'] as const)(
    'a flipped byte in the %s section is found at start',
    async (section) => {
      // Sparse-and-dense would be needed for columns: an all-column index has only that section.
      const scan: ExploreScan = section === 'columns' ? 'exact' : 'sign-bits';
      const { tree, vectors } = clusteredTree(3, 6, 8, 40, 40);
      const embedder = new ExactEmbedder({ vectors });
      const index = await ChunkIndex.build(tree, embedder, undefined, {
        scan,
        ...(section === 'columns' ? { layout: 'columns' as const } : {}),
      });
      const key: PackedIndexKey = { tree, embedderId: embedder.id, scan };
      const written = writePackedIndex(directory, key, index, calibration);
      written.reader?.close();
      const bytes = readFileSync(written.file);
      const header = JSON.parse(bytes.subarray(12, 12 + bytes.readUInt32LE(8)).toString()) as {
        sections: Record<string, { offset: number; bytes: number }>;
      };
      // Row 0 is among the rows spot-checked against the sign bits.
      bytes[header.sections[section]!.offset + 3]! ^= 0x80;
      writeFileSync(written.file, bytes);
      expect(() => readPackedIndex(directory, key)).toThrow(StalePackedIndex);
    },
  );

  test('`auto` from SIGN_SCAN_FROM to ROWS_IN_FILE_FROM chunks: sign bits, the float32 rows read back into memory', async () => {
    const { tree, vectors, next } = clusteredTree(10, SIGN_SCAN_FROM / 100, 10, 16, 16);
    expect(tree.chunks.length).toBe(SIGN_SCAN_FROM);
    const embedder = new ExactEmbedder({ vectors });
    const index = await ChunkIndex.build(tree, embedder);
    const key: PackedIndexKey = { tree, embedderId: embedder.id, scan: 'auto' };
    const written = writePackedIndex(directory, key, index, calibration);
    expect([written.reader, written.quantized]).toEqual([null, null]);
    const packed = readPackedIndex(directory, key)!;
    expect([packed.index.signBits, packed.index.rowsInMemory]).toEqual([true, true]);
    const direction = Float32Array.from(unit(next, 16));
    expect(Array.from(packed.index.similarities(direction))).toEqual(
      Array.from(index.similarities(direction)),
    );
    expect(packed.index.signCodes).toEqual(index.signCodes);
  });

  test('a file written without sign bits for a tree this engine ranks by sign bits is stale, and says why', async () => {
    // What an engine with a higher SIGN_SCAN_FROM wrote for the same tree and key.
    const { tree, vectors } = clusteredTree(10, SIGN_SCAN_FROM / 100, 10, 16, 17);
    const embedder = new ExactEmbedder({ vectors });
    const key: PackedIndexKey = { tree, embedderId: embedder.id, scan: 'auto' };
    const withoutSigns = await ChunkIndex.build(tree, embedder, undefined, { scan: 'exact' });
    writePackedIndex(directory, key, withoutSigns, calibration);
    expect(() => readPackedIndex(directory, key)).toThrow(
      new StalePackedIndex(
        packedIndexFile(directory, key),
        `it was written without sign bits, which this version keeps for a tree of ${SIGN_SCAN_FROM} chunks (SIGN_SCAN_FROM is ${SIGN_SCAN_FROM})`,
      ),
    );
  });

  test('decisions on the file-backed index equal the exact float32 scan, bit for bit', async () => {
    const { tree, vectors, next } = clusteredTree(4, 12, 30, 64, 7);
    const embedder = new ExactEmbedder({ vectors });
    const exact = await ChunkIndex.build(tree, embedder, undefined, { scan: 'sign-bits' });
    const key: PackedIndexKey = { tree, embedderId: embedder.id, scan: 'sign-bits' };
    writePackedIndex(directory, key, exact, calibration).reader?.close();
    const fromFile = readPackedIndex(directory, key)!.index;
    expect(fromFile.rowsInMemory).toBe(false);
    const constraints = new ExploreConstraints();
    let checked = 0;
    for (let trial = 0; trial < 60; trial++) {
      // Near a chunk, or anywhere: both crowded and open neighbourhoods.
      const base =
        trial % 2 ? vectors[`c${Math.floor((next() + 0.5) * tree.chunks.length)}`]! : unit(next, 64);
      const direction = Float32Array.from(unit(() => 0, 64).map((_, j) => base[j]! + 0.3 * next()));
      const norm = Math.hypot(...direction);
      for (let j = 0; j < 64; j++) direction[j]! /= norm;
      const reference = new MemoryChunkSearch(exact, async () => direction, { exact: true });
      // The sign-bit scan with the float32 rows in memory: every candidate rescored in float32.
      const inMemory = new MemoryChunkSearch(exact, async () => direction);
      const searched = new MemoryChunkSearch(fromFile, async () => direction);
      const blacklisted = new ExploreConstraints();
      for (const node of tree.nodes.values()) {
        if (!node.children.length) continue;
        const expected = await reference.best(node, constraints);
        const found = await searched.best(node, constraints);
        expect(found?.chunkId).toBe(expected?.chunkId);
        expect(found?.similarity).toBe(expected?.similarity);
        // Runner-up (margin) included: the int8 bound only drops rows that cannot be the best.
        expect(found).toEqual(await inMemory.best(node, constraints));
        // With the best child blacklisted (a fallback): the next best, the same way.
        if (found) {
          blacklisted.blacklist.add(found.childId, 'node');
          expect(await searched.best(node, blacklisted)).toEqual(await inMemory.best(node, blacklisted));
          expect((await searched.best(node, blacklisted))?.chunkId).toBe(
            (await reference.best(node, blacklisted))?.chunkId,
          );
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
    fromFile.close();
  });
});

describe('TreeAgent with a packed index directory', () => {
  function agentFor(
    vectors: Record<string, number[]>,
    tree: ReturnType<typeof clusteredTree>['tree'],
    lines: string[],
  ) {
    const embedder = new ExactEmbedder({ vectors });
    const agent = new TreeAgent({
      tree,
      embedder,
      embeddingCache: new FileEmbeddingCache(directory),
      exploreScan: 'sign-bits',
      log: (level, message) => lines.push(`${level}: ${message}`),
    });
    return { agent, embedder };
  }

  test('the second start reads the file instead of the cache, routes the same, keeps the thresholds', async () => {
    const { tree, vectors } = clusteredTree(3, 6, 8, 40, 40);
    for (let k = 0; k < 4; k++) vectors[`m${k}`] = vectors[`c${k * 31}`]!.map((x, j) => x + (j % 3) * 0.01);
    const firstLines: string[] = [];
    const first = agentFor(vectors, tree, firstLines);
    await first.agent.ready();
    expect(firstLines).toEqual([]);
    expect(readdirSync(join(directory, 'index'))).toEqual([
      expect.stringMatching(/^packed-[0-9a-f]{8}-[0-9a-f]{16}\.tapack$/),
    ]);
    const secondLines: string[] = [];
    const second = agentFor(vectors, tree, secondLines);
    await second.agent.ready();
    expect(secondLines).toEqual([]);
    // No chunk asked of the embedder (nor of the cache: the embedder would be asked on a miss).
    expect(second.embedder.calls.flat().filter((text) => text.startsWith('c'))).toEqual([]);
    expect(second.agent.thresholds()).toEqual(first.agent.thresholds());
    for (let k = 0; k < 4; k++) {
      const a = await first.agent.route(`m${k}`);
      const b = await second.agent.route(`m${k}`);
      expect(b.decisions).toEqual(a.decisions);
    }
  });

  test('a corrupt file is logged and ignored: the agent loads chunk by chunk and rewrites it', async () => {
    const { tree, vectors } = clusteredTree(3, 6, 8, 40, 40);
    await agentFor(vectors, tree, []).agent.ready();
    const [name] = readdirSync(join(directory, 'index'));
    const file = join(directory, 'index', name!);
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 64));
    const lines: string[] = [];
    const { agent, embedder } = agentFor(vectors, tree, lines);
    await agent.ready();
    expect(lines.join('\n')).toMatch(
      /warn: Tree Agent: ignoring the packed index .*cut short.*Loading chunk by chunk/,
    );
    expect(embedder.calls.flat().some((text) => text.startsWith('c'))).toBe(false); // from the embedding cache
    expect(statSync(file).size).toBe(bytes.length);
  });

  test('indexDirectory: false writes nothing', async () => {
    const { tree, vectors } = clusteredTree(2, 3, 5, 16, 3);
    const agent = new TreeAgent({
      tree,
      embedder: new ExactEmbedder({ vectors }),
      embeddingCache: new FileEmbeddingCache(directory),
      indexDirectory: false,
    });
    await agent.ready();
    expect(readdirSync(directory).includes('index')).toBe(false);
  });
});
