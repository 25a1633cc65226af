import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { ChunkId } from '../protocol/chunk-id.js';
import type { Tree } from '../tree/tree.js';
import { createRowKernel, type RowKernel } from './dot-kernel.js';
import { approximateRows, candidatesNear, type QuantizedRows } from './quantized-rows.js';
import { createSignKernel, type SignKernel } from './sign-kernel.js';

/**
 * A dimension is dense when at least half the chunks (sampled) have a non-zero coordinate there.
 * Dense dimensions are stored row by row in WebAssembly memory and scored by a SIMD kernel
 * (`dot-kernel.ts`): one sequential read per direction, at about the speed of memory.
 */
const DENSE_FRACTION = 0.5;
/** Chunks sampled (evenly spaced) to decide which dimensions are dense. */
const DENSE_SAMPLES = 256;
/** Chunks embedded and packed at a time while building. */
const BUILD_BATCH = 4096;

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

/**
 * Float32 rows kept outside memory (a packed index file, `packed-index-file.ts`): `rows` rows from row
 * `from` read into `into` (`rows × stride × 4` bytes).
 */
export interface RowReader {
  read(into: Uint8Array, from: number, rows: number): void;
  /** Where the rows are, for messages (a file path). */
  readonly description: string;
  close(): void;
}

