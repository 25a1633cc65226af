import type { ErrorSummary } from '../protocol/error-summary.js';
import { TreeAgentError } from './tree-agent-error.js';
import { userFrame } from './user-frame.js';

/**
 * The summary of an error for traces and tools: code, message, node and callback, and the first
 * frame in the author's code of the exception behind it (the first cause that is not a Tree Agent
 * error, such as what a callback threw). Anything that is not a Tree Agent error is `INTERNAL`.
 */
export function summarizeError(error: unknown): ErrorSummary {
  if (!TreeAgentError.isInstance(error)) {
    const frame = userFrame(error);
    return {
      code: 'INTERNAL',
      message: error instanceof Error ? error.message : String(error),
      ...(frame ? { frame } : {}),
    };
  }
  let frame: string | undefined;
  for (let cause: unknown = error.cause, depth = 0; cause !== undefined && depth < 8; depth++) {
    if (!TreeAgentError.isInstance(cause)) {
      frame = userFrame(cause);
      break;
    }
    cause = cause.cause;
  }
  return {
    code: error.code,
    message: error.message,
    ...(error.nodeId === undefined ? {} : { nodeId: error.nodeId }),
    ...(error.callback === undefined ? {} : { callback: error.callback }),
    ...(frame ? { frame } : {}),
  };
}
