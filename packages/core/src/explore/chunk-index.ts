import { embedTexts } from '../embedding/embed-texts.js';
import type { Embedder } from '../embedding/embedder.js';
import type { EmbeddingCache } from '../embedding/embedding-cache.js';
import type { ChunkId } from '../tree/chunk.js';
import type { Tree } from '../tree/tree.js';
import { createRowKernel, type RowKernel } from './dot-kernel.js';

/**
 * Dense embeddings (most coordinates non-zero, measured when the index is built) are stored row by
 * row in WebAssembly memory and scored by a SIMD kernel (`dot-kernel.ts`): one sequential read of
 * the matrix per direction, at about the speed of memory.
 */
const DENSE_FRACTION = 0.5;

/**
 * The vectors of every chunk of a tree, unit length, in one contiguous matrix. Sparse embeddings
 * (such as the hashed n-grams) are stored dimension by dimension (column `j` holds the `j`-th
 * coordinate of every chunk, in the tree's depth-first chunk order), so one pass reads only the
 * columns where the direction is not zero. Dense embeddings are stored row by row (zero-padded to a
 * multiple of 16 floats), scored with a WebAssembly SIMD dot product. Either way one pass gives the
 * similarity of a direction to every chunk; each exploration hop then reads only the resulting array.
 */
export class ChunkIndex {
  readonly tree: Tree;
  readonly dimensions: number;
  /** `columns`: dimension-major (sparse vectors); `rows`: row-major, `stride` floats per chunk (dense vectors). */
  readonly layout: 'columns' | 'rows';
  /** `dimensions × chunks` coordinates of the unit vectors, dimension-major (`columns` layout; empty otherwise). */
  readonly columns: Float32Array;
  /** `chunks × stride` coordinates, row-major (`rows` layout; empty otherwise). */
  readonly rows: Float32Array;
  readonly stride: number;
  readonly #kernel: RowKernel | null;
  readonly #positionById: Map<string, number>;

  private constructor(
    tree: Tree,
    dimensions: number,
    storage:
      | { layout: 'columns'; columns: Float32Array }
      | { layout: 'rows'; rows: Float32Array; stride: number; kernel: RowKernel | null },
  ) {
    this.tree = tree;
    this.dimensions = dimensions;
    this.layout = storage.layout;
    if (storage.layout === 'columns') {
      this.columns = storage.columns;
      this.rows = new Float32Array(0);
      this.stride = 0;
      this.#kernel = null;
    } else {
      this.columns = new Float32Array(0);
      this.rows = storage.rows;
      this.stride = storage.stride;
      this.#kernel = storage.kernel;
    }
    this.#positionById = new Map(tree.chunks.map((chunk, position) => [chunkKey(chunk.id), position]));
  }

  /**
   * Embeds the tree's chunks (through the cache) and packs them: row-major when the vectors are
   * dense, dimension-major when they are sparse. `layout` forces one (tests, benchmarks).
   */
  static async build(
    tree: Tree,
    embedder: Embedder,
    cache?: EmbeddingCache,
    layout?: 'columns' | 'rows',
  ): Promise<ChunkIndex> {
    const vectors = tree.chunks.length
      ? await embedTexts(
          embedder,
          tree.chunks.map((chunk) => chunk.text),
          cache,
        )
      : [];
    const dimensions = vectors[0]?.length ?? embedder.dimensions ?? 0;
    const count = vectors.length;
    if ((layout ?? (isDense(vectors, dimensions) ? 'rows' : 'columns')) === 'rows') {
      const kernel = createRowKernel(count, dimensions);
      const stride = kernel ? kernel.stride : dimensions;
      const rows = kernel ? kernel.rows : new Float32Array(count * stride);
      vectors.forEach((vector, row) => {
        const base = row * stride;
        for (let j = 0; j < dimensions; j++) rows[base + j] = vector[j]!;
      });
      return new ChunkIndex(tree, dimensions, { layout: 'rows', rows, stride, kernel });
    }
    const columns = new Float32Array(count * dimensions);
    vectors.forEach((vector, row) => {
      for (let j = 0; j < dimensions; j++) columns[j * count + row] = vector[j]!;
    });
    return new ChunkIndex(tree, dimensions, { layout: 'columns', columns });
  }

  /** Cosine similarity of a unit `direction` to every chunk, in chunk order. */
  similarities(direction: Float32Array): Float32Array {
    const count = this.tree.chunks.length;
    const out = new Float32Array(count);
    if (direction.length !== this.dimensions) return out;
    if (this.layout === 'rows') {
      if (this.#kernel) this.#kernel.dots(direction, out);
      else rowSimilarities(this.rows, this.stride, this.dimensions, direction, out);
      return out;
    }
    columnSimilarities(this.columns, this.dimensions, count, direction, out);
    return out;
  }

  /** The unit vector of the chunk at `position` (a copy). */
  vector(position: number): Float32Array {
    if (this.layout === 'rows') {
      const base = position * this.stride;
      return this.rows.slice(base, base + this.dimensions);
    }
    const count = this.tree.chunks.length;
    const out = new Float32Array(this.dimensions);
    for (let j = 0; j < this.dimensions; j++) out[j] = this.columns[j * count + position]!;
    return out;
  }

  /** Position of a chunk id in the tree's chunk order, or `undefined`. */
  positionOf(id: ChunkId): number | undefined {
    return this.#positionById.get(chunkKey(id));
  }
}

/** Whether at least half the coordinates are non-zero (sampled over up to 256 vectors). */
function isDense(vectors: ArrayLike<number>[], dimensions: number): boolean {
  if (!vectors.length || !dimensions) return false;
  const step = Math.max(1, Math.floor(vectors.length / 256));
  let nonZero = 0;
  let total = 0;
  for (let row = 0; row < vectors.length; row += step) {
    const vector = vectors[row]!;
    for (let j = 0; j < dimensions; j++) if (vector[j] !== 0) nonZero++;
    total += dimensions;
  }
  return nonZero >= DENSE_FRACTION * total;
}

/**
 * Dimension-major pass: the non-zero coordinates of the direction are taken four at a time, so each
 * sweep over the output array adds four columns.
 */
function columnSimilarities(
  columns: Float32Array,
  dimensions: number,
  count: number,
  direction: Float32Array,
  out: Float32Array,
): void {
  const used: number[] = [];
  for (let j = 0; j < dimensions; j++) if (direction[j] !== 0) used.push(j);
  let k = 0;
  for (; k + 4 <= used.length; k += 4) {
    const j0 = used[k]!;
    const j1 = used[k + 1]!;
    const j2 = used[k + 2]!;
    const j3 = used[k + 3]!;
    const w0 = direction[j0]!;
    const w1 = direction[j1]!;
    const w2 = direction[j2]!;
    const w3 = direction[j3]!;
    const b0 = j0 * count;
    const b1 = j1 * count;
    const b2 = j2 * count;
    const b3 = j3 * count;
    for (let row = 0; row < count; row++) {
      out[row]! +=
        w0 * columns[b0 + row]! + w1 * columns[b1 + row]! + w2 * columns[b2 + row]! + w3 * columns[b3 + row]!;
    }
  }
  for (; k < used.length; k++) {
    const j = used[k]!;
    const weight = direction[j]!;
    const base = j * count;
    for (let row = 0; row < count; row++) out[row]! += weight * columns[base + row]!;
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
