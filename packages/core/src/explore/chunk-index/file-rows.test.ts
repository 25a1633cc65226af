import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { cleanupsAfterEach } from '../../test-support/cleanups-after-each.js';
import { describeRowSource, paddedRows } from '../../test-support/row-source-suite.js';
import { allocateQuantizedRows, quantizeRows } from '../quantized-rows.js';
import { FileRows, type RowReader } from './file-rows.js';

const cleanups = cleanupsAfterEach();

/** The rows written, padded, to a real file, with a reader over it that counts its reads. */
function rowFile(rows: Float32Array, count: number, dimensions: number) {
  const stride = Math.ceil(dimensions / 16) * 16;
  const padded = paddedRows(rows, count, dimensions, stride);
  const directory = mkdtempSync(join(tmpdir(), 'treeagent-file-rows-'));
  cleanups.push(() => rmSync(directory, { recursive: true, force: true }));
  const file = join(directory, 'rows.f32');
  writeFileSync(file, new Uint8Array(padded.buffer));
  const fd = openSync(file, 'r');
  let open = true;
  const reads: number[] = [];
  const reader: RowReader = {
    description: file,
    read(into, from, rows) {
      reads.push(rows);
      const bytes = rows * stride * 4;
      let done = 0;
      while (done < bytes) done += readSync(fd, into, done, bytes - done, from * stride * 4 + done);
    },
    close() {
      if (open) closeSync(fd);
      open = false;
    },
  };
  const quantized = allocateQuantizedRows(count, stride);
  quantizeRows(padded, stride, 0, count, quantized);
  return { reader, quantized, stride, reads };
}

describeRowSource('FileRows (a real file, int8 rows in memory)', (rows, count, dimensions) => {
  const { reader, quantized } = rowFile(rows, count, dimensions);
  const source = FileRows.open(reader, quantized, count, dimensions);
  if (!source) throw new Error('FileRows needs the WebAssembly SIMD kernel, which this Node cannot run');
  return source;
});

test('FileRows reads a run of consecutive positions in one call, and nothing is in memory', () => {
  const count = 64;
  const dimensions = 20;
  const rows = Float32Array.from({ length: count * dimensions }, (_, k) => ((k * 7) % 11) - 5);
  const { reader, quantized, stride, reads } = rowFile(rows, count, dimensions);
  const source = FileRows.open(reader, quantized, count, dimensions)!;
  cleanups.push(() => source.close());
  expect([source.stride, source.memory, source.description]).toEqual([stride, null, reader.description]);
  const direction = Float32Array.from({ length: dimensions }, (_, j) => (j === 2 ? 1 : 0));
  const out = new Float32Array(5);
  source.dotsAt(direction, Int32Array.from([3, 4, 5, 10, 11]), 5, out);
  expect(reads).toEqual([3, 2]);
  expect(Array.from(out)).toEqual([3, 4, 5, 10, 11].map((row) => rows[row * dimensions + 2]!));
});
