import { describe, expect, it } from 'vitest';
import { ApiError, errorFrom, isAbort } from './api-error';

describe('ApiError from a failed answer', () => {
  it("keeps the server's code, message, details and Retry-After", async () => {
    const response = new Response(
      JSON.stringify({
        error: { code: 'RATE_LIMITED', message: 'Too many requests: wait.', details: { limit: 5 } },
      }),
      { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '30' } },
    );
    const error = await errorFrom(response);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
      message: 'Too many requests: wait.',
      retryAfter: '30',
    });
    expect(error.details).toEqual({ limit: 5 });
  });

  it('describes an answer that is not JSON from its status', async () => {
    const error = await errorFrom(
      new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    expect(error).toMatchObject({
      status: 502,
      code: 'HTTP_502',
      message: 'Bad Gateway',
      retryAfter: undefined,
    });
    const bare = await errorFrom(new Response(null, { status: 500 }));
    expect(bare.message).toBe('The server answered 500.');
  });

  it('tells an aborted request from other failures', () => {
    expect(isAbort(new DOMException('stopped', 'AbortError'))).toBe(true);
    expect(isAbort(new Error('boom'))).toBe(false);
    expect(isAbort('AbortError')).toBe(false);
  });
});
