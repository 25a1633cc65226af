import { TreeAgentError } from '@treeagent/core';

/** What the store was doing when a request failed, for error messages. */
export interface FailedOperation {
  /** e.g. `upsert`, `search`, `scroll`. */
  operation: string;
  /** The Tree Agent collection name. */
  collection: string;
  /** The Qdrant collection it maps to. */
  qdrantCollection: string;
  /** The server URL, for connection errors. */
  url: string;
}

/** The shape of the client's HTTP errors (`ApiError` of @qdrant/openapi-typescript-fetch). */
interface HttpError {
  status: number;
  statusText?: string;
  data?: unknown;
}

/** HTTP status of a Qdrant error response, or `undefined` for other failures. */
export function httpStatus(error: unknown): number | undefined {
  return isHttpError(error) ? error.status : undefined;
}

/** Qdrant's own message, from an error response `{ status: { error }, time }`. */
export function qdrantMessage(error: unknown): string | undefined {
  if (!isHttpError(error)) return undefined;
  const data = error.data;
  if (data && typeof data === 'object') {
    const status = (data as { status?: unknown }).status;
    if (status && typeof status === 'object' && typeof (status as { error?: unknown }).error === 'string') {
      return (status as { error: string }).error;
    }
  }
  if (typeof data === 'string' && data.trim()) return data.trim().slice(0, 500);
  return undefined;
}

/** True for Qdrant's 404 "Not found: Collection `x` doesn't exist!". */
export function isMissingCollection(error: unknown): boolean {
  return (
    httpStatus(error) === 404 &&
    /collection\b.*\b(doesn't|does not) exist|collection\b.*not found/i.test(qdrantMessage(error) ?? '')
  );
}

/** True for Qdrant's 409 "Wrong input: Collection `x` already exists!". */
export function isExistingCollection(error: unknown): boolean {
  return httpStatus(error) === 409 && /already exists/i.test(qdrantMessage(error) ?? '');
}

/** Wraps any failure of a Qdrant request in a `TreeAgentError` with code `VECTOR_STORE`. */
export function vectorStoreError(error: unknown, failed: FailedOperation): TreeAgentError {
  if (TreeAgentError.isInstance(error)) return error;
  const where = `Qdrant ${failed.operation} on collection "${failed.collection}" (Qdrant collection "${failed.qdrantCollection}")`;
  const details: Record<string, unknown> = {
    operation: failed.operation,
    collection: failed.collection,
    qdrantCollection: failed.qdrantCollection,
  };
  if (isHttpError(error)) {
    const qdrant = qdrantMessage(error);
    const message = qdrant ?? (error.statusText || 'no error message');
    // A 404 without Qdrant's error envelope: not a missing collection, but a missing endpoint.
    const hint =
      error.status === 404 && !qdrant
        ? " (no such endpoint: is the URL that of Qdrant's REST API, and is the server Qdrant 1.10 or later?)"
        : '';
    return new TreeAgentError(
      'VECTOR_STORE',
      `${where} failed with HTTP ${error.status}: ${message}${hint}`,
      {
        cause: error,
        details: { ...details, status: error.status, qdrantError: message },
      },
    );
  }
  const reason = connectionFailure(error);
  if (reason) {
    return new TreeAgentError(
      'VECTOR_STORE',
      `${where} failed: cannot reach Qdrant at ${failed.url} (${reason}). Is the server running, and is the URL right?`,
      { cause: error, details: { ...details, url: failed.url } },
    );
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new TreeAgentError('VECTOR_STORE', `${where} failed: ${message}`, { cause: error, details });
}

function isHttpError(error: unknown): error is HttpError {
  return (
    error instanceof Error &&
    typeof (error as Partial<HttpError>).status === 'number' &&
    'data' in (error as object) &&
    'headers' in (error as object)
  );
}

/** `fetch failed` from undici, with the system error underneath (ECONNREFUSED, ENOTFOUND, ...). */
function connectionFailure(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  let cause: unknown = error;
  for (let depth = 0; depth < 4 && cause instanceof Error; depth++) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code))
      return `${code}: ${cause.message}`;
    if (cause instanceof AggregateError && cause.errors.length) cause = cause.errors[0];
    else cause = cause.cause;
  }
  if (error.name === 'QdrantClientTimeoutError') return `timed out: ${error.message}`;
  if (error instanceof TypeError && error.message === 'fetch failed') return error.message;
  return undefined;
}
