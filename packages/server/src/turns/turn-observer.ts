import type { AgentEvent } from '@treeagent/core';

/** Something that follows one turn's events: metrics, tracing. */
export interface TurnObserver {
  /** Called with every event of the turn, in order. */
  event(event: AgentEvent): void;
  /** Called once when the turn settled (after `turn-end` or `error`, or when the stream ended without them). */
  end(): void;
}
