import type { Embedder } from '../embedding/embedder.js';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import type { ChunkId } from '../protocol/chunk-id.js';
import type { Tree } from '../tree/tree.js';
import { buildChunkStorage } from './chunk-index/build-chunk-storage.js';
import { type BestAmongScratch, ChunkScan } from './chunk-index/chunk-scan.js';
import { type ChunkLayout, ChunkStorage } from './chunk-index/chunk-storage.js';
import { FileRows, type RowReader } from './chunk-index/file-rows.js';
import { MemoryRows } from './chunk-index/memory-rows.js';
import type { QuantizedRows } from './quantized-rows.js';

/**
 * From this many chunks on (`scan: 'auto'`), a tree of dense vectors also keeps one sign bit per
 * dimension of each chunk: exploration ranks a node's chunks by Hamming distance (a 32nd of the
 * bytes of a float32 pass) and rescores only the nearest ones exactly (`MemoryChunkSearch`). Below
 * it the float32 pass over every chunk costs less than the sign-bit pass and the rescoring
 * (`bench/sign-scan-crossover.ts` measures where the two meet).
 */
export const SIGN_SCAN_FROM = 5_000;

/**
 * From this many chunks on (`scan: 'auto'`), a sign-bit index written to a packed index file leaves
 * its float32 rows in the file (int8 rows choose the few read per decision, `ChunkIndex.useRowFile`);
 * a smaller one reads them back into memory (30 MB or less at 384 dimensions), where rescoring its
 * candidates costs less than bounding them on int8 rows and reading the survivors. With
 * `scan: 'sign-bits'` the rows stay in the file at any size.
 */
export const ROWS_IN_FILE_FROM = 20_000;

/**
 * From this many chunks on (`exploreThreads: 'auto'`, on a machine with at least two processors),
 * a worker thread takes part in every sign-bit pass: the pass then costs a few milliseconds (the
 * rest of a hop's work stays on the main thread), and the worker's start-up (about 30 ms, once)
 * and wake-up (tens of microseconds per pass) are small against it.
 */
export const SIGN_WORKER_FROM = 250_000;

/**
 * Threads of the sign-bit pass: `1` (the main thread only), `2` (a worker thread takes part in
 * each pass: `ChunkIndex.useSignWorker`), or `auto` (default: 2 from `SIGN_WORKER_FROM` chunks on
 * when the machine has two processors or more).
 */
export type ExploreThreads = 'auto' | 1 | 2;

/**
 * How exploration reads the chunk vectors: `exact` scores every chunk in float32 once per
 * direction; `sign-bits` ranks them by their sign bits and rescores the nearest ones exactly in
 * float32 (dense vectors only; sparse and mixed layouts stay exact); `auto` (default) uses sign bits
 * from `SIGN_SCAN_FROM` chunks on.
 */
export type ExploreScan = 'auto' | 'exact' | 'sign-bits';

/** What `ChunkIndex.fromPacked` restores: the layout, and each block's content or a way to read it. */
export interface PackedChunkIndexParts {
  dimensions: number;
  denseDimensions: Int32Array;
  sparseDimensions: Int32Array;
  scan: ExploreScan;
  /** The sparse block as stored (`sparseDimensions.length × chunks`). */
  columns: Float32Array;
  /** Fills the sign codes (`chunks × codeBytes`) in place, when the index keeps sign bits. */
  readCodes?: (codes: Uint8Array) => void;
  /** Either the rows are read once into memory (`readRows` fills them), or they stay in a file. */
  rows: { readRows: (rows: Float32Array) => void } | { reader: RowReader; quantized: QuantizedRows };
}

export interface ChunkIndexOptions {
  /** Force every dimension into one block (tests, benchmarks). */
  layout?: 'columns' | 'rows';
  /** Default `auto`. */
  scan?: ExploreScan;
}

