import type { AgentRuntime } from './runtime.js';

/**
 * Bytes a chunk holds in a loaded runtime besides its text: its object, id and `extra`, and its
 * share of the tree's and the index's bookkeeping (measured by bench/loaded-version-memory.ts).
 */
export const CHUNK_OVERHEAD_BYTES = 400;

/**
 * An estimate of the memory a loaded runtime holds: the chunk index's arrays (float32 rows while
 * they are in memory, sparse columns, sign codes, int8 rows) and the chunks' texts with their
 * overhead. What `maxLoadedTreeBytes` bounds; docs/versions.md compares it with measured heap deltas.
 */
export function runtimeBytes(runtime: Pick<AgentRuntime, 'tree' | 'chunkIndex'>): number {
  let bytes = 0;
  const index = runtime.chunkIndex;
  if (index) {
    if (index.rowsInMemory) bytes += index.rows.byteLength;
    bytes += index.columns.byteLength + (index.signCodes?.byteLength ?? 0);
    const quantized = index.quantized;
    if (quantized)
      bytes += quantized.values.byteLength + quantized.scales.byteLength + quantized.residuals.byteLength;
  }
  for (const chunk of runtime.tree.chunks) bytes += 2 * chunk.text.length + CHUNK_OVERHEAD_BYTES;
  return bytes;
}
