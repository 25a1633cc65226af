import { Hono } from 'hono';
import { z } from 'zod';
import type { UploadedFile } from '../api-types.js';
import { invalidRequest } from '../errors/api-error.js';
import { FileId, fileUrl, findSessionFile } from '../files/session-files.js';
import { validate } from '../http/read-json.js';
import type { Services } from '../services.js';

/** Types a browser may show inline; anything else downloads, so an uploaded page never runs in the site's origin. */
const INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
]);

/** The file name without any directory part, at most 255 characters. */
function baseName(name: string): string {
  const base = name.split(/[/\\]/).pop()?.trim() ?? '';
  return (base || 'file').slice(0, 255);
}

function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
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
    let form: Awaited<ReturnType<typeof c.req.parseBody>>;
    try {
      form = await c.req.parseBody({ all: true });
    } catch {
      throw invalidRequest(
        'The upload is not valid multipart/form-data (a missing boundary, or a body that does not match it). Send one field named "file".',
      );
    }
    const file = form.file;
    if (!(file instanceof File)) {
      throw invalidRequest('The upload needs exactly one field named "file" holding a file.');
    }
    const metadata = await store.put({
      name: baseName(file.name),
      mimeType: file.type || 'application/octet-stream',
      data: new Uint8Array(await file.arrayBuffer()),
      origin: 'chat',
      sessionId,
    });
    const uploaded: UploadedFile = { ...metadata, url: fileUrl(sessionId, metadata.id) };
    return c.json(uploaded, 201);
  });

  routes.get('/:id/files/:fileId', async (c) => {
    const sessionId = c.req.param('id');
    const fileId = validate(
      z.object({ fileId: FileId }),
      { fileId: c.req.param('fileId') },
      'file id',
    ).fileId;
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
  });

  return routes;
}
