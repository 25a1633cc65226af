import type { AgentOutput, TreeAgent } from '@treeagent/core';
import { MESSAGE_SEPARATOR } from './completion-objects.js';

/** What a handed-off conversation answers when neither the tree nor an operator has said anything yet. */
export const DEFAULT_QUEUED_NOTICE = 'An operator will answer you here as soon as possible.';

/**
 * The text of a turn held for operators, for clients without a live stream (the OpenAI-compatible
 * endpoint): the operators' messages written since the user's previous message, or else the queued
 * notice (the tree's `handoff.message`, or `DEFAULT_QUEUED_NOTICE`). `null` when the turn was not held.
 */
export async function heldTurnText(
  agent: TreeAgent,
  sessionId: string,
  output: AgentOutput,
): Promise<string | null> {
  if (output.status !== 'handed-off' || output.messages.some((message) => message.content)) return null;
  const history = await agent.history(sessionId, { limit: 100 });
  const users = history.flatMap((entry, index) => (entry.role === 'user' ? [index] : []));
  const since = users.length >= 2 ? users[users.length - 2]! : -1;
  const replies = history
    .slice(since + 1)
    .filter((entry) => entry.role === 'assistant' && entry.operator && entry.content)
    .map((entry) => entry.content!);
  return replies.length
    ? replies.join(MESSAGE_SEPARATOR)
    : (output.handoff?.message ?? DEFAULT_QUEUED_NOTICE);
}
