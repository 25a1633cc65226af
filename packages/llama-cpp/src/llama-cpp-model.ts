import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, resolve } from 'node:path';
import type { JsonSchema } from '@treeagent/core';
import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ModelToolCall,
  ModelUsage,
} from '@treeagent/core/adapter';
import {
  type ChatModelFunctions,
  type ChatWrapper,
  type GbnfJsonSchema,
  getLlama,
  type LLamaChatGenerateResponseOptions,
  type Llama,
  LlamaChat,
  type LlamaContext,
  type LlamaGrammar,
  type LlamaLogLevel,
  type LlamaModel,
} from 'node-llama-cpp';
import { toChatHistory } from './chat-history.js';
import { toGbnfJsonSchema } from './json-schema-grammar.js';

/** The `modelParams` the adapter maps to node-llama-cpp (others are dropped by the engine). */
export const LLAMA_CPP_PARAMS = [
  'temperature',
  'topP',
  'topK',
  'minP',
  'maxOutputTokens',
  'seed',
  'stopSequences',
  'presencePenalty',
  'frequencyPenalty',
  'repeatPenalty',
] as const;

export interface LlamaCppModelOptions {
  /** Path of the GGUF file (absolute, or relative to the working directory). */
  modelPath: string;
  /** Identifier in traces and errors. Default: `llama-cpp:<file name without .gguf>`. */
  id?: string;
  /**
   * Context size (tokens) of each sequence: prompt plus answer must fit. Default: as large as the
   * memory allows, up to the model's training context and at most 8192.
   */
  contextSize?: number;
  /** `false` (default): CPU only. `'auto'`: the best GPU backend node-llama-cpp finds (CUDA, Vulkan, Metal). */
  gpu?: false | 'auto';
  /** Layers offloaded to the GPU when `gpu` is `'auto'`. Default `'auto'`. */
  gpuLayers?: 'auto' | 'max' | number;
  /**
   * Requests generated in parallel (sequences of one context, each with its own `contextSize`);
   * further requests wait for a free sequence. Default 1.
   */
  sequences?: number;
  /** CPU threads. Default: the number of CPUs (`os.availableParallelism()`). */
  threads?: number;
  /** Chat template handling: `'auto'` (default) picks the wrapper matching the model's Jinja template. */
  chatWrapper?: 'auto' | ChatWrapper;
  /** Parameters applied to every request, under the request's own `modelParams` (e.g. `{ maxOutputTokens: 512 }`). */
  defaultParams?: Record<string, unknown>;
  /**
   * With `responseFormat`, also put the JSON schema in the system prompt (default `true`). The
   * grammar enforces the syntax either way; the schema in the prompt tells the model what to write.
   */
  schemaInPrompt?: boolean;
  /** llama.cpp log level. Default `'warn'`. */
  logLevel?: `${LlamaLogLevel}`;
  /**
   * A `Llama` instance (from `getLlama()`) to share between models. The model does not dispose it.
   * Without it, the model creates its own (CPU or GPU per `gpu`, prebuilt binaries only, never a
   * source build) and disposes it in `dispose()`.
   */
  llama?: Llama;
}

