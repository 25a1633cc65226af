import { describe, expect, test } from 'vitest';
import { FILE_BLOCK_ROWS } from '../explore/chunk-index/file-rows.js';
import type { RowSource } from '../explore/chunk-index/row-source.js';
import { approximateRows } from '../explore/quantized-rows.js';
import { seededRandom } from './seeded-random.js';

/**
 * Makes a row source holding `rows` (`count × dimensions` floats, row-major, unpadded); the suite
 * closes it. May return a promise.
 */
export type RowSourceFactory = (
  rows: Float32Array,
  count: number,
  dimensions: number,
) => RowSource | Promise<RowSource>;

/** More rows than a file block, so that ranges and runs cross block boundaries. */
const COUNT = FILE_BLOCK_ROWS + 517;
const DIMENSIONS = 37;

/**
 * The contract every `RowSource` of a `ChunkIndex` keeps (`chunk-index/row-source.ts`), run against
 * each source by a test beside it: the dot products are the plain ones, and each row gets the same
 * value bit for bit whichever method scores it and whichever range or positions it is asked with —
 * what lets the scan score through the contract without asking where the rows live.
 */
export function describeRowSource(name: string, factory: RowSourceFactory): void {
  describe(`RowSource conformance: ${name}`, () => {
    const random = seededRandom(37);
    const rows = Float32Array.from({ length: COUNT * DIMENSIONS }, () => random() - 0.5);
    for (let row = 0; row < COUNT; row++) {
      const unit = rows.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS);
      const norm = Math.hypot(...unit);
      for (let j = 0; j < DIMENSIONS; j++) unit[j]! /= norm;
    }
    const direction = Float32Array.from({ length: DIMENSIONS }, () => random() - 0.5);
    const norm = Math.hypot(...direction);
    for (let j = 0; j < DIMENSIONS; j++) direction[j]! /= norm;
    const plainDot = (row: number) => {
      let dot = 0;
      for (let j = 0; j < DIMENSIONS; j++) dot += rows[row * DIMENSIONS + j]! * direction[j]!;
      return dot;
    };
    const withSource = async (use: (source: RowSource) => void) => {
      const source = await factory(rows, COUNT, DIMENSIONS);
      try {
        use(source);
      } finally {
        source.close();
      }
    };

    test('holds every row, padded with zeros to its stride', async () => {
      await withSource((source) => {
        expect(source.count).toBe(COUNT);
        expect(source.stride).toBeGreaterThanOrEqual(DIMENSIONS);
        for (const position of [0, 1, FILE_BLOCK_ROWS - 1, FILE_BLOCK_ROWS, COUNT - 1]) {
          const row = source.row(position);
          expect(row.length).toBe(source.stride);
          expect(Array.from(row.subarray(0, DIMENSIONS))).toEqual(
            Array.from(rows.subarray(position * DIMENSIONS, (position + 1) * DIMENSIONS)),
          );
          expect(row.subarray(DIMENSIONS).every((value) => value === 0)).toBe(true);
        }
        if (source.memory) expect(source.memory.length).toBe(COUNT * source.stride);
      });
    });

    test('dotsRange over every row gives the plain dot products', async () => {
      await withSource((source) => {
        const out = new Float32Array(COUNT);
        source.dotsRange(direction, 0, COUNT, out);
        let worst = 0;
        for (let row = 0; row < COUNT; row++) worst = Math.max(worst, Math.abs(out[row]! - plainDot(row)));
        expect(worst).toBeLessThan(1e-5);
      });
    });

    test('any range, and any positions, give each row the value of the whole pass, bit for bit', async () => {
      await withSource((source) => {
        const whole = new Float32Array(COUNT);
        source.dotsRange(direction, 0, COUNT, whole);
        for (const [from, to] of [
          [0, 1],
          [5, 5],
          [FILE_BLOCK_ROWS - 3, FILE_BLOCK_ROWS + 4],
          [17, COUNT],
        ] as const) {
          const out = new Float32Array(to - from);
          source.dotsRange(direction, from, to, out);
          expect(Array.from(out)).toEqual(Array.from(whole.subarray(from, to)));
        }
        // Ascending, with gaps and runs, one of them across a block boundary.
        const picked = [0, 2, 3, 4, 9, FILE_BLOCK_ROWS - 2, FILE_BLOCK_ROWS - 1, FILE_BLOCK_ROWS, COUNT - 1];
        const positions = Int32Array.from(picked);
        const out = new Float32Array(picked.length);
        source.dotsAt(direction, positions, picked.length, out);
        expect(Array.from(out)).toEqual(picked.map((position) => whole[position]!));
        // Every row at once: more rows than a block.
        const all = Int32Array.from({ length: COUNT }, (_, position) => position);
        const allOut = new Float32Array(COUNT);
        source.dotsAt(direction, all, COUNT, allOut);
        expect(Array.from(allOut)).toEqual(Array.from(whole));
      });
    });

    test('int8 rows, when it keeps them, bound every exact value', async () => {
      await withSource((source) => {
        if (!source.quantized) {
          expect(source.memory).not.toBeNull();
          return;
        }
        const whole = new Float32Array(COUNT);
        source.dotsRange(direction, 0, COUNT, whole);
        const positions = Int32Array.from({ length: COUNT }, (_, position) => position);
        const approximate = new Float64Array(COUNT);
        const bounds = new Float64Array(COUNT);
        approximateRows(source.quantized, direction, DIMENSIONS, positions, COUNT, approximate, bounds);
        const outside: number[] = [];
        for (let row = 0; row < COUNT; row++)
          if (Math.abs(whole[row]! - approximate[row]!) > bounds[row]!) outside.push(row);
        expect(outside).toEqual([]);
      });
    });
  });
}

/** `rows` (`count × dimensions`) copied into rows of `stride` floats, zero-padded. */
export function paddedRows(
  rows: Float32Array,
  count: number,
  dimensions: number,
  stride: number,
): Float32Array {
  const padded = new Float32Array(count * stride);
  for (let row = 0; row < count; row++)
    padded.set(rows.subarray(row * dimensions, (row + 1) * dimensions), row * stride);
  return padded;
}
