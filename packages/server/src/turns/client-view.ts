import type { AgentEvent, AgentOutput } from '@treeagent/core';
import { isUserFacingEvent } from '@treeagent/core/client';
import type { ClientEvent, ClientOutput } from '../api-types.js';
import { publicOutput, publicTransition } from '../handoff/user-view.js';

export type { ClientEvent, ClientOutput };

/** The output for a client: without `trace` unless `debug`; operators by display name only (`publicOutput`). */
export function clientOutput(output: AgentOutput, debug: boolean): ClientOutput {
  if (debug) return publicOutput(output);
  const { trace: _trace, ...rest } = output;
  return publicOutput(rest);
}

/**
 * The event as a client sees it, or `null` when it is hidden: outside debug mode only the
 * user-facing events (`USER_FACING_EVENT_TYPES` of `@treeagent/core/client`) go out — explore
 * decisions, callbacks and their outputs stay on the server — `tool-call` and `tool-result` go
 * without the tool's arguments and result, and `turn-end` carries the output without its trace. Errors are sent as `StreamErrorEvent`s by the message route, not through here.
 */
export function clientEvent(
  event: Exclude<AgentEvent, { type: 'error' }>,
  debug: boolean,
): ClientEvent | null {
  if (!debug && !isUserFacingEvent(event.type)) return null;
  // Operators by display name only, also in debug mode (`publicOutput`).
  if (event.type === 'turn-end') return { ...event, output: clientOutput(event.output, debug) };
  if (event.type === 'handoff') return { ...event, transition: publicTransition(event.transition) };
  if (debug) return event;
  // A tool's arguments and result are the server's data: clients see which tool runs, not what it handles.
  if (event.type === 'tool-call') {
    const { input: _input, ...rest } = event;
    return rest;
  }
  if (event.type === 'tool-result') {
    const { output: _output, ...rest } = event;
    return rest;
  }
  return event;
}
