import type { TreeAgent } from '@treeagent/core';
import type { ChannelStore } from '@treeagent/core/adapter';

/**
 * The messaging channel a session came from (its name in the configuration), or `null` for a web or
 * API session — what the operator console shows beside a handoff. Only channel sessions (`ch-…`)
 * are looked up.
 */
export async function channelOfSession(agent: TreeAgent, sessionId: string): Promise<string | null> {
  if (!sessionId.startsWith('ch-')) return null;
  const store = (agent.sessionStore as { channelStore?: () => ChannelStore }).channelStore?.();
  return (await store?.conversationOf(sessionId))?.channel ?? null;
}
