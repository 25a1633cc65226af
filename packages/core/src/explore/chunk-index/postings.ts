/**
 * Sparse columns as postings: column `c`'s non-zero rows (ascending) and values are
 * `[starts[c], starts[c + 1])` of `rows` and `values`. A hashed n-gram is in a few hundred of
 * 15,000 chunks: a pass over the postings reads those instead of every chunk. `partial` and
 * `touched` are a pass's scratch (a double per row, and the rows a group added to).
 *
 * Both the index's sparse block (`ChunkScan`) and lint's thresholds (`lintThresholds`, from the
 * rows it embedded) score through `addPostingProducts`, so their similarities are the same floats.
 */
export interface Postings {
  starts: Int32Array;
  rows: Int32Array;
  values: Float32Array;
  partial: Float64Array;
  touched: Int32Array;
}

/** Postings of `columnCount` dense columns of `count` rows each, column `c` at `columns[c * count ...]`. */
export function postingsOfColumns(columns: Float32Array, count: number, columnCount: number): Postings {
  const starts = new Int32Array(columnCount + 1);
  for (let column = 0; column < columnCount; column++) {
    const base = column * count;
    let n = 0;
    for (let row = 0; row < count; row++) if (columns[base + row] !== 0) n++;
    starts[column + 1] = starts[column]! + n;
  }
  const rows = new Int32Array(starts[columnCount]!);
  const values = new Float32Array(starts[columnCount]!);
  for (let column = 0, at = 0; column < columnCount; column++) {
    const base = column * count;
    for (let row = 0; row < count; row++) {
      const value = columns[base + row]!;
      if (value === 0) continue;
      rows[at] = row;
      values[at++] = value;
    }
  }
  return withScratch(count, starts, rows, values);
}

/**
 * Postings of compressed sparse rows (row `r`'s entries at `[rowStarts[r], rowStarts[r + 1])` of
 * `indices` and `entries`, indices ascending) with `columnCount` columns.
 */
export function postingsOfRows(
  rowStarts: ArrayLike<number>,
  indices: ArrayLike<number>,
  entries: ArrayLike<number>,
  count: number,
  columnCount: number,
): Postings {
  const starts = new Int32Array(columnCount + 1);
  for (let k = 0; k < indices.length; k++) starts[indices[k]! + 1]!++;
  for (let column = 0; column < columnCount; column++) starts[column + 1]! += starts[column]!;
  const fill = starts.slice(0, columnCount);
  const rows = new Int32Array(indices.length);
  const values = new Float32Array(indices.length);
  for (let row = 0; row < count; row++) {
    for (let k = rowStarts[row]!; k < rowStarts[row + 1]!; k++) {
      const at = fill[indices[k]!]!++;
      rows[at] = row;
      values[at] = entries[k]!;
    }
  }
  return withScratch(count, starts, rows, values);
}

function withScratch(count: number, starts: Int32Array, rows: Int32Array, values: Float32Array): Postings {
  // A row may be listed again in a group (see `addPostingProducts`), at most once per product.
  return { starts, rows, values, partial: new Float64Array(count), touched: new Int32Array(4 * count) };
}

/** The first posting of `[start, end)` at a row ≥ `row` (postings are in row order). */
function firstAt(rows: Int32Array, start: number, end: number, row: number): number {
  let low = start;
  let high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (rows[middle]! < row) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Adds to `out[from, to)` the products of a direction (`weights[k]` on column `columns[k]`) with
 * each row, as the index's column pass adds them, to the last bit: the columns in groups of four
 * whose products are added in double precision and then to the row's float, the rest one by one.
 * Products with a zero add nothing, so only the postings are visited.
 */
export function addPostingProducts(
  postings: Postings,
  columns: readonly number[],
  weights: readonly number[],
  out: Float32Array,
  from: number,
  to: number,
): void {
  const { starts, rows, values, partial, touched } = postings;
  const count = partial.length;
  const grouped = columns.length - (columns.length % 4);
  let size = 0;
  for (let k = 0; k < columns.length; k++) {
    const column = columns[k]!;
    const weight = weights[k]!;
    const start = from === 0 ? starts[column]! : firstAt(rows, starts[column]!, starts[column + 1]!, from);
    const end = to === count ? starts[column + 1]! : firstAt(rows, start, starts[column + 1]!, to);
    for (let p = start; p < end; p++) {
      const row = rows[p]!;
      // A row's first product in the group (a sum back to exactly zero is listed again: its later
      // flush adds zero).
      if (partial[row] === 0) touched[size++] = row;
      partial[row]! += weight * values[p]!;
    }
    // A group ends after every fourth column, then after each of the rest.
    if (k >= grouped || k % 4 === 3) {
      for (let t = 0; t < size; t++) {
        const row = touched[t]!;
        out[row]! += partial[row]!;
        partial[row] = 0;
      }
      size = 0;
    }
  }
}
