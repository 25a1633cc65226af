import { createRowKernel, type RowKernel } from '../dot-kernel.js';
import type { QuantizedRows } from '../quantized-rows.js';
import type { RowSource } from './row-source.js';

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
export const FILE_BLOCK_ROWS = 4096;

/**
 * Rows left in a packed index file, read a block at a time into WebAssembly memory and scored there
 * by the same SIMD kernel as rows in memory (so the same values bit for bit), with their int8 copies
 * (`quantized`) in memory to choose the few worth reading.
 */
export class FileRows implements RowSource {
  readonly count: number;
  readonly stride: number;
  readonly simd = true;
  readonly memory = null;
  readonly quantized: QuantizedRows;
  readonly #reader: RowReader;
  /** Its `rows` are the block the reads land in. */
  readonly #kernel: RowKernel;

  /**
   * `count` rows of `dimensions` floats read through `reader`, or `null` when the WebAssembly kernel
   * cannot run here (rows in a file are only scored by it).
   */
  static open(
    reader: RowReader,
    quantized: QuantizedRows,
    count: number,
    dimensions: number,
  ): FileRows | null {
    const kernel = createRowKernel(Math.min(count, FILE_BLOCK_ROWS), dimensions);
    return kernel ? new FileRows(reader, quantized, count, kernel) : null;
  }

  private constructor(reader: RowReader, quantized: QuantizedRows, count: number, kernel: RowKernel) {
    this.count = count;
    this.stride = kernel.stride;
    this.quantized = quantized;
    this.#reader = reader;
    this.#kernel = kernel;
  }

  get description(): string {
    return this.#reader.description;
  }

  dotsRange(direction: Float32Array, from: number, to: number, out: Float32Array): void {
    const kernel = this.#kernel;
    const bytes = new Uint8Array(kernel.rows.buffer, kernel.rows.byteOffset, kernel.rows.byteLength);
    for (let start = from; start < to; start += FILE_BLOCK_ROWS) {
      const rows = Math.min(FILE_BLOCK_ROWS, to - start);
      this.#reader.read(bytes, start, rows);
      kernel.dotsRange(direction, 0, rows, out.subarray(start - from, start - from + rows));
    }
  }

  /** Runs of consecutive positions are read in one call. */
  dotsAt(direction: Float32Array, positions: Int32Array, length: number, out: Float32Array): void {
    const kernel = this.#kernel;
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
        this.#reader.read(into, positions[k]!, run);
        filled += run;
        k += run;
      }
      kernel.dotsRange(direction, 0, filled, out.subarray(first, first + filled));
    }
  }

  row(position: number): Float32Array {
    const rows = this.#kernel.rows;
    this.#reader.read(new Uint8Array(rows.buffer, rows.byteOffset, this.stride * 4), position, 1);
    return rows.subarray(0, this.stride);
  }

  close(): void {
    this.#reader.close();
  }
}
