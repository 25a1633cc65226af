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
  | 'TIMEOUT'
  | 'HANDOFF'
  | 'DUPLICATE_DELIVERY';

/** Details of a failure of a store or backend: the common fields, plus what the backend adds (`sqliteCode`, `pgCode`, `status`, …). */
export type BackendErrorDetails = {
  sessionId?: string;
  /** What was being done: `lock`, `commit`, `search`, … */
  operation?: string;
  collection?: string;
  /** The record at fault (a chunk id). */
  id?: string | number;
};

/** Known fields typed; anything else a backend or a callback adds stays readable as `unknown`. */
type Open<T> = T & Readonly<Record<string, unknown>>;

/**
 * The `details` of each error code. `TreeAgentError.hasCode(error, 'NO_MATCH')` narrows
 * `error.details` to the entry of its code, so `error.details.agentId` is a `number` with no cast.
 * Details are plain data (they go into `toJSON()`).
 */
export type TreeAgentErrorDetailsByCode = {
  /** `problems`: every problem of the definition (from `defineTree`); `unknown`: callback ids not in a JSON tree. */
  TREE_VALIDATION: Open<{
    problems?: readonly { path: string; message: string; fix?: string; nodeId?: number }[];
    unknown?: string[];
  }>;
  CALLBACK_ERROR: Open<{}>;
  /** `field` of the output at fault and the `expected` value, or the `fileId` of a file of another session. */
  INVALID_CALLBACK_OUTPUT: Open<{ field?: string; expected?: string; fileId?: string }>;
  LOOP: Open<{}>;
  /** The agent in which exploration found nothing. */
  NO_MATCH: Open<{ agentId: number }>;
  /** The link asked for and the links the node has. */
  UNKNOWN_LINK: Open<{ link: string; known: string[] }>;
  /** The node id a callback targeted. */
  UNKNOWN_NODE: Open<{ nodeTarget: number }>;
  INVALID_STEP: Open<{}>;
  /** The `sessionState` key whose value cannot be stored. */
  SESSION_STATE: Open<{ key?: string }>;
  SESSION_STORE: Open<BackendErrorDetails>;
  /** The session whose version moved. */
  SESSION_CONFLICT: Open<{ sessionId?: string }>;
  EMBEDDER: Open<BackendErrorDetails>;
  MODEL: Open<{ modelId?: string }>;
  /** The model name the node asked for. */
  MODEL_NOT_CONFIGURED: Open<{ model: string }>;
  VECTOR_STORE: Open<BackendErrorDetails>;
  /** Dotted path of the filter clause at fault. */
  FILTER: Open<{ path: string }>;
  UNKNOWN_FILE: Open<{ fileId: string }>;
  /** The input at fault, by name (`selectedOption` and the `options` it should be one of, `dimensions`, …). */
  INVALID_INPUT: Open<{}>;
  ABORTED: Open<{ sessionId?: string }>;
  /** The limit that was exceeded, and the model for a model call. */
  TIMEOUT: Open<{ timeoutMs?: number; modelId?: string }>;
  /**
   * An operator action that does not fit the session's handoff: `not-handed-off` (people do not have
   * it), `claimed` (another operator has it: `operatorId`), `not-claimed` (claim it first).
   */
  HANDOFF: Open<{
    sessionId: string;
    state: 'not-handed-off' | 'claimed' | 'not-claimed';
    operatorId?: string;
  }>;
  /**
   * A commit carried an inbound receipt (a platform's message id) the store already holds: the update
   * was redelivered and its turn already ran (docs/channels.md, "Exactly once"). Nothing was written.
   */
  DUPLICATE_DELIVERY: Open<{ sessionId: string; channel: string; messageId: string }>;
};

/**
 * The details of errors with code `C`. For an error whose code is not narrowed every field reads
 * as `unknown`: check the code first (`TreeAgentError.hasCode`).
 */
export type TreeAgentErrorDetails<C extends TreeAgentErrorCode = TreeAgentErrorCode> =
  TreeAgentErrorDetailsByCode[C];

export interface TreeAgentErrorOptions<C extends TreeAgentErrorCode = TreeAgentErrorCode> {
  cause?: unknown;
  /** Node where the problem was found, when there is one. */
  nodeId?: number;
  /** Callback that failed or returned a bad value. */
  callback?: string;
  /** The typed details of the code (see `TreeAgentErrorDetailsByCode`), serialised by `toJSON()`. */
  details?: TreeAgentErrorDetails<C>;
}

/**
 * Base class of every error the framework raises. Check with `TreeAgentError.isInstance(e)`,
 * which works across copies of the package, and switch on `code`.
 */
export class TreeAgentError<C extends TreeAgentErrorCode = TreeAgentErrorCode> extends Error {
  readonly [marker] = true;
  readonly code: C;
  readonly nodeId: number | undefined;
  readonly callback: string | undefined;
  readonly details: TreeAgentErrorDetails<C>;
  /**
   * The events of the turn that failed, up to and including the final `error` event, when the
   * error comes out of `TreeAgent.send` or `stream`: why the agent went where it went before it
   * failed. Not serialised by `toJSON()` (they may hold what the user wrote).
   */
  events: AgentEvent[] | undefined;

  constructor(code: C, message: string, options: TreeAgentErrorOptions<C> = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TreeAgentError';
    this.code = code;
    this.nodeId = options.nodeId;
    this.callback = options.callback;
    this.details = options.details ?? ({} as TreeAgentErrorDetails<C>);
  }

  /** True for any error raised by Tree Agent, even from another copy of the package. */
  static isInstance(error: unknown): error is TreeAgentError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }

  /**
   * Whether `error` is a Tree Agent error with the given code; narrows `error.details` to that code's.
   * @example
   * if (TreeAgentError.hasCode(error, 'NO_MATCH')) console.log(error.details.agentId);
   */
  static hasCode<C extends TreeAgentErrorCode>(error: unknown, code: C): error is TreeAgentError<C> {
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
