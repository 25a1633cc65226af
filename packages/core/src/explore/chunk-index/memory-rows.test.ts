import { describeRowSource, paddedRows } from '../../test-support/row-source-suite.js';
import { MemoryRows } from './memory-rows.js';

for (const simd of [true, false])
  describeRowSource(
    `MemoryRows (${simd ? 'WebAssembly SIMD kernel' : 'plain JavaScript'})`,
    (rows, count, dimensions) => {
      const source = new MemoryRows(count, dimensions, { simd });
      source.memory.set(paddedRows(rows, count, dimensions, source.stride));
      return source;
    },
  );
