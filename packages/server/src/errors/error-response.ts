import { TreeAgentError } from '@treeagent/core';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { requestLanguage } from '../i18n/request-language.js';
import { ApiError, type ApiErrorCode } from './api-error.js';
import { apiErrorFromEngine } from './engine-error.js';
import { openAiErrorBody } from './openai-error.js';

/** Where the server reports errors it answers with a 5xx status. */
export interface ServerLogger {
  error(message: string, details?: unknown): void;
}

const CODE_BY_STATUS: Record<number, ApiErrorCode> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** Any thrown value as an `ApiError`: API errors as they are, engine errors mapped, the rest 500. */
export function toApiError(error: unknown, debug: boolean): ApiError {
  if (error instanceof ApiError) return error;
  if (TreeAgentError.isInstance(error)) return apiErrorFromEngine(error, debug);
  if (error instanceof HTTPException) {
    return new ApiError(
      error.status,
      CODE_BY_STATUS[error.status] ?? 'INTERNAL',
      error.message || 'HTTP error',
    );
  }
  return new ApiError(
    500,
    'INTERNAL',
    debug && error instanceof Error
      ? error.message
      : 'Internal server error; the server log has the details.',
  );
}

/** True for the OpenAI-compatible paths, which answer with OpenAI-shaped error bodies. */
export function isOpenAiPath(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}

/** The response for an error: the JSON API's body, or OpenAI's under `/v1`. Logs unexpected 5xx errors. */
export function errorResponse(
  c: Context,
  error: unknown,
  options: { debug: boolean; logger: ServerLogger; locale?: string | undefined },
): Response {
  const apiError = toApiError(error, options.debug);
  // Errors the server raised on purpose (ApiError) are logged where they arise, if at all.
  if (apiError.status >= 500 && !(error instanceof ApiError)) {
    options.logger.error(`${c.req.method} ${c.req.path} failed with ${apiError.code}`, error);
  }
  const body = isOpenAiPath(c.req.path)
    ? openAiErrorBody(apiError)
    : apiError.toBody(requestLanguage(c, options.locale));
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
  return c.json(body, apiError.status as ContentfulStatusCode);
}
