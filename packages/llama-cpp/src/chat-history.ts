import type { FileMetadata } from '@treeagent/core';
import type { ModelMessage, ModelRequest, ModelToolResultPart } from '@treeagent/core/adapter';
import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelResponse } from 'node-llama-cpp';

/** MIME types whose bytes are read as UTF-8 text and put inline in the prompt. */
function isTextFile(file: FileMetadata): boolean {
  return (
    file.mimeType.startsWith('text/') ||
    /^application\/(json|xml|yaml|x-yaml|csv|javascript|typescript|x-ndjson)\b/.test(file.mimeType) ||
    /\+(json|xml)$/.test(file.mimeType)
  );
}

async function messageText(
  message: ModelMessage,
  readFile: ModelRequest['readFile'],
  modelId: string,
): Promise<string> {
  if (typeof message.content === 'string') return message.content;
  const pieces: string[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      pieces.push(part.text);
      continue;
    }
    if (part.type !== 'file') continue;
    const { file } = part;
    if (!isTextFile(file))
      throw new Error(
        `Model "${modelId}" is a text-only local model: it cannot read file "${file.name}" (${file.mimeType}). Send text files only, or route this node to a multimodal model.`,
      );
    if (!readFile)
      throw new Error(`Model "${modelId}" cannot read file "${file.name}": the request has no readFile.`);
    const text = new TextDecoder().decode(await readFile(file));
    pieces.push(`File ${file.name}:\n${text}`);
  }
  return pieces.join('\n\n');
}

/** The instruction added to the system prompt of structured requests (the grammar enforces the syntax). */
export function schemaInstruction(format: NonNullable<ModelRequest['responseFormat']>): string {
  return `Answer with only a JSON value (${format.name}) matching this JSON schema:\n${JSON.stringify(format.schema)}`;
}

export interface ChatHistoryOptions {
  /** Id of the model, for error messages. */
  modelId: string;
  /** Add the JSON schema of `responseFormat` to the system prompt. */
  schemaInPrompt: boolean;
}

/**
 * Turns a Tree Agent request into node-llama-cpp's chat history: the system prompt, the
 * messages, then an empty model response for the chat wrapper to open the answer. Text files of
 * user messages are read with `request.readFile` and put inline; other files are refused. A tool
 * step — an assistant message with `tool-call` parts and the `tool` message of their results — is
 * one model response holding function calls with their results, as node-llama-cpp's chat wrappers
 * write them; when the request ends with one, the model continues that response.
 */
export async function toChatHistory(
  request: ModelRequest,
  options: ChatHistoryOptions,
): Promise<ChatHistoryItem[]> {
  const history: ChatHistoryItem[] = [];
  const system = [
    request.system,
    request.responseFormat && options.schemaInPrompt ? schemaInstruction(request.responseFormat) : undefined,
  ]
    .filter((text): text is string => Boolean(text))
    .join('\n\n');
  if (system) history.push({ type: 'system', text: system });
  const results = new Map<string, ModelToolResultPart>();
  for (const message of request.messages)
    if (message.role === 'tool' && typeof message.content !== 'string')
      for (const part of message.content) if (part.type === 'tool-result') results.set(part.toolCallId, part);
  let continues = false;
  for (const message of request.messages) {
    if (message.role === 'tool') {
      continues = true;
      continue;
    }
    continues = false;
    if (message.role === 'user') {
      history.push({ type: 'user', text: await messageText(message, request.readFile, options.modelId) });
      continue;
    }
    if (typeof message.content === 'string') {
      history.push({ type: 'model', response: [message.content] });
      continue;
    }
    const response: ChatModelResponse['response'] = [];
    let first = true;
    for (const part of message.content) {
      if (part.type === 'text' && part.text) response.push(part.text);
      else if (part.type === 'tool-call') {
        const result = results.get(part.toolCallId);
        const call: ChatModelFunctionCall = {
          type: 'functionCall',
          name: part.toolName,
          params: part.input,
          result: result ? (result.isError ? { error: result.output } : result.output) : null,
          startsNewChunk: first,
        };
        response.push(call);
        first = false;
      }
    }
    history.push({ type: 'model', response });
  }
  if (!continues) history.push({ type: 'model', response: [] });
  return history;
}
