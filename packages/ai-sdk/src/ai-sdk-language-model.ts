import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { FileMetadata } from '@treeagent/core';
import type {
  LanguageModel,
  ModelRequest,
  ModelResponse,
  ModelStreamPart,
  ModelToolCall,
} from '@treeagent/core/adapter';
import {
  generateText,
  jsonSchema,
  type ModelMessage,
  NoObjectGeneratedError,
  Output,
  streamText,
  type ToolSet,
  tool,
} from 'ai';
import { type ModelParamSupport, splitParams } from './model-params.js';

/** Loads the bytes of a file handed to a model (a `FileStore`'s `read`, typically). */
export type FileLoader = (file: FileMetadata) => Promise<Uint8Array | URL>;

export interface AiSdkModelOptions {
  /** Identifier in traces and errors. Default: `<provider>:<modelId>`. */
  id?: string;
  /** Which `modelParams` the model accepts; the engine drops the others with a debug event. */
  params?: ModelParamSupport;
  /** Whether the provider enforces JSON schemas natively (OpenAI, Azure, Anthropic, compatible servers that declare it). */
  supportsJsonSchema?: boolean;
  /** Reads files given to prompts; without it only files with a `url` can be sent. */
  loadFile?: FileLoader;
  /** Retries of the AI SDK on 429/5xx answers. Default 2. */
  maxRetries?: number;
  /** Whether the model can call tools. Default `true` (every chat model of the AI SDK's main providers can). */
  supportsTools?: boolean;
}

/**
 * Wraps any Vercel AI SDK language model (`@ai-sdk/openai`, `@ai-sdk/anthropic`, …) as a Tree Agent
 * `LanguageModel`: text and structured output through `generateText`, streaming through `streamText`.
 * Tools are handed to the AI SDK without `execute`: the model's calls come back to the engine, which
 * runs them (with its events, time limits and fallback) and sends the results in the next request.
 *
 * @example
 * import { createOpenAI } from '@ai-sdk/openai';
 * const model = aiSdkModel(createOpenAI({ apiKey })('gpt-4o-mini'));
 * const agent = new TreeAgent({ tree, models: model });
 */
export function aiSdkModel(model: LanguageModelV3, options: AiSdkModelOptions = {}): LanguageModel {
  const id = options.id ?? `${model.provider}:${model.modelId}`;
  const support = options.params ?? {
    supported: [
      'temperature',
      'topP',
      'topK',
      'maxOutputTokens',
      'presencePenalty',
      'frequencyPenalty',
      'seed',
      'stopSequences',
    ],
  };
  const settings = async (request: ModelRequest) => ({
    model,
    ...(request.system ? { system: request.system } : {}),
    messages: await toMessages(request, options.loadFile ?? request.readFile),
    ...splitParams(request.params, support),
    maxRetries: options.maxRetries ?? 2,
    ...(request.signal ? { abortSignal: request.signal } : {}),
    ...(request.tools?.length
      ? { tools: toolSet(request.tools), toolChoice: request.toolChoice ?? 'auto' }
      : {}),
  });
  return {
    id,
    supportedParams: support.supported,
    supportsJsonSchema: options.supportsJsonSchema ?? true,
    supportsTools: options.supportsTools ?? true,
    async generate(request: ModelRequest): Promise<ModelResponse> {
      const base = await settings(request);
      if (request.responseFormat) {
        try {
          const result = await generateText({
            ...base,
            output: objectOutput(request.responseFormat),
          });
          return { text: result.text, toolCalls: toolCalls(result.toolCalls), usage: usage(result.usage) };
        } catch (error) {
          // The engine validates the answer and retries with the errors; hand it the raw text.
          if (NoObjectGeneratedError.isInstance(error) && typeof error.text === 'string')
            return { text: error.text };
          throw error;
        }
      }
      const result = await generateText(base);
      return { text: result.text, toolCalls: toolCalls(result.toolCalls), usage: usage(result.usage) };
    },
    async *stream(request: ModelRequest): AsyncIterable<ModelStreamPart> {
      // Structured output is asked for when streaming too (the text deltas are the JSON's text).
      const result = streamText({
        ...(await settings(request)),
        ...(request.responseFormat ? { output: objectOutput(request.responseFormat) } : {}),
        onError: () => {},
      });
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta') yield { type: 'text-delta', delta: part.text };
        else if (part.type === 'tool-call')
          yield {
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          };
        else if (part.type === 'error') throw part.error;
        else if (part.type === 'abort')
          throw request.signal?.reason ?? new Error('the model stream was aborted');
        else if (part.type === 'finish') yield { type: 'finish', usage: usage(part.totalUsage) };
      }
    },
  };
}