/** A Tree Agent language model backed by a local GGUF file. */
export interface LlamaCppModel extends LanguageModel {
  readonly modelPath: string;
  /** Loads llama.cpp, the model and its context now rather than on the first request. */
  load(): Promise<void>;
  /**
   * Aborts running requests, then frees the context, the model and (when created by this model)
   * the `Llama` instance. A later request loads everything again.
   */
  dispose(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A Tree Agent `LanguageModel` running a GGUF model in-process through node-llama-cpp: llama.cpp,
 * the model and a context are loaded on the first request (or by `load()`); each request gets a
 * sequence of that context (a pool of `sequences`), streams through `onTextChunk`, and a
 * `responseFormat` is enforced token by token with a grammar built from its JSON schema.
 *
 * @example
 * const model = llamaCppModel({ modelPath: 'models/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf' });
 * const agent = new TreeAgent({ tree, models: model, embedder });
 * // …
 * await model.dispose();
 */
export function llamaCppModel(options: LlamaCppModelOptions): LlamaCppModel {
  return new LlamaCppLanguageModel(options);
}

interface Loaded {
  llama: Llama;
  ownsLlama: boolean;
  model: LlamaModel;
  context: LlamaContext;
  pool: ChatPool;
  grammars: Map<string, Promise<LlamaGrammar>>;
  /** Aborted by `dispose()`: stops running and waiting requests. */
  shutdown: AbortController;
  running: Set<Promise<unknown>>;
}

interface RunResult {
  text: string;
  toolCalls: ModelToolCall[];
  usage: ModelUsage;
}

const MAX_CACHED_GRAMMARS = 64;

class LlamaCppLanguageModel implements LlamaCppModel {
  readonly id: string;
  readonly modelPath: string;
  readonly supportedParams: readonly string[] = LLAMA_CPP_PARAMS;
  readonly supportsJsonSchema = true;
  /** Through node-llama-cpp's function calling, in the syntax of the model's chat wrapper. */
  readonly supportsTools = true;
  readonly #options: LlamaCppModelOptions;
  #toolCalls = 0;
  #loading: Promise<Loaded> | undefined;

  constructor(options: LlamaCppModelOptions) {
    if (!options?.modelPath)
      throw new TypeError('llamaCppModel: `modelPath` (the path of a GGUF file) is required.');
    const sequences = options.sequences ?? 1;
    if (!Number.isInteger(sequences) || sequences < 1)
      throw new TypeError(
        `llamaCppModel: \`sequences\` must be a positive integer, got ${options.sequences}.`,
      );
    this.#options = options;
    this.modelPath = resolve(options.modelPath);
    this.id = options.id ?? `llama-cpp:${basename(this.modelPath).replace(/\.gguf$/i, '')}`;
  }

  async load(): Promise<void> {
    await this.#load();
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const { text, toolCalls, usage } = await this.#run(request);
    return toolCalls.length ? { text, toolCalls, usage } : { text, usage };
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    const chunks: string[] = [];
    let wake: (() => void) | undefined;
    let settled = false;
    let failure: { error: unknown } | undefined;
    let result: RunResult | undefined;
    // Aborts the generation when the consumer stops iterating before the end.
    const stop = new AbortController();
    const signal = request.signal ? AbortSignal.any([request.signal, stop.signal]) : stop.signal;
    const running = this.#run({ ...request, signal }, (chunk) => {
      chunks.push(chunk);
      wake?.();
    }).then(
      (value) => {
        result = value;
      },
      (error: unknown) => {
        failure = { error };
      },
    );
    void running.finally(() => {
      settled = true;
      wake?.();
    });
    try {
      while (true) {
        while (chunks.length > 0) yield { type: 'text-delta', delta: chunks.shift()! };
        if (settled) break;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
      if (failure) throw failure.error;
      // node-llama-cpp parses function calls whole: they come after the text of the step.
      for (const call of result!.toolCalls) yield { type: 'tool-call', ...call };
      yield { type: 'finish', usage: result!.usage };
    } finally {
      if (!settled) {
        stop.abort(new Error('The stream was closed before the end of the answer.'));
        await running;
      }
    }
  }

  async dispose(): Promise<void> {
    const loading = this.#loading;
    if (!loading) return;
    this.#loading = undefined;
    let state: Loaded;
    try {
      state = await loading;
    } catch {
      return; // loading failed and already released what it had created
    }
    state.shutdown.abort(new Error(`Model "${this.id}" was disposed during the request.`));
    await Promise.allSettled([...state.running]);
    await releaseLoaded(state);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  #load(): Promise<Loaded> {
    if (!this.#loading) {
      const loading = this.#createLoaded();
      this.#loading = loading;
      // A failed load is forgotten, so that a later request tries again (e.g. once the file exists).
      loading.catch(() => {
        if (this.#loading === loading) this.#loading = undefined;
      });
    }
    return this.#loading;
  }

  async #createLoaded(): Promise<Loaded> {
    const options = this.#options;
    try {
      await access(this.modelPath, constants.R_OK);
    } catch (error) {
      const reason =
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : String(error);
      throw new Error(
        `Model "${this.id}": cannot read the GGUF file "${this.modelPath}" (${reason}). No model ships with @treeagent/llama-cpp: download a GGUF model and pass its path as modelPath.`,
        { cause: error },
      );
    }
    const threads = options.threads ?? Math.max(1, availableParallelism());
    const ownsLlama = !options.llama;
    let llama: Llama | undefined = options.llama;
    let model: LlamaModel | undefined;
    try {
      llama ??= await getLlama({
        gpu: options.gpu ?? false,
        build: 'never',
        skipDownload: true,
        progressLogs: false,
        maxThreads: threads,
        logLevel: (options.logLevel ?? 'warn') as LlamaLogLevel,
      });
      try {
        model = await llama.loadModel({
          modelPath: this.modelPath,
          ...(options.gpu === 'auto' ? { gpuLayers: options.gpuLayers ?? 'auto' } : { gpuLayers: 0 }),
        });
      } catch (error) {
        throw new Error(
          `Model "${this.id}": llama.cpp could not load "${this.modelPath}": ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      const sequences = options.sequences ?? 1;
      const context = await model.createContext({
        sequences,
        contextSize: options.contextSize ?? { max: 8192 },
        ...(options.threads ? { threads: options.threads } : {}),
      });
      const chats: LlamaChat[] = [];
      for (let i = 0; i < sequences; i++)
        chats.push(
          new LlamaChat({
            contextSequence: context.getSequence(),
            chatWrapper: options.chatWrapper ?? 'auto',
          }),
        );
      return {
        llama,
        ownsLlama,
        model,
        context,
        pool: new ChatPool(chats),
        grammars: new Map(),
        shutdown: new AbortController(),
        running: new Set(),
      };
    } catch (error) {
      await model?.dispose().catch(() => {});
      if (ownsLlama) await llama?.dispose().catch(() => {});
      throw error;
    }
  }

  async #run(request: ModelRequest, onTextChunk?: (chunk: string) => void): Promise<RunResult> {
    request.signal?.throwIfAborted();
    const params = { ...this.#options.defaultParams, ...request.params };
    const generation = generationOptions(params);
    const state = await untilAborted(this.#load(), request.signal);
    const signal = request.signal
      ? AbortSignal.any([request.signal, state.shutdown.signal])
      : state.shutdown.signal;
    const work = (async (): Promise<RunResult> => {
      const history = await toChatHistory(request, {
        modelId: this.id,
        schemaInPrompt: this.#options.schemaInPrompt ?? true,
      });
      // Functions and a grammar exclude each other in node-llama-cpp: with tools offered, the JSON of a
      // responseFormat is asked for by the prompt (and validated by the engine); the engine's last,
      // tool-less step (toolChoice 'none') gets the grammar.
      const functions =
        request.tools?.length && request.toolChoice !== 'none' ? toFunctions(request.tools) : undefined;
      const grammar =
        request.responseFormat && !functions
          ? await this.#grammar(state, request.responseFormat.schema)
          : undefined;
      const chat = await state.pool.acquire(signal);
      try {
        const before = chat.sequence.tokenMeter.getState();
        const constraint: Pick<
          LLamaChatGenerateResponseOptions<ChatModelFunctions>,
          'grammar' | 'functions' | 'documentFunctionParams'
        > = functions ? { functions, documentFunctionParams: true } : grammar ? { grammar } : {};
        const response = await chat.generateResponse(history, {
          ...generation,
          ...(constraint as LLamaChatGenerateResponseOptions<ChatModelFunctions>),
          signal,
          ...(onTextChunk
            ? {
                onTextChunk: (chunk: string) => {
                  if (chunk) onTextChunk(chunk);
                },
              }
            : {}),
        });
        const outputTokens = chat.sequence.tokenMeter.diff(before).usedOutputTokens;
        // The sequence now holds the prompt (its reused prefix included) and the answer.
        const inputTokens = Math.max(0, chat.sequence.nextTokenIndex - outputTokens);
        const toolCalls = (response.functionCalls ?? []).map((call) => ({
          toolCallId: `call_${++this.#toolCalls}`,
          toolName: call.functionName,
          input: call.params,
        }));
        return { text: response.response, toolCalls, usage: { inputTokens, outputTokens } };
      } finally {
        state.pool.release(chat);
      }
    })();
    state.running.add(work);
    try {
      return await work;
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw error;
    } finally {
      state.running.delete(work);
    }
  }

  #grammar(state: Loaded, schema: JsonSchema): Promise<LlamaGrammar> {
    const key = JSON.stringify(schema);
    const cached = state.grammars.get(key);
    if (cached) return cached;
    const created = (async () => {
      const converted = toGbnfJsonSchema(schema);
      if (converted) {
        try {
          return await state.llama.createGrammarForJsonSchema(converted as never);
        } catch {
          // Fall through to a generic JSON grammar; the engine validates against the schema.
        }
      }
      return state.llama.getGrammarFor('json');
    })();
    created.catch(() => state.grammars.delete(key));
    if (state.grammars.size >= MAX_CACHED_GRAMMARS)
      state.grammars.delete(state.grammars.keys().next().value as string);
    state.grammars.set(key, created);
    return created;
  }
}

