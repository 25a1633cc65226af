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
  // Uploads are streamed (never buffered here): a declared length over the limit is refused at
  // once, and the upload route counts the bytes as they arrive.
  const upload: MiddlewareHandler = async (c, next) => {
    const length = c.req.header('content-length');
    if (length !== undefined && !c.req.header('transfer-encoding') && Number(length) > options.uploadBytes)
      tooLarge(options.uploadBytes);
    await next();
  };
  return (c, next) => (options.isUpload(c.req.path, c.req.method) ? upload(c, next) : json(c, next));
}
