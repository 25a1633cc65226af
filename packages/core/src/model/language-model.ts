import type { FileMetadata } from '../protocol/file-metadata.js';
import type { JsonSchema } from '../protocol/json-schema.js';

/** A part of a message sent to a language model. */
export type ModelContentPart = { type: 'text'; text: string } | { type: 'file'; file: FileMetadata };

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: string | ModelContentPart[];
}

/** One request to a language model, built by the engine from a node's `prompt` and `responseFormat`. */
export interface ModelRequest {
  system?: string;
  messages: ModelMessage[];
  /** Structured output: the answer must be JSON matching `schema`. */
  responseFormat?: { name: string; schema: JsonSchema };
  /** Model parameters (`temperature`, `reasoningEffort`…), already stripped of unsupported ones. */
  params: Record<string, unknown>;
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
  usage?: ModelUsage | undefined;
}

export type ModelStreamPart =
  | { type: 'text-delta'; delta: string }
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
  generate(request: ModelRequest): Promise<ModelResponse>;
  stream(request: ModelRequest): AsyncIterable<ModelStreamPart>;
}
