import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors/api-error.js';

function tooLarge(maxBytes: number): never {
  throw new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes.`, {
    details: { maxBytes },
  });
}

/**
 * Limits request bodies: `uploadBytes` for file uploads (paths for which `isUpload` is true),
 * `jsonBytes` for everything else. Over the limit: 413 `PAYLOAD_TOO_LARGE`.
 */
export function bodyLimits(options: {
  jsonBytes: number;
  uploadBytes: number;
  isUpload: (path: string, method: string) => boolean;
}): MiddlewareHandler {
  const json = bodyLimit({ maxSize: options.jsonBytes, onError: () => tooLarge(options.jsonBytes) });
  const upload = bodyLimit({ maxSize: options.uploadBytes, onError: () => tooLarge(options.uploadBytes) });
  return (c, next) => (options.isUpload(c.req.path, c.req.method) ? upload(c, next) : json(c, next));
}
