import { InferenceSession, Tensor } from 'onnxruntime-node';
import type { Embedder } from '../../../packages/core/src/adapter/index.js';
import {
  loadUseTokenizer,
  tokenInputs,
  useModelDirectory,
  useOnnxModelBytes,
} from '../../../packages/embedder-use/src/onnx/use-onnx-model.js';

/**
 * An experiment (issue #43, goal 2): USE-lite's final token states max-pooled over each text's
 * tokens, a second view of the same forward pass beside USE-lite's own (mean-pooled, tanh) vector.
 * The ONNX graph of `@treeagent/embedder-use` with two more outputs: the last layer's token states
 * and the sequence mask. Calling thread, one model call per batch of 64.
 */
const K = 'module_apply_default/Encoder_en/KonaTransformer';
const STATES = `${K}/Encode/TransformerStack/Layer_1/TransformerLayer/FFN/layer_postprocess/add:0`;
const MASK = `${K}/ToFloat:0`;

export class UseMaxPoolEmbedder implements Embedder {
  readonly id = 'use-lite-en-maxpool@exp1';
  readonly dimensions = 512;
  #session: Promise<{ run: (texts: string[]) => Promise<Float32Array[]> }> | null = null;

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.#session ??= this.#load();
    const { run } = await this.#session;
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += 64)
      out.push(...(await run(texts.slice(start, start + 64))));
    return out;
  }

  async #load() {
    const directory = useModelDirectory();
    const bytes = await useOnnxModelBytes(directory, [
      { name: STATES, type: 'float', dims: ['texts', 'length', 512] },
      { name: MASK, type: 'float', dims: ['texts', 'length'] },
    ]);
    const session = await InferenceSession.create(bytes, { intraOpNumThreads: 1, logSeverityLevel: 3 });
    const tokenizer = await loadUseTokenizer(directory);
    const run = async (texts: string[]) => {
      const tokens = texts.map((text) => (text.trim() ? tokenizer.encode(text) : []));
      const { count, indices, values } = tokenInputs(tokens);
      if (count === 0) return texts.map(() => new Float32Array(512));
      const result = await session.run({
        'indices:0': new Tensor('int64', indices, [count, 2]),
        'values:0': new Tensor('int64', values, [count]),
      });
      const states = result[STATES]!;
      const mask = result[MASK]!.data as Float32Array;
      const [rows, length] = states.dims as number[];
      const data = states.data as Float32Array;
      return texts.map((_, text) => {
        const out = new Float32Array(512).fill(text < rows! ? -Infinity : 0);
        let any = false;
        for (let position = 0; text < rows! && position < length!; position++) {
          if (mask[text * length! + position] !== 1) continue;
          any = true;
          const base = (text * length! + position) * 512;
          for (let d = 0; d < 512; d++) if (data[base + d]! > out[d]!) out[d] = data[base + d]!;
        }
        if (!any) out.fill(0);
        return out;
      });
    };
    return { run };
  }
}