/**
 * The request's tools as node-llama-cpp functions. Their arguments are generated under a grammar made
 * from the JSON schema (`toGbnfJsonSchema`: constraints a grammar cannot express are dropped, the
 * engine validates the full schema); a schema with no grammar form leaves the arguments free.
 */
function toFunctions(tools: NonNullable<ModelRequest['tools']>): ChatModelFunctions {
  const functions: Record<string, { description?: string; params?: GbnfJsonSchema }> = {};
  for (const tool of tools) {
    const params = toGbnfJsonSchema(tool.inputSchema);
    functions[tool.name] = {
      ...(tool.description ? { description: tool.description } : {}),
      ...(params ? { params } : {}),
    };
  }
  return functions;
}

async function releaseLoaded(state: Loaded): Promise<void> {
  for (const chat of state.pool.all) chat.dispose({ disposeSequence: true });
  await state.context.dispose();
  await state.model.dispose();
  if (state.ownsLlama) await state.llama.dispose();
}

/** Waits for `promise`, or rejects with the reason of `signal` as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The chats (one per context sequence) free for a request, and the requests waiting for one. */
class ChatPool {
  readonly all: readonly LlamaChat[];
  readonly #free: LlamaChat[];
  readonly #waiting: Array<(chat: LlamaChat) => void> = [];

