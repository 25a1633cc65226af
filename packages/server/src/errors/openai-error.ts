import type { ApiError } from './api-error.js';

/** The error body of the OpenAI-compatible endpoints, shaped like OpenAI's. */
export interface OpenAiErrorBody {
  error: { message: string; type: string; param: string | null; code: string };
}

/** OpenAI's error `type` for an HTTP status. */
function openAiErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

/** `{ error: { message, type, param, code } }` with the same stable `code` as the JSON API. */
export function openAiErrorBody(error: ApiError): OpenAiErrorBody {
  return {
    error: {
      message: error.message,
      type: openAiErrorType(error.status),
      param: paramOf(error),
      code: error.code,
    },
  };
}

/** The request field at fault: `details.param`, else the first validation issue's path. */
function paramOf(error: ApiError): string | null {
  const details = error.details ?? {};
  if (details.param !== undefined) return details.param;
  const path = details.issues?.[0]?.path;
  return path && path !== '(body)' ? path : null;
}
