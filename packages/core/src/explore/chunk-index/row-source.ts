import type { QuantizedRows } from '../quantized-rows.js';

/**
 * Where the float32 rows of a `ChunkIndex`'s dense dimensions live, and how they are scored: in
 * memory (`MemoryRows`) or in a packed index file with int8 copies in memory (`FileRows`). The scan
 * (`ChunkScan`) scores through this contract only, so it never asks where the rows are. Every
 * source gives a row the same value bit for bit whichever method scores it (`row-source.test.ts`
 * runs one suite against each).
 */
export interface RowSource {
  /** Rows (chunks) held. */
  readonly count: number;
  /** Floats per row: the dense dimensions, zero-padded for the WebAssembly kernel. */
  readonly stride: number;
  /** Whether the rows are scored by the WebAssembly SIMD kernel (`dot-kernel.ts`). */
  readonly simd: boolean;
  /** The `count × stride` rows, row-major, while they are in memory; `null` when they are in a file. */
  readonly memory: Float32Array | null;
  /** Int8 copies of the rows, kept while the float32 ones are in a file (they choose which rows to read); else `null`. */
  readonly quantized: QuantizedRows | null;
  /** Where the rows are, for messages (`memory`, or a file path). */
  readonly description: string;
  /** Dot products of `direction` (its first `stride` coordinates at most) with rows `[from, to)`, into `out[0..to - from)`. */
  dotsRange(direction: Float32Array, from: number, to: number, out: Float32Array): void;
  /** Dot products of `direction` with the rows at `positions[0..length)`, into `out[0..length)`: the values `dotsRange` gives them. */
  dotsAt(direction: Float32Array, positions: Int32Array, length: number, out: Float32Array): void;
  /** The row at `position` (`stride` floats): a view, valid until the next call on this source. */
  row(position: number): Float32Array;
  /** Releases what the source holds open (a file); idempotent. */
  close(): void;
}