  constructor(chats: LlamaChat[]) {
    this.all = chats;
    this.#free = [...chats];
  }

  acquire(signal: AbortSignal): Promise<LlamaChat> {
    signal.throwIfAborted();
    const free = this.#free.pop();
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const index = this.#waiting.indexOf(grant);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(signal.reason);
      };
      const grant = (chat: LlamaChat) => {
        signal.removeEventListener('abort', onAbort);
        resolve(chat);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }

  release(chat: LlamaChat): void {
    const next = this.#waiting.shift();
    if (next) next(chat);
    else this.#free.push(chat);
  }
}

type GenerationOptions = Pick<
  LLamaChatGenerateResponseOptions,
  'maxTokens' | 'temperature' | 'topP' | 'topK' | 'minP' | 'seed' | 'customStopTriggers' | 'repeatPenalty'
>;

/** Maps Tree Agent `modelParams` to node-llama-cpp generation options, refusing ill-typed values. */
export function generationOptions(params: Record<string, unknown>): GenerationOptions {
  const number = (name: string, check?: (value: number) => boolean, rule?: string): number | undefined => {
    const value = params[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value) || (check && !check(value)))
      throw new TypeError(
        `modelParams.${name} must be ${rule ?? 'a finite number'}, got ${JSON.stringify(value)}.`,
      );
    return value;
  };
  const positiveInteger = (value: number) => Number.isInteger(value) && value > 0;
  const out: GenerationOptions = {};
  const maxTokens = number('maxOutputTokens', positiveInteger, 'a positive integer');
  if (maxTokens !== undefined) out.maxTokens = maxTokens;
  const temperature = number('temperature', (value) => value >= 0, 'a number ≥ 0');
  if (temperature !== undefined) out.temperature = temperature;
  const topP = number('topP', (value) => value > 0 && value <= 1, 'a number in (0, 1]');
  if (topP !== undefined) out.topP = topP;
  const topK = number('topK', (value) => Number.isInteger(value) && value >= 0, 'an integer ≥ 0');
  if (topK !== undefined) out.topK = topK;
  const minP = number('minP', (value) => value >= 0 && value <= 1, 'a number in [0, 1]');
  if (minP !== undefined) out.minP = minP;
  const seed = number('seed', Number.isInteger, 'an integer');
  if (seed !== undefined) out.seed = seed;

  const stop = params.stopSequences;
  if (stop !== undefined && stop !== null) {
    const list = typeof stop === 'string' ? [stop] : stop;
    if (!Array.isArray(list) || !list.every((item) => typeof item === 'string' && item.length > 0))
      throw new TypeError(
        `modelParams.stopSequences must be a non-empty string or an array of them, got ${JSON.stringify(stop)}.`,
      );
    if (list.length > 0) out.customStopTriggers = list;
  }

  const penalty = number('repeatPenalty', (value) => value > 0, 'a number > 0');
  const presencePenalty = number('presencePenalty');
  const frequencyPenalty = number('frequencyPenalty');
  if (penalty !== undefined || presencePenalty !== undefined || frequencyPenalty !== undefined)
    out.repeatPenalty = {
      ...(penalty !== undefined ? { penalty } : {}),
      ...(presencePenalty !== undefined ? { presencePenalty } : {}),
      ...(frequencyPenalty !== undefined ? { frequencyPenalty } : {}),
    };
  return out;
}
