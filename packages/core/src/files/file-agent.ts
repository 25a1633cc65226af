import { TreeAgentError } from '../errors/tree-agent-error.js';
import type { FileMetadata, FileOrigin } from '../protocol/file-metadata.js';
import type { RetrievedChunk } from '../protocol/retrieved-chunk.js';
import type { FileStore } from './file-store.js';

/** Payload key of a chunk that stands for a file: `extra.file = { id, name, mimeType, size? }`. */
export const CHUNK_FILE_KEY = 'file';

/** What the File Agent starts an interaction with. */
export interface FileAgentInit {
  /** Files attached to the user's message of this interaction (origin `chat`). */
  attachments?: readonly FileMetadata[];
  /** The files of the conversation so far, as the session kept them. */
  known?: readonly FileMetadata[];
  /** Where `create` stores files and `read` reads them. */
  store?: FileStore;
  /** The session the files belong to (stamped on the files `create` stores). */
  sessionId?: string;
}

/**
 * The files of the conversation for callbacks (docs/concepts.md §9, File Agent): those the user
 * uploaded (in this message or earlier ones, origin `chat`), those made in code (`generated`) and
 * those behind the chunks query nodes retrieved (`rag`: a chunk whose `extra.file` references a
 * file). They are kept with the session, so a later interaction sees them all; a failed
 * interaction adds none.
 */
export class FileAgent {
  /** Files attached to the user's message of this interaction. */
  readonly attachments: readonly FileMetadata[];
  readonly #files = new Map<string, FileMetadata>();
  readonly #store: FileStore | undefined;
  readonly #sessionId: string | undefined;

  constructor(init: FileAgentInit = {}) {
    this.attachments = init.attachments ?? [];
    this.#store = init.store;
    this.#sessionId = init.sessionId;
    for (const file of init.known ?? []) this.#files.set(file.id, file);
    for (const file of this.attachments) this.#files.set(file.id, file);
  }

  /** Stores a file made in code (a report, a receipt…) and registers it; attach it to an emit's output. */
  async create(file: { name: string; mimeType: string; data: Uint8Array | string }): Promise<FileMetadata> {
    const data = typeof file.data === 'string' ? new TextEncoder().encode(file.data) : file.data;
    const metadata = await this.#requireStore().put({
      name: file.name,
      mimeType: file.mimeType,
      data,
      origin: 'generated',
      ...(this.#sessionId === undefined ? {} : { sessionId: this.#sessionId }),
    });
    return this.add(metadata);
  }

  /** The bytes of a file of the conversation. */
  async read(file: FileMetadata | string): Promise<Uint8Array> {
    return this.#requireStore().read(typeof file === 'string' ? file : file.id);
  }

  /** Registers a file (for example one produced by a callback) so later nodes and interactions can use it. */
  add(file: FileMetadata): FileMetadata {
    this.#files.set(file.id, file);
    return file;
  }

  /**
   * Registers the files behind retrieved chunks (a chunk's `extra.file`, origin `rag`) and returns
   * them, one per file. The engine calls it with every query node's results.
   */
  addFromChunks(chunks: readonly RetrievedChunk[]): FileMetadata[] {
    const found = new Map<string, FileMetadata>();
    for (const chunk of chunks) {
      const file = fileOfChunk(chunk);
      if (file && !found.has(file.id)) found.set(file.id, this.add(file));
    }
    return [...found.values()];
  }

  get(id: string): FileMetadata | undefined {
    return this.#files.get(id);
  }

  /** Finds a file by its original name (`report.pdf`), as `{{report.pdf}}` placeholders do; the latest wins. */
  byName(name: string): FileMetadata | undefined {
    let found: FileMetadata | undefined;
    for (const file of this.#files.values()) if (file.name === name) found = file;
    return found;
  }

  /** Every file of the conversation, oldest first, optionally only those of one origin. */
  list(origin?: FileOrigin): FileMetadata[] {
    const all = [...this.#files.values()];
    return origin ? all.filter((file) => file.origin === origin) : all;
  }

  #requireStore(): FileStore {
    if (!this.#store) {
      throw new TreeAgentError(
        'INVALID_INPUT',
        'No file store is configured: pass fileStore to new TreeAgent(...) to create or read files.',
      );
    }
    return this.#store;
  }
}

/**
 * The file a chunk stands for: its `extra.file` (`{ id, name, mimeType, size? }`, the file in the
 * agent's `FileStore`), as a `FileMetadata` of origin `rag`; `undefined` for a chunk without one.
 */
export function fileOfChunk(chunk: RetrievedChunk): FileMetadata | undefined {
  const reference = chunk.extra?.[CHUNK_FILE_KEY];
  if (typeof reference !== 'object' || reference === null) return undefined;
  const { id, name, mimeType, size } = reference as Record<string, unknown>;
  if (typeof id !== 'string' || id === '' || typeof name !== 'string' || name === '') return undefined;
  return {
    id,
    name,
    mimeType: typeof mimeType === 'string' && mimeType ? mimeType : 'application/octet-stream',
    ...(typeof size === 'number' ? { size } : {}),
    origin: 'rag',
  };
}
