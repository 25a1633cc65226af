import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DataType, PreTrainedModel, PreTrainedTokenizer, Tensor } from '@huggingface/transformers';
import { TreeAgentError } from '@treeagent/core';
import { type Embedder, type EmbedOptions, normalize } from '@treeagent/core/adapter';

/** Weight precisions transformers.js can load; each one reads its own ONNX file (see `onnxFileFor`). */
export type TransformersDtype = Exclude<DataType, 'auto'>;

export interface TransformersEmbedderOptions {
  /**
   * Folder of a model exported for transformers.js feature extraction: `config.json`,
   * `tokenizer.json`, `tokenizer_config.json` and `onnx/model.onnx` (or the file of `dtype`).
   * Relative paths are resolved against the working directory. Never downloaded.
   */
  modelPath: string;
  /** How token vectors become one text vector: their mean (default) or the first (`[CLS]`) token's. */
  pooling?: 'mean' | 'cls';
  /** Scale vectors to unit length. Default true. */
  normalize?: boolean;
  /** Texts per model call; bounds memory (and padding) on large trees. Default 32. */
  batchSize?: number;
  /** Which ONNX file to run: `fp32` → `onnx/model.onnx` (default), `q8` → `onnx/model_quantized.onnx`, … */
  dtype?: TransformersDtype;
  /** Shorthand for `dtype: 'q8'` (`onnx/model_quantized.onnx`). */
  quantized?: boolean;
  /** Overrides the cache key. Default `transformers:<folder name>:<dtype>:<pooling>[:normalized]`. */
  id?: string;
}

/** File-name suffix of each dtype, as transformers.js 4 names the exports (`model${suffix}.onnx`). */
const DTYPE_SUFFIX: Record<TransformersDtype, string> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  bnb4: '_bnb4',
  q4f16: '_q4f16',
  q2: '_q2',
  q2f16: '_q2f16',
  q1: '_q1',
  q1f16: '_q1f16',
};

/** The ONNX file, relative to the model folder, that transformers.js loads for `dtype`. */
export function onnxFileFor(dtype: TransformersDtype): string {
  return `onnx/model${DTYPE_SUFFIX[dtype]}.onnx`;
}

interface Loaded {
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  /** Longest input the model accepts (`max_position_embeddings`), when the config says. */
  maxLength: number | null;
}

/**
 * A transformers.js feature-extraction model, loaded from a local folder, as a Tree Agent
 * embedder. The model loads on the first `embed` (or `load`) call; nothing is ever fetched from
 * the Hugging Face hub: loading sets `env.allowRemoteModels = false` and `local_files_only`.
 *
 * @example
 * const embedder = new TransformersEmbedder({ modelPath: './models/paraphrase-multilingual-MiniLM-L12-v2' });
 * const agent = new TreeAgent({ tree, embedder });
 */
export class TransformersEmbedder implements Embedder {
  readonly id: string;
  /** Absolute path of the model folder. */
  readonly modelPath: string;
  readonly #pooling: 'mean' | 'cls';
  readonly #normalize: boolean;
  readonly #batchSize: number;
  readonly #dtype: TransformersDtype;
  #dimensions: number | undefined;
  #loaded: Promise<Loaded> | null = null;

