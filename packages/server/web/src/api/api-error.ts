import type { ApiErrorDetails, ErrorBody } from '../../../src/api-types';

/** An error answered by the server (`{ error: { code, message, details? } }`) or by the network. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status; 0 when no answer came (network, no session). */
    readonly status: number,
    /** The server's stable code (`NOT_FOUND`, `CALLBACK_ERROR`…), or `NETWORK`, `HTTP_<status>`. */
    readonly code: string,
    message: string,
    readonly details?: ApiErrorDetails,
    /** The `Retry-After` header, in seconds, when the server sent one. */
    readonly retryAfter?: string,
    /** The server's message for the customer, in the page's language (`userMessage` of the body). */
    readonly userMessage?: string,
  ) {
    super(message);
  }
}

/** The `ApiError` of a failed response, from its JSON error body or else its status. */
export async function errorFrom(response: Response): Promise<ApiError> {
  let body: Partial<ErrorBody> | null = null;
  try {
    body = (await response.json()) as Partial<ErrorBody>;
  } catch {
    // Not JSON: described from the status below.
  }
  const error = body && typeof body === 'object' ? body.error : undefined;
  return new ApiError(
    response.status,
    error?.code ?? `HTTP_${response.status}`,
    error?.message ?? (response.statusText || `The server answered ${response.status}.`),
    error?.details,
    response.headers.get('Retry-After') ?? undefined,
    error?.userMessage,
  );
}

/** Whether `error` is the rejection of an aborted fetch or stream. */
export function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}
