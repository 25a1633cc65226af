import { type Context, Hono } from 'hono';
import { z } from 'zod';
import type { UploadedFile } from '../api-types.js';
import { ApiError, invalidRequest } from '../errors/api-error.js';
import { validate } from '../http/read-json.js';
import type { Services } from '../services.js';
import { receiveUpload, type UploadAllowance } from './receive-upload.js';
import { FileId, fileUrl, findSessionFile } from './session-files.js';

/** Types a browser may show inline; anything else downloads, so an uploaded page never runs in the site's origin. */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
]);

function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** What an upload to `sessionId` may add: the upload limit, and what the quotas leave. */
export async function uploadAllowance(services: Services, sessionId: string): Promise<UploadAllowance> {
  const store = services.agent.fileStore;
  const { maxUploadBytes, sessionQuotaBytes, totalQuotaBytes } = services.limits;
  const [sessionUsed, totalUsed] = store.usage
    ? await Promise.all([store.usage(sessionId), store.usage()])
    : [0, 0];
  const sessionLeft = sessionQuotaBytes - sessionUsed;
  const totalLeft = totalQuotaBytes - totalUsed;
  const quotaLeft = Math.max(0, Math.min(sessionLeft, totalLeft));
  const overQuota = () =>
    sessionLeft <= totalLeft
      ? new ApiError(
          413,
          'QUOTA_EXCEEDED',
          `This session's files may take at most ${sessionQuotaBytes} bytes; ${Math.max(0, sessionLeft)} are left. Delete the session (DELETE /api/v1/sessions/{id}) or upload a smaller file.`,
          {
            details: {
              quota: 'session',
              quotaBytes: sessionQuotaBytes,
              remainingBytes: Math.max(0, sessionLeft),
            },
          },
        )
      : new ApiError(
          413,
          'QUOTA_EXCEEDED',
          'The server has no room for this file (its file quota is used up); retry later or ask the operator.',
          { details: { quota: 'server', remainingBytes: Math.max(0, totalLeft) } },
        );
  if (quotaLeft === 0) throw overQuota();
  return { maxBodyBytes: maxUploadBytes, maxFileBytes: Math.min(quotaLeft, maxUploadBytes), overQuota };
}

/**
 * `POST /sessions/:id/files` (multipart, one `file` field) → 201 `FileMetadata` (origin `chat`,
 * the session's id, a download `url`); `GET /sessions/:id/files/:fileId` → the bytes. Only the
 * session's own files are served: any other id is a 404.
 */
export function fileRoutes(services: Services): Hono {
  const routes = new Hono();
  const store = services.agent.fileStore;

  routes.post('/:id/files', async (c) => {
    const sessionId = c.req.param('id');
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
      throw invalidRequest('Upload files as multipart/form-data with one field named "file".');
    }
    const metadata = await receiveUpload(
      c.req.raw,
      store,
      sessionId,
      await uploadAllowance(services, sessionId),
    );
    const uploaded: UploadedFile = { ...metadata, url: fileUrl(sessionId, metadata.id) };
    return c.json(uploaded, 201);
  });

  routes.get('/:id/files/:fileId', (c) => serveSessionFile(c, services, c.req.param('id')));

  return routes;
}

/** Answers one file of `sessionId` (any other id is 404), inline only for harmless types, never cached. */
export async function serveSessionFile(c: Context, services: Services, sessionId: string): Promise<Response> {
  const store = services.agent.fileStore;
  const fileId = validate(z.object({ fileId: FileId }), { fileId: c.req.param('fileId') }, 'file id').fileId;
  const metadata = await findSessionFile(store, sessionId, fileId);
  const data = await store.read(fileId);
  const inline = INLINE_TYPES.has(metadata.mimeType) && c.req.query('download') === undefined;
  return c.body(new Uint8Array(data), 200, {
    'Content-Type': metadata.mimeType,
    'Content-Length': String(data.byteLength),
    'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', metadata.name),
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cache-Control': 'private, no-store',
  });
}
