/**
 * What the trace, the debug view, `treeagent chat --debug` and `treeagent test` show of an error:
 * its code and message, where it happened and, for an exception thrown by an author's callback,
 * the first stack frame in the author's own code.
 */
export interface ErrorSummary {
  code: string;
  message: string;
  /** Node whose step or callback failed. */
  nodeId?: number;
  /** Callback that threw or returned a bad value. */
  callback?: string;
  /** First frame of the stack in the author's code, as `fn (path/to/tree.ts:12:9)`. */
  frame?: string;
}

/** One line for terminals: `CODE in the "before" callback of node 5: message (at fn (file:12:9))`. */
export function formatErrorSummary(summary: ErrorSummary): string {
  const where =
    summary.callback !== undefined && summary.nodeId !== undefined
      ? ` in the "${summary.callback}" callback of node ${summary.nodeId}`
      : summary.nodeId !== undefined
        ? ` at node ${summary.nodeId}`
        : '';
  return `${summary.code}${where}: ${summary.message}${summary.frame ? ` (at ${summary.frame})` : ''}`;
}
