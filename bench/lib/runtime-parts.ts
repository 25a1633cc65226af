import type { Embedder } from '../../packages/core/src/adapter/index.js';
import type { RuntimeParts } from '../../packages/core/src/engine/runtime/load-runtime.js';
import { InMemoryFileStore, InMemoryVectorStore, type Tree } from '../../packages/core/src/index.js';
import { NullEmbeddingCache } from './vectors.js';

/**
 * What the exploration benchmarks load a tree with (`loadRuntime`): in memory, no model, no callback
 * or model time limit, no embedding cache unless one is given; `parts` sets the scan, the
 * calibration and whatever else the benchmark compares.
 */
export function benchRuntimeParts(
  routing: { tree: Tree; embedder: Embedder },
  parts: Pick<RuntimeParts, 'calibration'> & Partial<RuntimeParts>,
): RuntimeParts {
  return {
    tree: routing.tree,
    embedder: routing.embedder,
    embeddingCache: new NullEmbeddingCache(),
    vectorStore: new InMemoryVectorStore(),
    fileStore: new InMemoryFileStore(),
    models: {},
    limits: { maxSteps: 50, maxFallbacks: 3, callbackTimeoutMs: 0, modelTimeoutMs: 0 },
    now: () => new Date(),
    exploreIn: 'memory',
    ...parts,
  };
}
