import { z } from 'zod';
import { FileId } from '../files/session-files.js';

const ContentPart = z.looseObject({ type: z.string(), text: z.string().optional() });

const ChatMessage = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']),
  content: z.union([z.string(), z.array(ContentPart), z.null()]).optional(),
});

/** Tree Agent's extension of the request: what the JSON API's message body carries besides the text. */
export const TreeAgentRequestExtension = z.strictObject({
  selectedOption: z.string().min(1).max(1000).optional(),
  attachments: z.array(FileId).max(100).optional(),
  clientMetadata: z.record(z.string(), z.unknown()).optional(),
});

/**
 * The body of `POST /v1/chat/completions`. Fields of OpenAI's API that do not apply to a tree agent
 * (temperature, tools, …) are accepted and ignored; `n` other than 1 is refused.
 */
export const ChatCompletionRequest = z.looseObject({
  model: z.string().min(1),
  messages: z.array(ChatMessage).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  user: z.string().min(1).max(256).optional(),
  n: z.literal(1).nullish(),
  treeagent: TreeAgentRequestExtension.optional(),
});
export type ChatCompletionRequest = z.output<typeof ChatCompletionRequest>;

/** The text of the last `user` message (text parts joined), or `null` when there is none. */
export function lastUserText(messages: ChatCompletionRequest['messages']): string | null {
  const last = messages.findLast((message) => message.role === 'user');
  if (!last) return null;
  const { content } = last;
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}