/**
 * The vectors of every chunk of a tree, unit length, split by dimension into two blocks
 * (`ChunkStorage`). Dense dimensions (most chunks non-zero there: a neural embedding, a fitted
 * projection) are stored row by row, zero-padded to a multiple of 16 floats, and scored with a
 * WebAssembly SIMD dot product; their rows live in memory or in a packed index file (a `RowSource`).
 * Sparse dimensions (such as the hashed n-grams) are stored dimension by dimension, so a pass reads
 * only the columns where the direction is not zero. A vector that concatenates both kinds (a fitted
 * vector with its base part) uses both blocks. Either way one pass (`ChunkScan`) gives the similarity
 * of a direction to every chunk; each exploration hop then reads only the resulting array.
 *
 * This class is the face of its three parts: the storage (`chunk-index/chunk-storage.ts` and the row
 * sources), the build (`chunk-index/build-chunk-storage.ts`) and the scan (`chunk-index/chunk-scan.ts`,
 * which owns the sign-bit pass and its worker thread).
 */
export class ChunkIndex {
  readonly tree: Tree;
  readonly #storage: ChunkStorage;
  readonly #scan: ChunkScan;
  /** How the index was asked to read the vectors (`rowsInFileWhenPacked` depends on it). */
  readonly #scanOption: ExploreScan;
  /** Built on first use (a blacklisted chunk): a million string keys cost about 100 MB. */
  #positionById: Map<string, number> | null = null;

