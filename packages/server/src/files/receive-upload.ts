import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FileMetadata } from '@treeagent/core';
import type { FileStore, NewFileStream } from '@treeagent/core/adapter';
import busboy from 'busboy';
import { ApiError, invalidRequest } from '../errors/api-error.js';

/** What may be stored: the upload's own limit, and what the quotas leave. */
export interface UploadAllowance {
  /** Largest multipart body. */
  maxBodyBytes: number;
  /** Most bytes the file may have: the smaller of what the session's and the server's quotas leave. */
  maxFileBytes: number;
  /** The error when the file would pass `maxFileBytes`. */
  overQuota: () => ApiError;
}

const MALFORMED =
  'The upload is not valid multipart/form-data (a missing boundary, or a body that does not match it). Send one field named "file".';

/** The file name without any directory part, at most 255 characters, never cut inside a surrogate pair. */
function baseName(name: string): string {
  const base = name.split(/[/\\]/).pop()?.trim() ?? '';
  const kept = (base || 'file').slice(0, 255);
  return /[\uD800-\uDBFF]$/.test(kept) ? kept.slice(0, -1) : kept;
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes.`, {
    details: { maxBytes },
  });
}

/** The bytes of a file part, failing with `error()` once more than `maxBytes` went through. */
async function* limited(
  stream: AsyncIterable<Buffer>,
  maxBytes: number,
  error: () => ApiError,
): AsyncIterable<Uint8Array> {
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += chunk.byteLength;
      if (total > maxBytes) throw error();
      yield chunk;
    }
  } catch (failure) {
    // A cut or malformed body ends the file part with an error: the client's mistake, not a 5xx.
    throw failure instanceof ApiError ? failure : invalidRequest(MALFORMED);
  }
}

/**
 * Streams the `file` field of a multipart request into the store (`putStream` when it has it), so
 * an upload is never held whole in memory: busboy parses the body as it arrives and the store
 * writes it chunk by chunk. Malformed multipart is 400 `INVALID_REQUEST`; a body over
 * `maxBodyBytes` is 413 `PAYLOAD_TOO_LARGE`; a file over what the quotas leave is `overQuota()`.
 * Nothing is stored unless the whole file arrived.
 */
export function receiveUpload(
  request: Request,
  store: FileStore,
  sessionId: string,
  allowance: UploadAllowance,
): Promise<FileMetadata> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
      // Browsers, curl and fetch send a file name as UTF-8 bytes; busboy's default reads it as Latin-1.
      defParamCharset: 'utf8',
      limits: { files: 1, fields: 20, parts: 30, fieldSize: 64 * 1024, headerPairs: 100 },
    });
  } catch {
    return Promise.reject(invalidRequest(MALFORMED));
  }
  const body = request.body;
  if (!body) return Promise.reject(invalidRequest(MALFORMED));
  return new Promise((resolve, reject) => {
    let stored: Promise<FileMetadata> | null = null;
    /** A second file, or a file in another field: the upload is refused and nothing kept. */
    let extraFile = false;
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error);
    };
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || stored) {
        extraFile = true;
        stream.resume();
        return;
      }
      const file: NewFileStream = {
        name: baseName(info.filename ?? ''),
        mimeType: info.mimeType || 'application/octet-stream',
        origin: 'chat',
        sessionId,
        data: limited(stream, allowance.maxFileBytes, allowance.overQuota),
      };
      stored = store.putStream ? store.putStream(file) : bufferedPut(store, file);
      stored.catch((error: unknown) => {
        fail(error);
        stream.resume();
      });
    });
    parser.on('filesLimit', () => {
      extraFile = true;
    });
    parser.on('error', () => fail(invalidRequest(MALFORMED)));
    parser.on('close', () => {
      if (extraFile) {
        const refused = invalidRequest(
          'The upload takes one file, in one field named "file": this one had more files, or a file in another field. Upload each file on its own.',
        );
        // The file already stored is not kept: the client is told to send it again, alone.
        if (stored) stored.then((metadata) => store.delete(metadata.id)).then(() => fail(refused), fail);
        else fail(refused);
      } else if (!stored)
        fail(invalidRequest('The upload needs exactly one field named "file" holding a file.'));
      else
        stored.then((metadata) => {
          settled = true;
          resolve(metadata);
        }, fail);
    });
    let received = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.byteLength;
        if (received > allowance.maxBodyBytes) done(tooLarge(allowance.maxBodyBytes));
        else done(null, chunk);
      },
    });
    counter.on('error', (error) => {
      fail(error);
      parser.destroy();
    });
    Readable.fromWeb(body as NodeReadableStream<Uint8Array>)
      .on('error', (error) => {
        fail(invalidRequest(`The upload could not be read: ${error.message}`));
        parser.destroy();
      })
      .pipe(counter)
      .pipe(parser);
  });
}

/** For stores without `putStream`: the file is gathered in memory first (bounded by the limits). */
async function bufferedPut(store: FileStore, file: NewFileStream): Promise<FileMetadata> {
  const parts: Uint8Array[] = [];
  for await (const part of file.data) parts.push(part);
  return store.put({ ...file, data: new Uint8Array(Buffer.concat(parts)) });
}
