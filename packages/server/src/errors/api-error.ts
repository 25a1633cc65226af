import type { ApiErrorCode, ApiErrorDetails, ErrorBody } from '../api-types.js';
import { serverMessage } from '../i18n/server-messages.js';

export type { ApiErrorCode, ApiErrorDetails, ErrorBody };

/**
 * An error the server answers with: an HTTP status, a stable `code` (an `ApiErrorCode` or a
 * `TreeAgentError` code), a message saying what was wrong and how to fix it, and optional details.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ApiErrorDetails | undefined;
  /** Headers to add to the error response (for example `Retry-After`). */
  readonly headers: Record<string, string>;
  /** The customer-visible message: a key of the `server` catalogs and its values (`userMessage` of the body). */
  readonly userMessage: UserMessage | undefined;

  constructor(
    status: number,
    code: ApiErrorCode | (string & {}),
    message: string,
    options: {
      details?: ApiErrorDetails;
      headers?: Record<string, string>;
      cause?: unknown;
      userMessage?: UserMessage;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.userMessage = options.userMessage;
  }

  /**
   * The JSON body of this error, with `userMessage` in `language` when the error has one for
   * customers (a 5xx error always has: "something went wrong, try again").
   */
  toBody(language = 'en'): ErrorBody {
    const user = this.userMessage ?? (this.status >= 500 ? { key: 'serverError' } : undefined);
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
        ...(user ? { userMessage: serverMessage(language, user.key, user.values) } : {}),
      },
    };
  }
}

/** A message for customers: a key of the `server` catalogs (`packages/server/locales/<language>/server.json`) and its values. */
export interface UserMessage {
  key: string;
  values?: Record<string, unknown>;
}

export function invalidRequest(message: string, details?: ApiErrorDetails): ApiError {
  return new ApiError(400, 'INVALID_REQUEST', message, details ? { details } : {});
}

export function notFound(message: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', message);
}

/** 503 `SHUTTING_DOWN`: for a message refused during shutdown, or a turn the shutdown cancelled. */
export function shuttingDown(what: 'refused' | 'cancelled' = 'refused'): ApiError {
  const problem =
    what === 'refused'
      ? 'The server is shutting down and accepts no new messages'
      : 'The server shut down before the agent answered: the turn was cancelled';
  return new ApiError(
    503,
    'SHUTTING_DOWN',
    `${problem}; nothing was saved. Send the message again (to another instance, or after the restart).`,
    { headers: { 'Retry-After': '5' }, userMessage: { key: 'shuttingDown' } },
  );
}