  private constructor(tree: Tree, storage: ChunkStorage, scan: ExploreScan) {
    this.tree = tree;
    this.#storage = storage;
    this.#scanOption = scan;
    this.#scan = new ChunkScan(storage, {
      signBits: scan === 'sign-bits' || (scan === 'auto' && storage.count >= SIGN_SCAN_FROM),
    });
  }

  get dimensions(): number {
    return this.#storage.dimensions;
  }

  /** `rows`: every dimension dense; `columns`: every dimension sparse; `mixed`: some of each. */
  get layout(): ChunkLayout {
    return this.#storage.layout;
  }

  /** The dense dimensions, ascending. */
  get denseDimensions(): Int32Array {
    return this.#storage.denseDimensions;
  }

  /** The sparse dimensions, ascending. */
  get sparseDimensions(): Int32Array {
    return this.#storage.sparseDimensions;
  }

  /** `sparseDimensions.length × chunks` coordinates, dimension-major. */
  get columns(): Float32Array {
    return this.#storage.columns;
  }

  /** Floats per row of the dense dimensions (zero-padded for the WebAssembly kernel). */
  get stride(): number {
    return this.#storage.stride;
  }

  /**
   * `chunks × stride` float32 coordinates of the dense dimensions, row-major (what a packed index
   * file stores). Only while they are in memory (`rowsInMemory`).
   */
  get rows(): Float32Array {
    const rows = this.#storage.rows;
    if (!rows.memory)
      throw new Error(`ChunkIndex.rows: the float32 rows are in ${rows.description}, not in memory`);
    return rows.memory;
  }

  /**
   * Whether a packed index file of this index keeps its float32 rows in the file (`useRowFile`)
   * rather than having them read back into memory: sign bits over dense rows, from
   * `ROWS_IN_FILE_FROM` chunks on, or at any size with `scan: 'sign-bits'`.
   */
  get rowsInFileWhenPacked(): boolean {
    return (
      this.layout === 'rows' &&
      this.#scan.signBits &&
      (this.#scanOption === 'sign-bits' || this.tree.chunks.length >= ROWS_IN_FILE_FROM)
    );
  }

  /** False once the float32 rows live in a packed index file (read a few at a time, see `useRowFile`). */
  get rowsInMemory(): boolean {
    return this.#storage.rows.memory !== null;
  }

  /** The sign codes (`chunks × codeBytes`), when the index keeps sign bits. */
  get signCodes(): Uint8Array | null {
    return this.#scan.signCodes;
  }

  /** The int8 rows kept while the float32 ones are in a file, else `null`. */
  get quantized(): QuantizedRows | null {
    return this.#storage.rows.quantized;
  }

  /**
   * Moves the float32 rows out of memory: from now on they are read from `reader` (rows that
   * `quantized` does not rule out, a block at a time), and the in-memory matrix is released. Only for
   * an index of dense rows with sign bits; returns false (nothing changed) otherwise.
   */
  useRowFile(reader: RowReader, quantized: QuantizedRows): boolean {
    if (this.layout !== 'rows' || !this.#scan.signBits || !this.rowsInMemory) return false;
    const rows = FileRows.open(reader, quantized, this.tree.chunks.length, this.denseDimensions.length);
    if (!rows) return false;
    this.#storage.moveRows(rows);
    return true;
  }

  /** Closes the file the rows are read from and stops the sign pass's worker thread, if any (the index is not used after this). */
  close(): void {
    this.#storage.rows.close();
    this.#scan.close();
  }

  /**
   * Starts a worker thread that takes part in every sign-bit pass (about half the rows each; the
   * sign bits are shared, not copied; `sign-worker.ts`). It is stopped by `close` or when the index
   * is collected, never keeps the process alive, and a failure is reported through `warn` (the
   * passes then run on one thread, with the same results). Returns false when there is no sign-bit
   * pass or no worker thread can run here.
   */
  useSignWorker(warn: (message: string) => void): boolean {
    return this.#scan.useSignWorker(warn);
  }

  /** Threads of the sign-bit pass now: 2 with a worker thread (`useSignWorker`), else 1. */
  get signThreads(): 1 | 2 {
    return this.#scan.signThreads;
  }

  /**
   * The exact best of the chunks at `positions[0..length)` (ascending) for a unit `direction`: the
   * largest float32 similarity, the first position on ties, as a full pass would find it. With the
   * rows in a file, the int8 rows first rule out those that cannot be the best (`candidatesNear`),
   * and only the others are read and scored exactly. `positions` and the scratch arrays are
   * overwritten.
   */
  bestAmong(
    direction: Float32Array,
    positions: Int32Array,
    length: number,
    scratch: BestAmongScratch,
  ): { position: number; similarity: number } | null {
    return this.#scan.bestAmong(direction, positions, length, scratch);
  }

  /**
   * With the float32 rows in a file (`quantized` is set): the int8 approximation of the similarity
   * of a unit `direction` to the chunks at `positions[0..length)` and its error bound, into
   * `approximate` and `bounds` (the exact value lies within `approximate[k] ± bounds[k]`); returns
   * false, writing nothing, when the index keeps no int8 rows.
   */
  approximateAt(
    direction: Float32Array,
    positions: Int32Array,
    length: number,
    approximate: Float64Array,
    bounds: Float64Array,
  ): boolean {
    return this.#scan.approximateAt(direction, positions, length, approximate, bounds);
  }

  /** Whether exploration ranks chunks by sign bits and rescores the nearest exactly (see `ExploreScan`). */
  get signBits(): boolean {
    return this.#scan.signBits;
  }

  /** Bits per chunk code (the row length in floats), the largest possible Hamming distance. */
  get codeBits(): number {
    return this.#scan.codeBits;
  }

  /**
   * The Hamming distance between the sign bits of a unit `direction` and those of every chunk, into
   * `out` (one per chunk, in chunk order), and how many chunks have each distance into `histogram`
   * (`codeBits + 1` slots). Only with sign bits (`signBits`).
   */
  hammingDistances(direction: Float32Array, out: Uint16Array, histogram: Int32Array): void {
    this.#scan.hammingDistances(direction, out, histogram);
  }

  /**
   * The sign-bit pass of a unit `direction` without copying: its Hamming distance to every chunk as
   * a view of WebAssembly memory, valid while `signPassValid(pass)` (until the next pass of any
   * search on this index), and the histogram of distances into `histogram` (`codeBits + 1` slots).
   * Only with sign bits (`signBits`).
   */
  signPass(direction: Float32Array, histogram: Int32Array): { distances: Uint16Array; pass: number } {
    return this.#scan.signPass(direction, histogram);
  }

  /** Whether the distances of sign pass `pass` (`signPass`) are still the ones in memory. */
  signPassValid(pass: number): boolean {
    return this.#scan.signPassValid(pass);
  }

  /**
   * The positions in `[from, to)` whose distance in `distances` (an `out` of `hammingDistances`) is
   * at most `cut`, ascending, into `positions` (with room for them); returns how many. `distances`
   * is a valid `signPass` view, or an `out` of `hammingDistances`.
   */
  positionsWithin(
    distances: Uint16Array,
    from: number,
    to: number,
    cut: number,
    positions: Int32Array,
  ): number {
    return this.#scan.positionsWithin(distances, from, to, cut, positions);
  }

  /**
   * Similarity of a unit `direction` to the chunks at `positions[0..length)`, into `out[0..length)`:
   * for dense rows scored by the WebAssembly kernel, bit for bit the value `similarities` gives
   * those chunks (the same kernel on each row).
   */
  similaritiesAt(direction: Float32Array, positions: Int32Array, length: number, out: Float32Array): void {
    this.#scan.similaritiesAt(direction, positions, length, out);
  }

  /**
   * An index restored from a packed index file (`packed-index-file.ts`): the same layout and values
   * as the index that was written, without embedding anything. Throws when the kernels cannot hold
   * it (the caller falls back to `build`).
   */
  static fromPacked(tree: Tree, parts: PackedChunkIndexParts): ChunkIndex {
    const count = tree.chunks.length;
    const dense = parts.denseDimensions.length;
    let rows: MemoryRows | FileRows;
    if ('reader' in parts.rows) {
      const fileRows = FileRows.open(parts.rows.reader, parts.rows.quantized, count, dense);
      if (!fileRows) throw new Error('ChunkIndex: rows in a file need the WebAssembly kernel (no SIMD here)');
      rows = fileRows;
    } else rows = new MemoryRows(count, dense);
    const storage = new ChunkStorage({
      count,
      dimensions: parts.dimensions,
      denseDimensions: parts.denseDimensions,
      sparseDimensions: parts.sparseDimensions,
      columns: parts.columns,
      rows,
    });
    const index = new ChunkIndex(tree, storage, parts.scan);
    const codes = index.#scan.signCodes;
    if (codes) {
      if (!parts.readCodes)
        throw new Error('ChunkIndex.fromPacked: the file has no sign codes for a sign-bit index');
      parts.readCodes(codes);
    }
    if ('reader' in parts.rows) {
      if (index.layout !== 'rows' || !codes)
        throw new Error('ChunkIndex.fromPacked: rows in a file need dense rows with sign bits');
    } else if (rows.memory) parts.rows.readRows(rows.memory);
    return index;
  }

  /**
   * Embeds the tree's chunks (through the cache) and packs them, each dimension in the dense block
   * or the sparse one by how many chunks use it. `layout` forces every dimension into one block
   * (tests, benchmarks).
   */
  static async build(
    tree: Tree,
    embedder: Embedder,
    cache?: EmbeddingCache,
    options: ChunkIndexOptions = {},
  ): Promise<ChunkIndex> {
    const storage = await buildChunkStorage(tree, embedder, cache, options.layout);
    const index = new ChunkIndex(tree, storage, options.scan ?? 'auto');
    index.#scan.packSigns();
    return index;
  }

  /**
   * Cosine similarity of a unit `direction` to every chunk, in chunk order; with `from`/`to`, only
   * the chunks at positions `[from, to)` are scored (the others are 0). `into` (one slot per chunk)
   * receives them instead of a new array (a search's buffer, reused turn after turn).
   */
  similarities(
    direction: Float32Array,
    from = 0,
    to = this.tree.chunks.length,
    into?: Float32Array,
  ): Float32Array {
    return this.#scan.similarities(direction, from, to, into);
  }

  /**
   * Similarity of a unit `direction` to the chunks at positions `[from, to)`, into
   * `out[0..to - from)`: for dense rows scored by the WebAssembly kernel, bit for bit the values
   * `similarities` gives them.
   */
  similaritiesRange(direction: Float32Array, from: number, to: number, out: Float32Array): void {
    this.#scan.similaritiesRange(direction, from, to, out);
  }

  /** The unit vector of the chunk at `position` (a copy). */
  vector(position: number): Float32Array {
    return this.#storage.vector(position);
  }

  /** Position of a chunk id in the tree's chunk order, or `undefined`. */
  positionOf(id: ChunkId): number | undefined {
    if (!this.#positionById)
      this.#positionById = new Map(this.tree.chunks.map((chunk, position) => [chunkKey(chunk.id), position]));
    return this.#positionById.get(chunkKey(id));
  }
}

function chunkKey(id: ChunkId): string {
  return String(id);
}
