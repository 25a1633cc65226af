import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { AgentEvent } from '../protocol/events.js';

/** Callbacks whose (small) output is worth recording in the trace. */
const TRACED_OUTPUTS = new Set(['after', 'beforeRun', 'fallback', 'responseFormat', 'query']);

/** Limits that apply to every callback of one turn. */
export interface CallbackLimits {
  /** Longest a callback may take, in milliseconds; `0` or absent: no limit. */
  timeoutMs?: number;
}

export interface CallbackCall {
  nodeId: number;
  name: string;
  fn: (...args: any[]) => unknown;
  args: unknown[];
  emit: (event: AgentEvent) => void;
  now: () => number;
  /**
   * The limits of this call: the turn's (`Turn.call` passes `callbackTimeoutMs`), or a caller's own.
   * Passed, not found in an `AsyncLocalStorage`: with one, every promise of the process pays
   * Node's promise hooks.
   */
  limits?: CallbackLimits;
}

/**
 * Runs one author callback, sync or async, with start and end events. An exception becomes a
 * `CALLBACK_ERROR` naming the node and the callback (Tree Agent errors keep their code). An async
 * callback that outlives the turn's `callbackTimeoutMs` becomes a `TIMEOUT` (the promise is
 * abandoned: JavaScript cannot stop it). A synchronous callback that blocks the event loop cannot
 * be interrupted.
 */
export async function invokeCallback({
  nodeId,
  name,
  fn,
  args,
  emit,
  now,
  limits,
}: CallbackCall): Promise<unknown> {
  emit({ type: 'callback-start', nodeId, callback: name });
  const started = now();
  let output: unknown;
  try {
    output = await bounded(fn(...args), nodeId, name, limits ?? {});
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

/**
 * Awaits a callback's result within the time limit. The turn's cancellation deliberately does not
 * cut a callback short: the next turn of the session waits for it, so the callbacks of one session
 * never overlap (a stuck callback is bounded by the time limit instead).
 */
function bounded(result: unknown, nodeId: number, name: string, limits: CallbackLimits): Promise<unknown> {
  const { timeoutMs } = limits;
  if (!isThenable(result) || timeoutMs === undefined || !(timeoutMs > 0) || !Number.isFinite(timeoutMs))
    return Promise.resolve(result);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new TreeAgentError(
          'TIMEOUT',
          `The "${name}" callback of node ${nodeId} did not finish within ${timeoutMs} ms (callbackTimeoutMs).`,
          { nodeId, callback: name, details: { timeoutMs } },
        ),
      );
    }, timeoutMs);
    timer.unref?.();
    Promise.resolve(result).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function safeCopy(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value));
  } catch {
    return '[unserialisable]';
  }
}
