import type { AgentEvent } from '../engine/events.js';
import { TreeAgentError } from '../errors/tree-agent-error.js';

/** Callbacks whose (small) output is worth recording in the trace. */
const TRACED_OUTPUTS = new Set(['after', 'beforeRun', 'fallback', 'responseFormat', 'query']);

export interface CallbackCall {
  nodeId: number;
  name: string;
  fn: (...args: any[]) => unknown;
  args: unknown[];
  emit: (event: AgentEvent) => void;
  now: () => number;
}

/**
 * Runs one author callback, sync or async, with start and end events. An exception becomes a
 * `CALLBACK_ERROR` naming the node and the callback (Tree Agent errors keep their code).
 */
export async function invokeCallback({ nodeId, name, fn, args, emit, now }: CallbackCall): Promise<unknown> {
  emit({ type: 'callback-start', nodeId, callback: name });
  const started = now();
  let output: unknown;
  try {
    output = await fn(...args);
  } catch (error) {
    if (TreeAgentError.isInstance(error)) {
      if (error.nodeId !== undefined) throw error;
      throw new TreeAgentError(error.code, error.message, {
        nodeId,
        callback: name,
        cause: error,
        details: error.details,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new TreeAgentError('CALLBACK_ERROR', `The "${name}" callback of node ${nodeId} threw: ${message}`, {
      nodeId,
      callback: name,
      cause: error,
    });
  }
  emit({
    type: 'callback-end',
    nodeId,
    callback: name,
    durationMs: now() - started,
    ...(TRACED_OUTPUTS.has(name) && output !== undefined ? { output: safeCopy(output) } : {}),
  });
  return output;
}

function safeCopy(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return '[unserialisable]';
  }
}