  constructor(options: TransformersEmbedderOptions) {
    if (typeof options?.modelPath !== 'string' || !options.modelPath.trim()) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        'TransformersEmbedder: modelPath must name a local model folder.',
      );
    }
    const pooling = options.pooling ?? 'mean';
    if (pooling !== 'mean' && pooling !== 'cls') {
      throw new TreeAgentError('INVALID_INPUT', `TransformersEmbedder: pooling must be 'mean' or 'cls'.`, {
        details: { pooling },
      });
    }
    const batchSize = options.batchSize ?? 32;
    if (!Number.isInteger(batchSize) || batchSize < 1) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        'TransformersEmbedder: batchSize must be a positive integer.',
        {
          details: { batchSize },
        },
      );
    }
    const dtype = options.dtype ?? (options.quantized ? 'q8' : 'fp32');
    if (!Object.hasOwn(DTYPE_SUFFIX, dtype)) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `TransformersEmbedder: dtype must be one of ${Object.keys(DTYPE_SUFFIX).join(', ')}.`,
        { details: { dtype } },
      );
    }
    if (
      options.quantized !== undefined &&
      options.dtype !== undefined &&
      options.quantized !== (dtype === 'q8')
    ) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        `TransformersEmbedder: quantized: ${options.quantized} contradicts dtype '${dtype}'; pass only one.`,
        { details: { quantized: options.quantized, dtype } },
      );
    }
    this.modelPath = path.resolve(options.modelPath);
    this.#pooling = pooling;
    this.#normalize = options.normalize ?? true;
    this.#batchSize = batchSize;
    this.#dtype = dtype;
    this.id =
      options.id ??
      `transformers:${path.basename(this.modelPath)}:${dtype}:${pooling}${this.#normalize ? ':normalized' : ''}`;
  }

  /** Length of the vectors: unknown until the model has loaded, then the model's output width. */
  get dimensions(): number | undefined {
    return this.#dimensions;
  }

  /** Loads the model now (it otherwise loads on the first `embed`), to fail fast at startup. */
  async load(): Promise<void> {
    await this.#load();
  }

  async embed(texts: readonly string[], options: EmbedOptions = {}): Promise<Float32Array[]> {
    options.signal?.throwIfAborted();
    if (!texts.length) return [];
    const loaded = await this.#load();
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.#batchSize) {
      options.signal?.throwIfAborted();
      out.push(...(await this.#embedBatch(loaded, texts.slice(start, start + this.#batchSize))));
    }
    return out;
  }

  /** Releases the ONNX session; the next `embed` loads the model again. */
  async dispose(): Promise<void> {
    const loaded = this.#loaded;
    this.#loaded = null;
    if (loaded) await (await loaded.catch(() => null))?.model.dispose();
  }

  async #embedBatch(
    { tokenizer, model, maxLength }: Loaded,
    texts: readonly string[],
  ): Promise<Float32Array[]> {
    const inputs = tokenizer([...texts], { padding: true, truncation: true, max_length: maxLength });
    const outputs = await model(inputs);
    const hidden: Tensor | undefined = outputs.last_hidden_state ?? outputs.token_embeddings;
    if (hidden?.dims.length !== 3) {
      throw new TreeAgentError(
        'EMBEDDER',
        `TransformersEmbedder: the model in "${this.modelPath}" returned no last_hidden_state [batch, tokens, hidden]; is it exported for feature extraction?`,
        { details: { modelPath: this.modelPath, outputs: Object.keys(outputs) } },
      );
    }
    // float16 outputs arrive as raw Uint16Array bits on Node; pool in float32.
    const data = hidden.to('float32').data as Float32Array;
    const mask = inputs.attention_mask.data as BigInt64Array;
    const [rows, tokens, width] = hidden.dims as [number, number, number];
    const vectors: Float32Array[] = [];
    for (let row = 0; row < rows; row++) {
      const vector = new Float32Array(width);
      if (this.#pooling === 'cls') {
        vector.set(data.subarray(row * tokens * width, row * tokens * width + width));
      } else {
        let count = 0;
        for (let token = 0; token < tokens; token++) {
          if (!mask[row * tokens + token]) continue;
          count++;
          const offset = (row * tokens + token) * width;
          for (let i = 0; i < width; i++) vector[i]! += data[offset + i]!;
        }
        if (count) for (let i = 0; i < width; i++) vector[i]! /= count;
      }
      vectors.push(this.#normalize ? normalize(vector) : vector);
    }
    this.#dimensions = width;
    return vectors;
  }

  #load(): Promise<Loaded> {
    this.#loaded ??= this.#open().catch((error: unknown) => {
      this.#loaded = null;
      throw error;
    });
    return this.#loaded;
  }

  async #open(): Promise<Loaded> {
    const config = await this.#checkFolder();
    try {
      const { AutoModel, AutoTokenizer, env } = await import('@huggingface/transformers');
      // Local folders only: the path is absolute, so transformers.js never treats it as a hub id
      // (nor joins it to env.localModelPath), and these two settings forbid any download.
      env.allowLocalModels = true;
      env.allowRemoteModels = false;
      const options = { local_files_only: true } as const;
      const [tokenizer, model] = await Promise.all([
        AutoTokenizer.from_pretrained(this.modelPath, options),
        AutoModel.from_pretrained(this.modelPath, { ...options, dtype: this.#dtype, device: 'cpu' }),
      ]);
      const maxPositions = config.max_position_embeddings;
      const hidden = config.hidden_size ?? config.d_model ?? config.dim;
      if (typeof hidden === 'number') this.#dimensions ??= hidden;
      return { tokenizer, model, maxLength: typeof maxPositions === 'number' ? maxPositions : null };
    } catch (error) {
      throw new TreeAgentError(
        'EMBEDDER',
        `TransformersEmbedder: cannot load the model in "${this.modelPath}" (${onnxFileFor(this.#dtype)}): ${(error as Error)?.message ?? error}`,
        { cause: error, details: { modelPath: this.modelPath, dtype: this.#dtype } },
      );
    }
  }

  /**
   * Checks the folder holds every file transformers.js will ask for, so a wrong path fails with the
   * list of what is missing rather than a loader error. Returns the parsed `config.json`.
   */
  async #checkFolder(): Promise<Record<string, unknown>> {
    const folder = this.modelPath;
    const expected = ['config.json', 'tokenizer.json', 'tokenizer_config.json', onnxFileFor(this.#dtype)];
    const layout = `A model folder needs ${expected.join(', ')} (a transformers.js feature-extraction export).`;
    const isDirectory = await stat(folder).then(
      (info) => info.isDirectory(),
      () => null,
    );
    if (!isDirectory) {
      throw new TreeAgentError(
        'EMBEDDER',
        `TransformersEmbedder: the model folder "${folder}" ${isDirectory === null ? 'does not exist' : 'is not a folder'}. ${layout}`,
        { details: { modelPath: folder, missing: expected } },
      );
    }
    const present = await Promise.all(
      expected.map((file) =>
        stat(path.join(folder, file)).then(
          (info) => info.isFile(),
          () => false,
        ),
      ),
    );
    const missing = expected.filter((_, index) => !present[index]);
    if (missing.length) {
      const onnxFiles = await readdir(path.join(folder, 'onnx')).then(
        (names) => names.filter((name) => name.endsWith('.onnx')),
        () => [],
      );
      const hint =
        missing.includes(onnxFileFor(this.#dtype)) && onnxFiles.length
          ? ` The onnx folder has ${onnxFiles.join(', ')}; choose the matching dtype (${describeDtypes(onnxFiles)}).`
          : '';
      throw new TreeAgentError(
        'EMBEDDER',
        `TransformersEmbedder: "${folder}" is not a usable model folder: missing ${missing.join(', ')}. ${layout}${hint}`,
        { details: { modelPath: folder, missing, onnxFiles } },
      );
    }
    try {
      const config: unknown = JSON.parse(await readFile(path.join(folder, 'config.json'), 'utf8'));
      if (typeof config !== 'object' || config === null || typeof (config as any).model_type !== 'string') {
        throw new Error('it has no "model_type"');
      }
      return config as Record<string, unknown>;
    } catch (error) {
      throw new TreeAgentError(
        'EMBEDDER',
        `TransformersEmbedder: "${path.join(folder, 'config.json')}" is not a usable model config: ${(error as Error).message}`,
        { cause: error, details: { modelPath: folder } },
      );
    }
  }
}

function describeDtypes(onnxFiles: readonly string[]): string {
  const known = Object.entries(DTYPE_SUFFIX).filter(([dtype]) =>
    onnxFiles.includes(path.basename(onnxFileFor(dtype as TransformersDtype))),
  );
  return known.length
    ? known.map(([dtype]) => `dtype: '${dtype}'`).join(' or ')
    : 'none of them follows the model<suffix>.onnx naming';
}
