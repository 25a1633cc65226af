/**
 * What computes USE-lite (`UseEmbedderOptions.runtime`):
 * - `'auto'` (default): ONNX Runtime, or TensorFlow.js where ONNX Runtime cannot run (no
 *   `onnxruntime-node` build for the platform, the optional dependency not installed), with a
 *   process warning that says why;
 * - `'onnx'`: ONNX Runtime only — its graph translated to ONNX when it loads, run by native kernels;
 * - `'tfjs'`: the TensorFlow.js graph on its WebAssembly backend, as earlier versions did.
 * Same weights and tokenizer: the vectors agree within float rounding (about 1e-6), so the embedder's
 * id, its cached vectors and the fits made over them are the same on every runtime.
 */
export type UseRuntime = 'auto' | 'onnx' | 'tfjs';

/** USE-lite loaded on a runtime. */
export interface UseModel {
  /** The runtime it computes on (`'auto'` resolved). */
  runtime: 'onnx' | 'tfjs';
  /** One model call on non-empty texts: `texts.length` rows of 512 floats, row after row. */
  embed(texts: readonly string[]): Promise<Float32Array>;
  /** Frees the model's memory (ONNX Runtime's session); the model is of no use afterwards. */
  release(): Promise<void>;
}
