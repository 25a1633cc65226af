import { type BeforeCallback, defineTree, MessageType, TreeAgent } from '@treeagent/core';
import type { SessionStore } from '@treeagent/core/adapter';
import { ExactEmbedder } from '@treeagent/core/test';

/** What one interaction did, as seen from inside it. */
export interface TurnSpan {
  agent: string;
  sessionId: string;
  turn: number;
  start: number;
  end: number;
}

export interface TestAgentOptions {
  name: string;
  sessionStore: SessionStore;
  /** Collects a span per interaction (from the emit's `before`). */
  spans?: TurnSpan[];
  /** Milliseconds each interaction waits inside `before`, to widen race windows. */
  delayMs?: number;
}

/**
 * A small tree agent: two emits reached by `alpha` and `beta`. Each interaction records its turn
 * number and a counter in the session state, so a lost update shows.
 */
export function testAgent({ name, sessionStore, spans, delayMs = 0 }: TestAgentOptions): TreeAgent {
  const before: BeforeCallback = async (_self, context) => {
    const start = performance.timeOrigin + performance.now();
    const count = (context.sessionState.get('count') as number | undefined) ?? 0;
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    context.sessionState.set('count', count + 1);
    context.sessionState.set('lastAgent', name);
    spans?.push({
      agent: name,
      sessionId: context.metadata.sessionId,
      turn: context.turn,
      start,
      end: performance.timeOrigin + performance.now(),
    });
  };
  return new TreeAgent({
    tree: defineTree({
      nodes: [
        { id: 1, type: 'root' },
        { id: 2, type: 'agent', parent: 1, isPrimary: true },
        {
          id: 3,
          type: 'emit',
          parent: 2,
          chunks: ['alpha'],
          before,
          emit: { message: { type: MessageType.STATIC, content: 'A' } },
        },
        {
          id: 4,
          type: 'emit',
          parent: 2,
          chunks: ['beta'],
          before,
          emit: { message: { type: MessageType.STATIC, content: 'B' } },
        },
      ],
    }),
    embedder: new ExactEmbedder({ vectors: { alpha: [1, 0], beta: [0, 1] } }),
    sessionStore,
  });
}
