import { randomUUID } from 'node:crypto';
import type { AgentEvent, AgentOutput, FileMetadata, OutputMessage, Source } from '@treeagent/core';

/**
 * Tree Agent's extension field, `treeagent`, at the top level of a `chat.completion` and of the
 * final `chat.completion.chunk`: what a plain OpenAI response cannot carry.
 */
export interface TreeAgentExtension {
  /** The session to send next (as `X-Session-Id` or `user`) to continue the conversation. */
  sessionId: string;
  turn: number;
  /** `answered`; `no-match` when nothing in the agent fits; `fallback-no-match` / `fallback-error` when the agent's fallback answered. */
  status: AgentOutput['status'];
  /** The session's fail counter after the turn. */
  failCounter: number;
  /** Last executed node. */
  nodeId: number | null;
  /** Every message of the turn, with its options, attachments, dynamic attachments and sources. */
  messages: OutputMessage[];
  /** The options of the turn's messages, to show as buttons (answer with `treeagent.selectedOption`). */
  options: string[];
  sources: Source[];
  attachments: FileMetadata[];
  serverMetadata: Record<string, unknown>;
  /** The turn's trace; only in debug mode. */
  trace?: AgentEvent[];
}

/** Separator between the texts of several messages of one turn in `content`. */
export const MESSAGE_SEPARATOR = '\n\n';

export function completionId(): string {
  return `chatcmpl-${randomUUID().replace(/-/g, '')}`;
}

/** Unix time in seconds, as OpenAI's `created`. */
export function unixSeconds(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/** The texts of the turn's messages joined as one `content` (messages of type `none` add nothing). */
export function completionText(output: AgentOutput): string {
  return output.messages
    .flatMap((message) => (message.content ? [message.content] : []))
    .join(MESSAGE_SEPARATOR);
}

export function treeAgentExtension(
  output: AgentOutput,
  sessionId: string,
  debug: boolean,
): TreeAgentExtension {
  return {
    sessionId,
    turn: output.turn,
    status: output.status,
    failCounter: output.failCounter,
    nodeId: output.nodeId,
    messages: output.messages,
    options: output.messages.flatMap((message) => message.options),
    sources: output.messages.flatMap((message) => message.sources),
    attachments: output.messages.flatMap((message) => message.attachments),
    serverMetadata: output.serverMetadata,
    ...(debug ? { trace: output.trace } : {}),
  };
}

/** Usage is not measured per turn (a turn may make several model calls, or none): zeros. */
const USAGE = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } as const;

interface Head {
  id: string;
  created: number;
  model: string;
}

/** A `chat.completion` object, shaped exactly like OpenAI's, plus the `treeagent` field. */
export function chatCompletion(head: Head, output: AgentOutput, extension: TreeAgentExtension) {
  return {
    id: head.id,
    object: 'chat.completion' as const,
    created: head.created,
    model: head.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant' as const, content: completionText(output), refusal: null },
        logprobs: null,
        finish_reason: 'stop' as const,
      },
    ],
    usage: USAGE,
    system_fingerprint: null,
    treeagent: extension,
  };
}

/** A `chat.completion.chunk` with one choice. */
export function chatCompletionChunk(
  head: Head,
  delta: { role?: 'assistant'; content?: string },
  finishReason: 'stop' | null = null,
  extension?: TreeAgentExtension,
) {
  return {
    id: head.id,
    object: 'chat.completion.chunk' as const,
    created: head.created,
    model: head.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(extension ? { treeagent: extension } : {}),
  };
}

/** The extra chunk sent with `stream_options.include_usage`: no choices, only usage. */
export function usageChunk(head: Head) {
  return {
    id: head.id,
    object: 'chat.completion.chunk' as const,
    created: head.created,
    model: head.model,
    system_fingerprint: null,
    choices: [],
    usage: USAGE,
  };
}
