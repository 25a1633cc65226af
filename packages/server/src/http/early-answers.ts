import type { MiddlewareHandler } from 'hono';

/**
 * For answers sent before the request body was read (401, 403, 404, 413, 429, …): adds
 * `Connection: close`, so the client opens a new connection for its next request instead of
 * sending it on a socket whose unread body the server is about to drop.
 */
export function closeAfterEarlyAnswers(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const request = c.req.raw;
    const hasBody =
      request.headers.has('transfer-encoding') || Number(request.headers.get('content-length') ?? 0) > 0;
    // A 413 may come while the body is being read (an upload over its limit or quota): its rest is
    // not read either.
    if (hasBody && (!request.bodyUsed || c.res.status === 413)) c.res.headers.set('Connection', 'close');
  };
}
