import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ModelToolCall,
} from '../model/language-model.js';

/**
 * A step in which the scripted model calls tools (with an optional text before the calls). A call
 * without `toolCallId` gets `call-<request number>-<index>`.
 */
export interface ScriptedToolCalls {
  text?: string;
  toolCalls: (Omit<ModelToolCall, 'toolCallId'> & { toolCallId?: string })[];
}

type ScriptedValue = string | Error | ScriptedToolCalls;

/** An answer of the scripted model: a text, tool calls, an error to throw, or a function of the request returning one. */
export type ScriptedAnswer =
  | ScriptedValue
  | ((request: ModelRequest, call: number) => ScriptedValue | Promise<ScriptedValue>);

export interface ScriptedLanguageModelOptions {
  id?: string;
  /** One answer for every call, or answers in order (the last repeats). */
  answers: ScriptedAnswer | ScriptedAnswer[];
  /** Parameters the model claims to support; others are dropped by the engine. Default: all. */
  supportedParams?: string[];
  supportsJsonSchema?: boolean;
  /** Whether the model claims it can call tools. Default `true`. */
  supportsTools?: boolean;
  /** How streamed answers are split into deltas. Default: by word, keeping spaces. */
  split?: (text: string) => string[];
}

/**
 * A language model for tests (mock, labelled as such): answers from a script, records every
 * request in `calls`, and streams its answers in word-sized deltas. An answer may call tools.
 *
 * @example
 * const model = new ScriptedLanguageModel({ answers: ['{"category":"ORDER"}'] });
 * const agent = new TreeAgent({ tree, models: model });
 * // A tool call, then the answer written from the tool's result:
 * new ScriptedLanguageModel({
 *   answers: [{ toolCalls: [{ toolName: 'orderStatus', input: { orderNumber: '12345' } }] }, 'It left yesterday.'],
 * });
 */
export class ScriptedLanguageModel implements LanguageModel {
  readonly id: string;
  readonly supportedParams: readonly string[] | undefined;
  readonly supportsJsonSchema: boolean;
  readonly supportsTools: boolean;
  /** Every request received, in order. */
  readonly calls: ModelRequest[] = [];
  readonly #answers: ScriptedAnswer[];
  readonly #split: (text: string) => string[];

  constructor(options: ScriptedLanguageModelOptions) {
    this.id = options.id ?? 'scripted';
    this.supportedParams = options.supportedParams;
    this.supportsJsonSchema = options.supportsJsonSchema ?? false;
    this.supportsTools = options.supportsTools ?? true;
    this.#answers = Array.isArray(options.answers) ? options.answers : [options.answers];
    this.#split = options.split ?? ((text) => text.match(/\S+\s*|\s+/g) ?? []);
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    const { text, toolCalls } = await this.#answer(request);
    return toolCalls.length ? { text, toolCalls } : { text };
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    const { text, toolCalls } = await this.#answer(request);
    // Like a real model: an abort during the stream stops it with the signal's reason.
    for (const delta of this.#split(text)) {
      request.signal?.throwIfAborted();
      yield { type: 'text-delta', delta };
    }
    request.signal?.throwIfAborted();
    for (const call of toolCalls) yield { type: 'tool-call', ...call };
    yield { type: 'finish' };
  }

  async #answer(request: ModelRequest): Promise<{ text: string; toolCalls: ModelToolCall[] }> {
    // An aborted request is rejected with the signal's reason, before and after the script answers.
    request.signal?.throwIfAborted();
    const { signal: _signal, readFile: _readFile, ...recorded } = request;
    this.calls.push(structuredClone(recorded));
    const call = this.calls.length;
    const scripted = this.#answers[Math.min(call, this.#answers.length) - 1]!;
    const answer = typeof scripted === 'function' ? await scripted(request, call) : scripted;
    request.signal?.throwIfAborted();
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'string') return { text: answer, toolCalls: [] };
    return {
      text: answer.text ?? '',
      toolCalls: answer.toolCalls.map((toolCall, index) => ({
        toolCallId: toolCall.toolCallId ?? `call-${call}-${index + 1}`,
        toolName: toolCall.toolName,
        input: toolCall.input,
      })),
    };
  }
}
