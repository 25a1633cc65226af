import type { AgentEvent } from '../protocol/events.js';

const marker = Symbol.for('treeagent.error');

/** Stable machine-readable error codes. Clients can switch on them; they never change meaning. */
export type TreeAgentErrorCode =
  | 'TREE_VALIDATION'
  | 'CALLBACK_ERROR'
  | 'INVALID_CALLBACK_OUTPUT'
  | 'LOOP'
  | 'NO_MATCH'
  | 'UNKNOWN_LINK'
  | 'UNKNOWN_NODE'
  | 'INVALID_STEP'
  | 'SESSION_STATE'
  | 'SESSION_STORE'
  | 'SESSION_CONFLICT'
  | 'EMBEDDER'
  | 'MODEL'
  | 'MODEL_NOT_CONFIGURED'
  | 'VECTOR_STORE'
  | 'FILTER'
  | 'UNKNOWN_FILE'
  | 'INVALID_INPUT'
  | 'ABORTED'
  | 'TIMEOUT';

export interface TreeAgentErrorOptions {
  cause?: unknown;
  /** Node where the problem was found, when there is one. */
  nodeId?: number;
  /** Callback that failed or returned a bad value. */
  callback?: string;
  /** Extra typed details, serialised by `toJSON()`. */
  details?: Record<string, unknown>;
}

/**
 * Base class of every error the framework raises. Check with `TreeAgentError.isInstance(e)`,
 * which works across copies of the package, and switch on `code`.
 */
export class TreeAgentError extends Error {
  readonly [marker] = true;
  readonly code: TreeAgentErrorCode;
  readonly nodeId: number | undefined;
  readonly callback: string | undefined;
  readonly details: Record<string, unknown>;
  /**
   * The events of the turn that failed, up to and including the final `error` event, when the
   * error comes out of `TreeAgent.send` or `stream`: why the agent went where it went before it
   * failed. Not serialised by `toJSON()` (they may hold what the user wrote).
   */
  events: AgentEvent[] | undefined;

  constructor(code: TreeAgentErrorCode, message: string, options: TreeAgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TreeAgentError';
    this.code = code;
    this.nodeId = options.nodeId;
    this.callback = options.callback;
    this.details = options.details ?? {};
  }

  /** True for any error raised by Tree Agent, even from another copy of the package. */
  static isInstance(error: unknown): error is TreeAgentError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  /** Whether `error` is a Tree Agent error with the given code. */
  static hasCode(error: unknown, code: TreeAgentErrorCode): error is TreeAgentError {
    return TreeAgentError.isInstance(error) && error.code === code;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.nodeId === undefined ? {} : { nodeId: this.nodeId }),
      ...(this.callback === undefined ? {} : { callback: this.callback }),
      ...(Object.keys(this.details).length ? { details: this.details } : {}),
      ...(this.cause === undefined ? {} : { cause: describeCause(this.cause) }),
    };
  }
}

function describeCause(cause: unknown): unknown {
  if (TreeAgentError.isInstance(cause)) return cause.toJSON();
  if (cause instanceof Error) return { name: cause.name, message: cause.message };
  return String(cause);
}
