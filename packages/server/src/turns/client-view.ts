import type { AgentEvent, AgentOutput } from '@treeagent/core';

/** An `AgentOutput` as clients receive it: the trace only in debug mode. */
export type ClientOutput = Omit<AgentOutput, 'trace'> & { trace?: AgentOutput['trace'] };

/** An event as clients receive it: `turn-end` carries a `ClientOutput`. */
export type ClientEvent =
  | Exclude<AgentEvent, { type: 'turn-end' }>
  | { type: 'turn-end'; output: ClientOutput; durationMs: number };

/** The events a client sees outside debug mode: what the user sees, not why the agent went there. */
const USER_FACING: ReadonlySet<AgentEvent['type']> = new Set([
  'turn-start',
  'message-start',
  'text-delta',
  'message',
  'no-match',
  'error',
  'turn-end',
]);

/** The output for a client: without `trace` unless `debug`. */
export function clientOutput(output: AgentOutput, debug: boolean): ClientOutput {
  if (debug) return output;
  const { trace: _trace, ...rest } = output;
  return rest;
}

/**
 * The event as a client sees it, or `null` when it is hidden: outside debug mode only the
 * user-facing events go out (explore decisions, callbacks and their outputs stay on the server),
 * and `turn-end` carries the output without its trace.
 */
export function clientEvent(event: AgentEvent, debug: boolean): ClientEvent | null {
  if (debug) return event;
  if (!USER_FACING.has(event.type)) return null;
  if (event.type === 'turn-end') return { ...event, output: clientOutput(event.output, false) };
  return event;
}
