import type { RowSource } from './row-source.js';

/** `rows`: every dimension dense; `columns`: every dimension sparse; `mixed`: some of each. */
export type ChunkLayout = 'columns' | 'rows' | 'mixed';

/**
 * Where a `ChunkIndex` keeps the unit vector of every chunk, split by dimension into two blocks.
 * Dense dimensions (most chunks non-zero there: a neural embedding, a fitted projection) are rows
 * (`RowSource`: in memory, or in a packed index file), one per chunk. Sparse dimensions (such as the
 * hashed n-grams) are columns: column `slot` holds that coordinate of every chunk, in the tree's
 * depth-first chunk order. A vector that concatenates both kinds uses both blocks.
 */
export class ChunkStorage {
  readonly count: number;
  readonly dimensions: number;
  readonly layout: ChunkLayout;
  /** The dense dimensions, ascending. */
  readonly denseDimensions: Int32Array;
  /** The sparse dimensions, ascending. */
  readonly sparseDimensions: Int32Array;
  /** `sparseDimensions.length × count` coordinates, dimension-major. */
  readonly columns: Float32Array;
  #rows: RowSource;
  #version = 0;

  constructor(parts: {
    count: number;
    dimensions: number;
    denseDimensions: Int32Array;
    sparseDimensions: Int32Array;
    rows: RowSource;
    /** The sparse block as stored; zeros when omitted. */
    columns?: Float32Array;
  }) {
    const { count, denseDimensions: dense, sparseDimensions: sparse } = parts;
    this.count = count;
    this.dimensions = parts.dimensions;
    this.denseDimensions = dense;
    this.sparseDimensions = sparse;
    this.layout = sparse.length === 0 ? 'rows' : dense.length === 0 ? 'columns' : 'mixed';
    this.columns = parts.columns ?? new Float32Array(count * sparse.length);
    this.#rows = parts.rows;
  }

  /** The dense block: where its rows live now. */
  get rows(): RowSource {
    return this.#rows;
  }

  /** Floats per row of the dense block. */
  get stride(): number {
    return this.#rows.stride;
  }

  /** Replaces the dense block's source by one holding the same rows (`ChunkIndex.useRowFile`). */
  moveRows(rows: RowSource): void {
    this.#rows = rows;
  }

  /** Counts the changes of the sparse block (`fill`), so that what is derived from it knows when it is stale. */
  get version(): number {
    return this.#version;
  }

  /** Stores the unit vector of the chunk at `row`: its dense coordinates and its sparse ones (rows in memory only). */
  fill(row: number, vector: ArrayLike<number>): void {
    this.#version++;
    const dense = this.denseDimensions;
    const sparse = this.sparseDimensions;
    const memory = this.#rows.memory!;
    const base = row * this.#rows.stride;
    for (let k = 0; k < dense.length; k++) memory[base + k] = vector[dense[k]!]!;
    for (let slot = 0; slot < sparse.length; slot++)
      this.columns[slot * this.count + row] = vector[sparse[slot]!]!;
  }

  /** The unit vector of the chunk at `position` (a copy). */
  vector(position: number): Float32Array {
    const out = new Float32Array(this.dimensions);
    const row = this.#rows.row(position);
    this.denseDimensions.forEach((j, k) => {
      out[j] = row[k]!;
    });
    this.sparseDimensions.forEach((j, slot) => {
      out[j] = this.columns[slot * this.count + position]!;
    });
    return out;
  }
}
