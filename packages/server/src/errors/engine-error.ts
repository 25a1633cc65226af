import { ApiError } from './api-error.js';

/** An engine error as it travels in an `error` event: code, message, and where it happened. */
export interface EngineErrorSummary {
  /** The `TreeAgentError` code (`CALLBACK_ERROR`, `ABORTED`, …). */
  code: string;
  /** What went wrong and how to fix it. */
  message: string;
  /** The node it happened at, if any. */
  nodeId?: number;
  /** The callback it happened in, if any. */
  callback?: string;
}

/**
 * HTTP status of each engine error code. `NO_MATCH` is never an error (the turn ends with
 * status `no-match`); codes not listed are server-side problems: 500, with the code.
 */
const STATUS_BY_CODE: Record<string, number> = {
  INVALID_INPUT: 400,
  SESSION_CONFLICT: 409,
  DUPLICATE_DELIVERY: 409,
  HANDOFF: 409,
  ABORTED: 499,
  SESSION_STORE: 503,
  TIMEOUT: 504,
};

/** The HTTP status for an engine error code. */
export function statusOfEngineCode(code: string): number {
  return STATUS_BY_CODE[code] ?? 500;
}

/**
 * Turns an engine error into the API error the client sees. Outside debug mode the message of a
 * server-side (5xx) error is replaced by a generic one naming the code, since it may carry
 * internals (callback messages, store errors); the full error goes to the server's logger.
 */
export function apiErrorFromEngine(error: EngineErrorSummary, debug: boolean): ApiError {
  const status = statusOfEngineCode(error.code);
  const where = {
    ...(error.nodeId === undefined ? {} : { nodeId: error.nodeId }),
    ...(error.callback === undefined ? {} : { callback: error.callback }),
  };
  if (status >= 500 && !debug) {
    return new ApiError(
      status,
      error.code,
      `The agent could not answer (${error.code}); nothing was saved. The server log has the details.`,
    );
  }
  return new ApiError(status, error.code, error.message, Object.keys(where).length ? { details: where } : {});
}
