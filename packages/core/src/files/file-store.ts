import type { FileMetadata, FileOrigin } from '../protocol/file-metadata.js';

/** A file to store: its bytes and what describes it. */
export interface NewFile {
  name: string;
  mimeType: string;
  data: Uint8Array;
  origin: FileOrigin;
  /** Session the file belongs to; servers only serve a session's files to that session. */
  sessionId?: string;
}

/** A file to store from a stream of bytes (an upload), never held whole in memory. */
export interface NewFileStream extends Omit<NewFile, 'data'> {
  /** The bytes, in order. If the iteration throws, nothing is stored and the error is rethrown. */
  data: AsyncIterable<Uint8Array>;
}

/**
 * Where the bytes of the conversation's files live. Implementations: in memory and on local disk
 * here; object stores can implement the same four methods.
 */
export interface FileStore {
  put(file: NewFile): Promise<FileMetadata>;
  /** The file's metadata, or `null` when there is no such file. */
  metadata(id: string): Promise<FileMetadata | null>;
  /** The file's bytes; throws `UNKNOWN_FILE` when there is no such file. */
  read(id: string): Promise<Uint8Array>;
  delete(id: string): Promise<void>;
  /**
   * Deletes every file of a session (uploads and files made in its turns). Optional: stores that
   * cannot list files by session omit it, and `TreeAgent.deleteSession` then leaves the files.
   */
  deleteSession?(sessionId: string): Promise<void>;
  /**
   * Stores a file as its bytes arrive, holding at most a bounded buffer in memory; the file exists
   * (and `metadata` finds it) only once the whole stream is stored durably. Optional: servers fall
   * back to `put` (buffering the file) for stores without it.
   */
  putStream?(file: NewFileStream): Promise<FileMetadata>;
  /** Bytes stored, for one session or for all: what upload quotas are checked against. Optional. */
  usage?(sessionId?: string): Promise<number>;
  /**
   * The metadata of every stored file of a session, oldest first — uploads no message refers to
   * included (one user's data on request, docs/privacy.md). Optional, like `deleteSession`.
   */
  sessionFiles?(sessionId: string): Promise<FileMetadata[]>;
  /**
   * After a deletion (one user's data on request, docs/privacy.md), removes what deleted rows leave in
   * the storage where the store can: SQLite empties its WAL (freed pages are already zeroed),
   * PostgreSQL runs `VACUUM` on its tables. Optional: stores without it keep what their storage keeps.
   */
  purgeDeleted?(): Promise<void>;
}
