import type { FileMetadata } from '../protocol/file-metadata.js';
import type { NewFile, NewFileStream } from './file-store.js';

/**
 * The bookkeeping of a file store that keeps a file as numbered chunks (SQLite, PostgreSQL): cuts
 * the stream into chunks of exactly `chunkBytes` (the last one shorter), hands each to `writeChunk`
 * in order with its sequence number (0, 1, …) and waits for it, then returns the bytes counted — the
 * size that the store records and `usage` sums for upload quotas. At most one chunk is held in
 * memory. An error of the stream or of `writeChunk` is rethrown; the caller removes what was written.
 *
 * @example
 * const size = await writeInChunks(file.data, 1024 * 1024, (chunk, seq) => insertChunk(id, seq, chunk));
 */
export async function writeInChunks(
  data: AsyncIterable<Uint8Array>,
  chunkBytes: number,
  writeChunk: (chunk: Buffer, seq: number) => unknown,
): Promise<number> {
  let size = 0;
  let seq = 0;
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const chunk = Buffer.concat(pending, pendingBytes);
    pending.length = 0;
    pendingBytes = 0;
    await writeChunk(chunk, seq++);
  };
  for await (const part of data) {
    for (let offset = 0; offset < part.byteLength; ) {
      const take = Math.min(part.byteLength - offset, chunkBytes - pendingBytes);
      pending.push(part.subarray(offset, offset + take));
      pendingBytes += take;
      offset += take;
      size += take;
      if (pendingBytes === chunkBytes) await flush();
    }
  }
  await flush();
  return size;
}

/** The bytes given to `put`, as the stream `putStream` takes: stores implement `put` with it. */
export async function* singlePart(data: Uint8Array): AsyncIterable<Uint8Array> {
  yield data;
}

/** The metadata of a file stored with `size` bytes. */
export function storedFileMetadata(
  id: string,
  file: Omit<NewFile, 'data'> | Omit<NewFileStream, 'data'>,
  size: number,
): FileMetadata {
  return {
    id,
    name: file.name,
    mimeType: file.mimeType,
    size,
    origin: file.origin,
    ...(file.sessionId === undefined ? {} : { sessionId: file.sessionId }),
  };
}
