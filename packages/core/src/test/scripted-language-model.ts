import type { LanguageModel, ModelRequest, ModelResponse, ModelStreamPart } from '../model/language-model.js';

/** An answer of the scripted model: a text, or a function of the request, or an error to throw. */
export type ScriptedAnswer =
  | string
  | Error
  | ((request: ModelRequest, call: number) => string | Error | Promise<string | Error>);

export interface ScriptedLanguageModelOptions {
  id?: string;
  /** One answer for every call, or answers in order (the last repeats). */
  answers: ScriptedAnswer | ScriptedAnswer[];
  /** Parameters the model claims to support; others are dropped by the engine. Default: all. */
  supportedParams?: string[];
  supportsJsonSchema?: boolean;
  /** How streamed answers are split into deltas. Default: by word, keeping spaces. */
  split?: (text: string) => string[];
}

/**
 * A language model for tests (mock, labelled as such): answers from a script, records every
 * request in `calls`, and streams its answers in word-sized deltas.
 *
 * @example
 * const model = new ScriptedLanguageModel({ answers: ['{"category":"ORDER"}'] });
 * const agent = new TreeAgent({ tree, models: model });
 */
export class ScriptedLanguageModel implements LanguageModel {
  readonly id: string;
  readonly supportedParams: readonly string[] | undefined;
  readonly supportsJsonSchema: boolean;
  /** Every request received, in order. */
  readonly calls: ModelRequest[] = [];
  readonly #answers: ScriptedAnswer[];
  readonly #split: (text: string) => string[];

  constructor(options: ScriptedLanguageModelOptions) {
    this.id = options.id ?? 'scripted';
    this.supportedParams = options.supportedParams;
    this.supportsJsonSchema = options.supportsJsonSchema ?? false;
    this.#answers = Array.isArray(options.answers) ? options.answers : [options.answers];
    this.#split = options.split ?? ((text) => text.match(/\S+\s*|\s+/g) ?? []);
  }

  async generate(request: ModelRequest): Promise<ModelResponse> {
    return { text: await this.#answer(request) };
  }

  async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
    const text = await this.#answer(request);
    for (const delta of this.#split(text)) yield { type: 'text-delta', delta };
    yield { type: 'finish' };
  }

  async #answer(request: ModelRequest): Promise<string> {
    const { signal: _signal, readFile: _readFile, ...recorded } = request;
    this.calls.push(structuredClone(recorded));
    const call = this.calls.length;
    const scripted = this.#answers[Math.min(call, this.#answers.length) - 1]!;
    const answer = typeof scripted === 'function' ? await scripted(request, call) : scripted;
    if (answer instanceof Error) throw answer;
    return answer;
  }
}
