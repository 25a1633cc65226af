import type { FileMetadata } from '../protocol/file-metadata.js';
import type { JsonSchema } from '../protocol/json-schema.js';

/** A part of a message sent to a language model. */
export type ModelContentPart =
  | { type: 'text'; text: string }
  | { type: 'file'; file: FileMetadata }
  | ModelToolCallPart
  | ModelToolResultPart;

/** In an `assistant` message: a tool the model called in an earlier step. */
export interface ModelToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  /** The arguments the model gave, parsed from JSON. */
  input: unknown;
}

/** In a `tool` message: what a tool returned to the model (`isError`: the call failed, `output` says why). */
export interface ModelToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  /** Any JSON value the tool returned. */
  output: unknown;
  isError?: boolean;
}

/**
 * One message of a request. `user` messages carry text and files; `assistant` messages text and
 * (after a tool step) `tool-call` parts; `tool` messages only the `tool-result` parts of those calls.
 */
export interface ModelMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string | ModelContentPart[];
}

/** A tool offered to the model: its name, what it is for, and the JSON schema of its arguments. */
export interface ModelTool {
  /** Letters, digits, `_` and `-`, at most 64 characters (what every provider accepts). */
  name: string;
  description?: string;
  /** JSON schema of the arguments object. */
  inputSchema: JsonSchema;
}

/** A tool call the model asked for. The engine runs it and sends the result back in the next request. */
export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  /** The arguments, parsed from the model's JSON (the raw string when it was not valid JSON). */
  input: unknown;
}

/** One request to a language model, built by the engine from a node's `prompt` and `responseFormat`. */
export interface ModelRequest {
  system?: string;
  messages: ModelMessage[];
  /** Structured output: the answer must be JSON matching `schema`. */
  responseFormat?: { name: string; schema: JsonSchema };
  /** Model parameters (`temperature`, `reasoningEffort`…), already stripped of unsupported ones. */
  params: Record<string, unknown>;
  /** Tools the model may call; its calls come back as `toolCalls` (generate) or `tool-call` parts (stream). */
  tools?: ModelTool[];
  /**
   * `auto` (default): the model chooses between answering and calling tools; `none`: it must answer
   * in text (the engine's last step when a node's `maxToolSteps` is reached).
   */
  toolChoice?: 'auto' | 'none';
  signal?: AbortSignal;
  /** Reads the bytes of a file part (from the agent's file store). */
  readFile?: (file: FileMetadata) => Promise<Uint8Array>;
}

export interface ModelUsage {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
}

export interface ModelResponse {
  text: string;
  /** The tools the model called in this step (absent or empty: it answered). */
  toolCalls?: ModelToolCall[] | undefined;
  usage?: ModelUsage | undefined;
}

export type ModelStreamPart =
  | { type: 'text-delta'; delta: string }
  | ({ type: 'tool-call' } & ModelToolCall)
  | { type: 'finish'; usage?: ModelUsage | undefined };

/**
 * The contract the engine needs from a chat model. Adapters turn Vercel AI SDK models (and local
 * GGUF models) into it; `@treeagent/core/test` has a scripted one for tests.
 */
export interface LanguageModel {
  /** Provider and model name, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  /** Parameters the model accepts. Others are dropped with a `model-param-dropped` event. Absent: all. */
  readonly supportedParams?: readonly string[] | undefined;
  /** Whether the provider enforces a JSON schema natively. The engine validates the answer either way. */
  readonly supportsJsonSchema?: boolean | undefined;
  /**
   * Whether the model can call tools (`ModelRequest.tools`). `false`: a node with tools on this model
   * fails with a `MODEL` error that says so. Absent: assumed to.
   */
  readonly supportsTools?: boolean | undefined;
  generate(request: ModelRequest): Promise<ModelResponse>;
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}
