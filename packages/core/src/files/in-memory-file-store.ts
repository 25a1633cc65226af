import { randomUUID } from 'node:crypto';
import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { FileMetadata } from '../protocol/file-metadata.js';
import { storedFileMetadata } from './chunked-upload.js';
import type { FileStore, NewFile, NewFileStream } from './file-store.js';

/** Files in process memory: the reference implementation of `FileStore`. */
export class InMemoryFileStore implements FileStore {
  readonly #files = new Map<string, { metadata: FileMetadata; data: Uint8Array }>();

  async put(file: NewFile): Promise<FileMetadata> {
    const metadata = describe(randomUUID(), file);
    this.#files.set(metadata.id, { metadata, data: Uint8Array.from(file.data) });
    return { ...metadata };
  }

  async metadata(id: string): Promise<FileMetadata | null> {
    const entry = this.#files.get(id);
    return entry ? { ...entry.metadata } : null;
  }

  async read(id: string): Promise<Uint8Array> {
    const entry = this.#files.get(id);
    if (!entry) throw unknownFile(id);
    return Uint8Array.from(entry.data);
  }

  async delete(id: string): Promise<void> {
    this.#files.delete(id);
  }

  async putStream(file: NewFileStream): Promise<FileMetadata> {
    const parts: Uint8Array[] = [];
    for await (const part of file.data) parts.push(Uint8Array.from(part));
    return this.put({ ...file, data: Buffer.concat(parts) });
  }

  async usage(sessionId?: string): Promise<number> {
    let total = 0;
    for (const { metadata } of this.#files.values())
      if (sessionId === undefined || metadata.sessionId === sessionId) total += metadata.size ?? 0;
    return total;
  }

  async sessionFiles(sessionId: string): Promise<FileMetadata[]> {
    return [...this.#files.values()]
      .filter((entry) => entry.metadata.sessionId === sessionId)
      .map((entry) => ({ ...entry.metadata }));
  }

  async deleteSession(sessionId: string): Promise<void> {
    for (const [id, entry] of this.#files) if (entry.metadata.sessionId === sessionId) this.#files.delete(id);
  }
}

/** The metadata of a new file. */
export function describe(id: string, file: NewFile): FileMetadata {
  return storedFileMetadata(id, file, file.data.byteLength);
}

export function unknownFile(id: string): TreeAgentError {
  return new TreeAgentError('UNKNOWN_FILE', `There is no file "${id}".`, { details: { fileId: id } });
}