/** Rows read (and scored) at a time when the float32 rows are in a file: 4,096 × 1.5 KB at 384-d. */
const FILE_BLOCK_ROWS = 4096;

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
 * The vectors of every chunk of a tree, unit length, split by dimension into two blocks. Dense
 * dimensions (most chunks non-zero there: a neural embedding, a fitted projection) are stored row by
 * row, zero-padded to a multiple of 16 floats, and scored with a WebAssembly SIMD dot product.
 * Sparse dimensions (such as the hashed n-grams) are stored dimension by dimension (column `j` holds
 * that coordinate of every chunk, in the tree's depth-first chunk order), so a pass reads only the
 * columns where the direction is not zero. A vector that concatenates both kinds (a fitted vector
 * with its base part) uses both blocks. Either way one pass gives the similarity of a direction to
 * every chunk; each exploration hop then reads only the resulting array.
 */
export class ChunkIndex {
  readonly tree: Tree;
  readonly dimensions: number;
  /** `rows`: every dimension dense; `columns`: every dimension sparse; `mixed`: some of each. */
  readonly layout: 'columns' | 'rows' | 'mixed';
  /** The dense dimensions, ascending. */
  readonly denseDimensions: Int32Array;
  /** The sparse dimensions, ascending. */
  readonly sparseDimensions: Int32Array;
  /** `sparseDimensions.length × chunks` coordinates, dimension-major. */
  readonly columns: Float32Array;
  readonly stride: number;
  /** `chunks × stride` coordinates of the dense dimensions, row-major; `null` when they are in a file. */
  #rows: Float32Array | null;
  /** On `#rows`, or on a block of `FILE_BLOCK_ROWS` rows read from `#reader`. */
  #kernel: RowKernel | null;
  /** Where the float32 rows are when they are not in memory. */
  #reader: RowReader | null = null;
  /** Int8 copies of the rows, kept with `#reader`: they choose which rows to read. */
  #quantized: QuantizedRows | null = null;
  /** For each dimension, its column among the sparse ones, or -1. */
  readonly #sparseSlot: Int32Array;
  /** The direction's dense coordinates, gathered (mixed layout). */
  readonly #denseDirection: Float32Array;
  /** Built on first use (a blacklisted chunk): a million string keys cost about 100 MB. */
  #positionById: Map<string, number> | null = null;
  /** One sign bit per dense dimension of each chunk (`scan` chose sign bits), else `null`. */
  readonly #signs: SignKernel | null;
  /** The direction's code (scratch). */
  readonly #queryCode: Uint8Array;
  /** How the index was asked to read the vectors (`rowsInFileWhenPacked` depends on it). */
  readonly #scan: ExploreScan;

  private constructor(
    tree: Tree,
    dimensions: number,
    dense: Int32Array,
    sparse: Int32Array,
    scan: ExploreScan,
    storage: { columns?: Float32Array; rowsInFile?: boolean } = {},
  ) {
    this.tree = tree;
    this.dimensions = dimensions;
    this.denseDimensions = dense;
    this.sparseDimensions = sparse;
    this.layout = sparse.length === 0 ? 'rows' : dense.length === 0 ? 'columns' : 'mixed';
    this.#scan = scan;
    const count = tree.chunks.length;

    this.#kernel = dense.length
      ? createRowKernel(storage.rowsInFile ? Math.min(count, FILE_BLOCK_ROWS) : count, dense.length)
      : null;
    if (storage.rowsInFile && !this.#kernel)
      throw new Error('ChunkIndex: rows in a file need the WebAssembly kernel (no SIMD here)');
    this.stride = this.#kernel ? this.#kernel.stride : dense.length;
    this.#rows = storage.rowsInFile
      ? null
      : this.#kernel
        ? this.#kernel.rows
        : new Float32Array(count * this.stride);
    this.#denseDirection = new Float32Array(dense.length);

    this.columns = storage.columns ?? new Float32Array(count * sparse.length);
    this.#sparseSlot = new Int32Array(dimensions).fill(-1);
    sparse.forEach((j, slot) => {
      this.#sparseSlot[j] = slot;
    });

    this.#signs =
      this.layout === 'rows' &&
      this.#kernel !== null &&
      (scan === 'sign-bits' || (scan === 'auto' && count >= SIGN_SCAN_FROM))
        ? createSignKernel(count, this.stride, { shared: true })
        : null;
    this.#queryCode = new Uint8Array(this.#signs?.codeBytes ?? 0);
  }

  /** Packs the unit vector of the chunk at `row`: its dense coordinates, its sparse ones, its sign bits. */
  #fill(row: number, vector: ArrayLike<number>): void {
    const dense = this.denseDimensions;
    const sparse = this.sparseDimensions;
    const count = this.tree.chunks.length;
    const base = row * this.stride;
    const rows = this.rows;
    for (let k = 0; k < dense.length; k++) rows[base + k] = vector[dense[k]!]!;
    for (let slot = 0; slot < sparse.length; slot++)
      this.columns[slot * count + row] = vector[sparse[slot]!]!;
    const signs = this.#signs;
    if (signs) packSigns(rows, base, this.stride, signs.codes, row * signs.codeBytes);
  }

  /**
   * `chunks × stride` float32 coordinates of the dense dimensions, row-major (what a packed index
   * file stores). Only while they are in memory (`rowsInMemory`).
   */
  get rows(): Float32Array {
    if (!this.#rows)
      throw new Error(`ChunkIndex.rows: the float32 rows are in ${this.#reader?.description}, not in memory`);
    return this.#rows;
  }

  /**
   * Whether a packed index file of this index keeps its float32 rows in the file (`useRowFile`)
   * rather than having them read back into memory: sign bits over dense rows, from
   * `ROWS_IN_FILE_FROM` chunks on, or at any size with `scan: 'sign-bits'`.
   */
  get rowsInFileWhenPacked(): boolean {
    return (
      this.layout === 'rows' &&
      this.#signs !== null &&
      (this.#scan === 'sign-bits' || this.tree.chunks.length >= ROWS_IN_FILE_FROM)
    );
  }

  /** False once the float32 rows live in a packed index file (read a few at a time, see `useRowFile`). */
  get rowsInMemory(): boolean {
    return this.#rows !== null;
  }

  /** The sign codes (`chunks × codeBytes`), when the index keeps sign bits. */
  get signCodes(): Uint8Array | null {
    return this.#signs?.codes ?? null;
  }

  /** The int8 rows kept while the float32 ones are in a file, else `null`. */
  get quantized(): QuantizedRows | null {
    return this.#quantized;
  }

  /**
   * Moves the float32 rows out of memory: from now on they are read from `reader` (rows that
   * `quantized` does not rule out, a block at a time), and the in-memory matrix is released. Only for
   * an index of dense rows with sign bits; returns false (nothing changed) otherwise.
   */
  useRowFile(reader: RowReader, quantized: QuantizedRows): boolean {
    if (this.layout !== 'rows' || !this.#signs || !this.#rows) return false;
    const kernel = createRowKernel(
      Math.min(this.tree.chunks.length, FILE_BLOCK_ROWS),
      this.denseDimensions.length,
    );
    if (!kernel) return false;
    this.#kernel = kernel;
    this.#rows = null;
    this.#reader = reader;
    this.#quantized = quantized;
    return true;
  }

  /** Closes the file the rows are read from and stops the sign pass's worker thread, if any (the index is not used after this). */
  close(): void {
    this.#reader?.close();
    this.#signs?.close();
  }

  /**
   * Starts a worker thread that takes part in every sign-bit pass (about half the rows each; the
   * sign bits are shared, not copied; `sign-worker.ts`). It is stopped by `close` or when the index
   * is collected, never keeps the process alive, and a failure is reported through `warn` (the
   * passes then run on one thread, with the same results). Returns false when there is no sign-bit
   * pass or no worker thread can run here.
   */
  useSignWorker(warn: (message: string) => void): boolean {
    const signs = this.#signs;
    if (!signs?.startWorker(warn)) return false;
    stopWhenCollected.register(this, signs);
    return true;
  }

  /** Threads of the sign-bit pass now: 2 with a worker thread (`useSignWorker`), else 1. */
  get signThreads(): 1 | 2 {
    return this.#signs?.threads ?? 1;
  }

  /**
   * Scores rows `[from, to)` read from the row file, a block at a time, into `out[0..to - from)`:
   * the same kernel as on rows in memory, so the same values bit for bit.
   */
  #fileRange(direction: Float32Array, from: number, to: number, out: Float32Array): void {
    const kernel = this.#kernel!;
    const bytes = new Uint8Array(kernel.rows.buffer, kernel.rows.byteOffset, kernel.rows.byteLength);
    for (let start = from; start < to; start += FILE_BLOCK_ROWS) {
      const rows = Math.min(FILE_BLOCK_ROWS, to - start);
      this.#reader!.read(bytes, start, rows);
      kernel.dotsRange(direction, 0, rows, out.subarray(start - from, start - from + rows));
    }
  }

  /** `similaritiesAt` on the row file: runs of consecutive positions read in one call. */
  #fileAt(direction: Float32Array, positions: Int32Array, length: number, out: Float32Array): void {
    const kernel = this.#kernel!;
    const rowBytes = this.stride * 4;
    const block = kernel.rows.length / this.stride;
    let k = 0;
    while (k < length) {
      const first = k;
      let filled = 0;
      while (k < length && filled < block) {
        let run = 1;
        while (k + run < length && filled + run < block && positions[k + run] === positions[k]! + run) run++;
        const into = new Uint8Array(
          kernel.rows.buffer,
          kernel.rows.byteOffset + filled * rowBytes,
          run * rowBytes,
        );
        this.#reader!.read(into, positions[k]!, run);
        filled += run;
        k += run;
      }
      kernel.dotsRange(direction, 0, filled, out.subarray(first, first + filled));
    }
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
    scratch: { scores: Float32Array; approximate: Float64Array; bounds: Float64Array },
  ): { position: number; similarity: number } | null {
    if (length === 0) return null;
    let kept = length;
    if (this.#quantized && direction.length === this.dimensions)
      kept = candidatesNear(
        this.#quantized,
        direction,
        this.dimensions,
        positions,
        length,
        scratch.approximate,
        scratch.bounds,
      );
    this.similaritiesAt(direction, positions, kept, scratch.scores);
    let best = 0;
    for (let k = 1; k < kept; k++) if (scratch.scores[k]! > scratch.scores[best]!) best = k;
    return { position: positions[best]!, similarity: scratch.scores[best]! };
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
    if (!this.#quantized || direction.length !== this.dimensions) return false;
    approximateRows(this.#quantized, direction, this.dimensions, positions, length, approximate, bounds);
    return true;
  }

  /** Whether exploration ranks chunks by sign bits and rescores the nearest exactly (see `ExploreScan`). */
  get signBits(): boolean {
    return this.#signs !== null;
  }

  /** Bits per chunk code (the row length in floats), the largest possible Hamming distance. */
  get codeBits(): number {
    return this.#signs ? this.#signs.codeBytes * 8 : 0;
  }

  /**
   * The Hamming distance between the sign bits of a unit `direction` and those of every chunk, into
   * `out` (one per chunk, in chunk order), and how many chunks have each distance into `histogram`
   * (`codeBits + 1` slots). Only with sign bits (`signBits`).
   */
  hammingDistances(direction: Float32Array, out: Uint16Array, histogram: Int32Array): void {
    const signs = this.#signs;
    if (!signs)
      throw new Error('ChunkIndex.hammingDistances: this index keeps no sign bits (signBits is false)');
    this.#queryCode.fill(0);
    packSigns(direction, 0, Math.min(direction.length, this.stride), this.#queryCode, 0);
    signs.distances(this.#queryCode, out, histogram);
  }

  /**
   * The sign-bit pass of a unit `direction` without copying: its Hamming distance to every chunk as
   * a view of WebAssembly memory, valid while `signPassValid(pass)` (until the next pass of any
   * search on this index), and the histogram of distances into `histogram` (`codeBits + 1` slots).
   * Only with sign bits (`signBits`).
   */
  signPass(direction: Float32Array, histogram: Int32Array): { distances: Uint16Array; pass: number } {
    const signs = this.#signs;
    if (!signs) throw new Error('ChunkIndex.signPass: this index keeps no sign bits (signBits is false)');
    this.#queryCode.fill(0);
    packSigns(direction, 0, Math.min(direction.length, this.stride), this.#queryCode, 0);
    const distances = signs.run(this.#queryCode, histogram);
    return { distances, pass: signs.pass };
  }

  /** Whether the distances of sign pass `pass` (`signPass`) are still the ones in memory. */
  signPassValid(pass: number): boolean {
    return this.#signs !== null && this.#signs.pass === pass;
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
    const signs = this.#signs;
    if (!signs)
      throw new Error('ChunkIndex.positionsWithin: this index keeps no sign bits (signBits is false)');
    return signs.within(distances, from, to, cut, positions);
  }

  /**
   * Similarity of a unit `direction` to the chunks at `positions[0..length)`, into `out[0..length)`:
   * for dense rows scored by the WebAssembly kernel, bit for bit the value `similarities` gives
   * those chunks (the same kernel on each row).
   */
  similaritiesAt(direction: Float32Array, positions: Int32Array, length: number, out: Float32Array): void {
    if (this.#kernel && this.layout === 'rows' && direction.length === this.dimensions) {
      if (this.#reader) this.#fileAt(direction, positions, length, out);
      else this.#kernel.dotsAt(direction, positions, length, out);
      return;
    }
    for (let k = 0; k < length; k++) {
      const position = positions[k]!;
      out[k] = this.similarities(direction, position, position + 1)[position]!;
    }
  }

  /**
   * An index restored from a packed index file (`packed-index-file.ts`): the same layout and values
   * as the index that was written, without embedding anything. Throws when the kernels cannot hold
   * it (the caller falls back to `build`).
   */
  static fromPacked(tree: Tree, parts: PackedChunkIndexParts): ChunkIndex {
    const inFile = 'reader' in parts.rows;
    const index = new ChunkIndex(
      tree,
      parts.dimensions,
      parts.denseDimensions,
      parts.sparseDimensions,
      parts.scan,
      {
        columns: parts.columns,
        rowsInFile: inFile,
      },
    );
    if (index.#signs) {
      if (!parts.readCodes)
        throw new Error('ChunkIndex.fromPacked: the file has no sign codes for a sign-bit index');
      parts.readCodes(index.#signs.codes);
    }
    if ('reader' in parts.rows) {
      if (index.layout !== 'rows' || !index.#signs)
        throw new Error('ChunkIndex.fromPacked: rows in a file need dense rows with sign bits');
      index.#reader = parts.rows.reader;
      index.#quantized = parts.rows.quantized;
    } else if (index.#rows) parts.rows.readRows(index.#rows);
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
    const { layout, scan = 'auto' } = options;
    const texts = tree.chunks.map((chunk) => chunk.text);
    const count = texts.length;
    // The layout from up to 256 evenly spaced chunks, embedded first; then the rest, a batch at a
    // time, packed as they come: no array of a vector per chunk is ever held.
    const step = Math.max(1, Math.floor(count / DENSE_SAMPLES));
    const samplePositions: number[] = [];
    for (let row = 0; row < count; row += step) samplePositions.push(row);
    const sample = count
      ? await embedTexts(
          embedder,
          samplePositions.map((row) => texts[row]!),
          cache,
        )
      : [];
    const dimensions = sample[0]?.length ?? embedder.dimensions ?? 0;
    const denseFlags =
      layout === 'rows'
        ? new Array<boolean>(dimensions).fill(true)
        : layout === 'columns'
          ? new Array<boolean>(dimensions).fill(false)
          : denseDimensionFlags(sample, dimensions);
    const dense: number[] = [];
    const sparse: number[] = [];
    denseFlags.forEach((isDense, j) => {
      (isDense ? dense : sparse).push(j);
    });
    const index = new ChunkIndex(tree, dimensions, Int32Array.from(dense), Int32Array.from(sparse), scan);
    sample.forEach((vector, k) => {
      index.#fill(samplePositions[k]!, vector);
    });
    for (let start = 0; start < count; start += BUILD_BATCH) {
      const rows: number[] = [];
      for (let row = start; row < Math.min(count, start + BUILD_BATCH); row++)
        if (row % step !== 0) rows.push(row);
      if (!rows.length) continue;
      const vectors = await embedTexts(
        embedder,
        rows.map((row) => texts[row]!),
        cache,
      );
      vectors.forEach((vector, k) => {
        if (vector.length !== dimensions)
          throw new TreeAgentError(
            'EMBEDDER',
            `Embedder "${embedder.id}" returned vectors of different lengths (${dimensions} and ${vector.length}).`,
          );
        index.#fill(rows[k]!, vector);
      });
    }
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
    const count = this.tree.chunks.length;
    if (into && into.length !== count)
      throw new Error(`ChunkIndex.similarities: into has ${into.length} slots, the index ${count} chunks`);
    const out = into ? into.fill(0) : new Float32Array(count);
    const whole = from === 0 && to === count;
    if (direction.length !== this.dimensions) return out;
    const dense = this.denseDimensions;
    if (dense.length) {
      // All dense: the direction as is; mixed: its dense coordinates gathered.
      let denseDirection = direction;
      if (this.layout === 'mixed') {
        denseDirection = this.#denseDirection;
        for (let k = 0; k < dense.length; k++) denseDirection[k] = direction[dense[k]!]!;
      }
      if (this.#reader) this.#fileRange(denseDirection, from, to, out.subarray(from, to));
      else if (this.#kernel && whole) this.#kernel.dots(denseDirection, out);
      // A range (threshold calibration at load): the same kernel on those rows, the same values.
      else if (this.#kernel) this.#kernel.dotsRange(denseDirection, from, to, out.subarray(from, to));
      else
        rowSimilarities(
          this.rows.subarray(from * this.stride),
          this.stride,
          dense.length,
          denseDirection,
          out.subarray(from, to),
        );
    }
    if (this.sparseDimensions.length) {
      const slots: number[] = [];
      const weights: number[] = [];
      for (let j = 0; j < this.dimensions; j++) {
        const slot = this.#sparseSlot[j]!;
        if (slot >= 0 && direction[j] !== 0) {
          slots.push(slot);
          weights.push(direction[j]!);
        }
      }
      columnSimilarities(this.columns, count, slots, weights, out, from, to);
    }
    return out;
  }

  /**
   * Similarity of a unit `direction` to the chunks at positions `[from, to)`, into
   * `out[0..to - from)`: for dense rows scored by the WebAssembly kernel, bit for bit the values
   * `similarities` gives them.
   */
  similaritiesRange(direction: Float32Array, from: number, to: number, out: Float32Array): void {
    if (this.#kernel && this.layout === 'rows' && direction.length === this.dimensions) {
      if (this.#reader) this.#fileRange(direction, from, to, out);
      else this.#kernel.dotsRange(direction, from, to, out);
      return;
    }
    out.set(this.similarities(direction, from, to).subarray(from, to));
  }

  /** The unit vector of the chunk at `position` (a copy). */
  vector(position: number): Float32Array {
    const count = this.tree.chunks.length;
    const out = new Float32Array(this.dimensions);
    let rows = this.#rows;
    let base = position * this.stride;
    if (!rows) {
      const kernel = this.#kernel!;
      this.#reader!.read(
        new Uint8Array(kernel.rows.buffer, kernel.rows.byteOffset, this.stride * 4),
        position,
        1,
      );
      rows = kernel.rows;
      base = 0;
    }
    this.denseDimensions.forEach((j, k) => {
      out[j] = rows[base + k]!;
    });
    this.sparseDimensions.forEach((j, slot) => {
      out[j] = this.columns[slot * count + position]!;
    });
    return out;
  }

  /** Position of a chunk id in the tree's chunk order, or `undefined`. */
  positionOf(id: ChunkId): number | undefined {
    if (!this.#positionById)
      this.#positionById = new Map(this.tree.chunks.map((chunk, position) => [chunkKey(chunk.id), position]));
    return this.#positionById.get(chunkKey(id));
  }
}

/** Stops the worker thread of an index's sign-bit pass when the index is collected (an agent dropped). */
const stopWhenCollected = new FinalizationRegistry<SignKernel>((signs) => signs.close());

/** Sets bit `k` of `codes` (from byte `at`) for each `values[from + k] > 0`, `k < length`. */
function packSigns(values: Float32Array, from: number, length: number, codes: Uint8Array, at: number): void {
  for (let k = 0; k < length; k += 8) {
    let byte = 0;
    const end = Math.min(8, length - k);
    for (let b = 0; b < end; b++) if (values[from + k + b]! > 0) byte |= 1 << b;
    codes[at + (k >> 3)] = byte;
  }
}

/** For each dimension, whether at least half the sampled vectors are non-zero there. */
function denseDimensionFlags(sample: ArrayLike<number>[], dimensions: number): boolean[] {
  const nonZero = new Int32Array(dimensions);
  if (!sample.length) return new Array<boolean>(dimensions).fill(false);
  for (const vector of sample) for (let j = 0; j < dimensions; j++) if (vector[j] !== 0) nonZero[j]!++;
  return Array.from(nonZero, (count) => count >= DENSE_FRACTION * sample.length);
}

/**
 * Dimension-major pass, added to `out` at rows `[from, to)`: column `slots[k]` weighted by
 * `weights[k]`, four columns per sweep over the output array.
 */
function columnSimilarities(
  columns: Float32Array,
  count: number,
  slots: readonly number[],
  weights: readonly number[],
  out: Float32Array,
  from: number,
  to: number,
): void {
  let k = 0;
  for (; k + 4 <= slots.length; k += 4) {
    const w0 = weights[k]!;
    const w1 = weights[k + 1]!;
    const w2 = weights[k + 2]!;
    const w3 = weights[k + 3]!;
    const b0 = slots[k]! * count;
    const b1 = slots[k + 1]! * count;
    const b2 = slots[k + 2]! * count;
    const b3 = slots[k + 3]! * count;
    for (let row = from; row < to; row++) {
      out[row]! +=
        w0 * columns[b0 + row]! + w1 * columns[b1 + row]! + w2 * columns[b2 + row]! + w3 * columns[b3 + row]!;
    }
  }
  for (; k < slots.length; k++) {
    const weight = weights[k]!;
    const base = slots[k]! * count;
    for (let row = from; row < to; row++) out[row]! += weight * columns[base + row]!;
  }
}

/** Row-major pass without WebAssembly: one dot product per row, four coordinates per step. */
function rowSimilarities(
  rows: Float32Array,
  stride: number,
  dimensions: number,
  direction: Float32Array,
  out: Float32Array,
): void {
  const count = out.length;
  const end4 = dimensions - (dimensions % 4);
  for (let row = 0, base = 0; row < count; row++, base += stride) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j < end4; j += 4) {
      s0 += rows[base + j]! * direction[j]!;
      s1 += rows[base + j + 1]! * direction[j + 1]!;
      s2 += rows[base + j + 2]! * direction[j + 2]!;
      s3 += rows[base + j + 3]! * direction[j + 3]!;
    }
    for (; j < dimensions; j++) s0 += rows[base + j]! * direction[j]!;
    out[row] = s0 + s1 + (s2 + s3);
  }
}

function chunkKey(id: ChunkId): string {
  return String(id);
}