/** The request's tools for the AI SDK, without `execute`: the engine runs them. */
function toolSet(tools: NonNullable<ModelRequest['tools']>): ToolSet {
  return Object.fromEntries(
    tools.map((definition) => [
      definition.name,
      tool({
        ...(definition.description ? { description: definition.description } : {}),
        inputSchema: jsonSchema(definition.inputSchema),
      }),
    ]),
  );
}

/** The calls of the step; calls the AI SDK found invalid are passed on too: the engine tells the model what was wrong. */
function toolCalls(
  calls: readonly { toolCallId: string; toolName: string; input: unknown }[] | undefined,
): ModelToolCall[] | undefined {
  if (!calls?.length) return undefined;
  return calls.map(({ toolCallId, toolName, input }) => ({ toolCallId, toolName, input }));
}

function objectOutput(format: NonNullable<ModelRequest['responseFormat']>) {
  return Output.object({ schema: jsonSchema(format.schema), name: format.name });
}

function usage(value: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined) {
  return {
    ...(value?.inputTokens === undefined ? {} : { inputTokens: value.inputTokens }),
    ...(value?.outputTokens === undefined ? {} : { outputTokens: value.outputTokens }),
  };
}

async function toMessages(request: ModelRequest, loadFile: FileLoader | undefined): Promise<ModelMessage[]> {
  const messages: ModelMessage[] = [];
  for (const message of request.messages) {
    if (message.role === 'tool') {
      const content = typeof message.content === 'string' ? [] : message.content;
      messages.push({
        role: 'tool',
        content: content.flatMap((part) =>
          part.type === 'tool-result'
            ? [
                {
                  type: 'tool-result' as const,
                  toolCallId: part.toolCallId,
                  toolName: part.toolName,
                  output: toolOutput(part.output, part.isError === true),
                },
              ]
            : [],
        ),
      });
      continue;
    }
    if (message.role === 'assistant') {
      if (typeof message.content === 'string') {
        messages.push({ role: 'assistant', content: message.content });
        continue;
      }
      messages.push({
        role: 'assistant',
        content: message.content.flatMap((part): AssistantPart[] => {
          if (part.type === 'text') return [{ type: 'text' as const, text: part.text }];
          if (part.type === 'tool-call')
            return [
              {
                type: 'tool-call' as const,
                toolCallId: part.toolCallId,
                toolName: part.toolName,
                input: part.input,
              },
            ];
          return [];
        }),
      });
      continue;
    }
    if (typeof message.content === 'string') {
      messages.push({ role: 'user', content: message.content });
      continue;
    }
    const parts = [];
    for (const part of message.content) {
      if (part.type === 'text') parts.push({ type: 'text' as const, text: part.text });
      else if (part.type === 'file')
        parts.push({
          type: 'file' as const,
          data: await fileData(part.file, loadFile),
          mediaType: part.file.mimeType,
          filename: part.file.name,
        });
    }
    messages.push({ role: 'user', content: parts });
  }
  return messages;
}

type AssistantPart =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; toolCallId: string; toolName: string; input: unknown };

/** A tool's result as the AI SDK's tool output: text as text, anything else as JSON; errors marked as such. */
function toolOutput(output: unknown, isError: boolean) {
  if (typeof output === 'string')
    return isError
      ? { type: 'error-text' as const, value: output }
      : { type: 'text' as const, value: output };
  const value = (output ?? null) as import('@ai-sdk/provider').JSONValue;
  return isError ? { type: 'error-json' as const, value } : { type: 'json' as const, value };
}

async function fileData(file: FileMetadata, loadFile: FileLoader | undefined): Promise<Uint8Array | URL> {
  if (loadFile) return loadFile(file);
  if (file.url) return new URL(file.url);
  throw new Error(
    `Cannot send file "${file.name}" (${file.id}) to the model: it has no url and no loadFile was configured. Pass loadFile (for example fileStore.read) to aiSdkModel.`,
  );
}
